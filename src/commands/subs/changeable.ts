import { getSubscription, type SubscriptionAnswer } from '../../api/subscriptions.js';
import { usageError } from '../../errors.js';
import type { ApiClient } from '../../http/client.js';
import { formatLocalTime } from '../../output/time.js';
import { SUBSCRIPTION_CANCELLED } from '../shared/hints.js';

/**
 * The subscription, read before it is changed: a cancelled (DELETED) one can
 * never change again, so payctl refuses before asking or sending (exit 2,
 * nothing sent) instead of sending what the API would refuse with 409 -7602.
 */
export async function changeableSubscription(api: ApiClient, id: string, change: string): Promise<SubscriptionAnswer> {
  const subscription = await getSubscription(api, id);
  if (subscription.status === 'DELETED') {
    const when = typeof subscription.canceledAt === 'string' ? ` on ${formatLocalTime(subscription.canceledAt)}` : '';
    throw usageError(
      `subscription ${subscription.id} "${subscription.title}" was cancelled${when} (DELETED) and can never change again, ` +
        `so payctl did not ${change} it: nothing was sent`,
      `see it: payctl subs get ${subscription.id}`,
    );
  }
  return subscription;
}

/** The hint for a subscription the API says is cancelled (another process cancelled it meanwhile). */
export const cancelledHint = (id: string) => ({ [SUBSCRIPTION_CANCELLED]: `a cancelled subscription never changes again: payctl subs get ${id}` });
