import { cancelSubscription, getSubscription } from '../../api/subscriptions.js';
import { formatCentsExact } from '../../output/money.js';
import { confirmChange } from '../shared/confirm.js';
import type { Invocation } from '../spec.js';
import type { subsCancel } from './index.js';

export async function run(invocation: Invocation<typeof subsCancel>): Promise<void> {
  const { services, args: [id], print } = invocation;
  const api = await services.api();
  const subscription = await getSubscription(api, id);
  await confirmChange(
    invocation,
    [
      'About to cancel a subscription. This cannot be undone: it can never be reactivated.',
      `  subscription: ${subscription.id} "${subscription.title}" (${subscription.status})`,
      `  charges:      ${formatCentsExact(subscription.amount)} every ${subscription.frequency} days, customer ${subscription.customerId}`,
      `  splits:       ${subscription.splits.length}`,
    ],
    `Cancel subscription "${subscription.title}"?`,
  );
  const cancelled = await cancelSubscription(api, id);
  if (cancelled) await print({ message: `subscription ${cancelled.id} cancelled`, ...cancelled });
}
