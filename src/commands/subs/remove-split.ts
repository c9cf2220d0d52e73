import { removeSplit } from '../../api/subscriptions.js';
import type { SubscriptionAnswer } from '../../api/subscriptions.js';
import { usageError } from '../../errors.js';
import { formatCentsExact } from '../../money.js';
import { resolveRequired } from '../../prompt.js';
import { subaccountLabel } from '../../subaccount-names.js';
import { confirmChange } from '../shared/confirm.js';
import { SPLIT_NOT_FOUND, withHints } from '../shared/hints.js';
import { CHANGEABLE, describeSplitValue, pickSplit, pickSubscription } from '../shared/pickers.js';
import type { Invocation } from '../spec.js';
import { cancelledHint, changeableSubscription } from './changeable.js';
import type { subsRemoveSplit } from './index.js';

/**
 * Missing ids are picked at a terminal: the subscription among those with splits,
 * then one of its splits. A split that is not the subscription's, or a cancelled
 * subscription, is refused before asking (exit 2, nothing sent).
 */
export async function run(invocation: Invocation<typeof subsRemoveSplit>): Promise<void> {
  const { services, args, needArg, print } = invocation;
  const api = await services.api();
  let read: Promise<SubscriptionAnswer> | undefined;
  const subscriptionNamed = (id: string) => (read ??= changeableSubscription(api, id, 'remove a split from'));
  const withSplits = { statuses: CHANGEABLE, withSplits: true, message: 'Subscription to remove a split from' };
  let chosen = args[0];
  const { subscriptionId, splitId } = await resolveRequired(invocation, {
    subscriptionId: needArg(0, async (field) => (chosen = await pickSubscription(invocation, field, withSplits))),
    splitId: needArg(1, async (field) => pickSplit(invocation, field, await subscriptionNamed(chosen!))),
  });
  const subscription = await subscriptionNamed(subscriptionId);
  const split = subscription.splits.find((s) => s.id === splitId);
  if (!split) {
    throw usageError(
      `split ${splitId} is not one of the splits of subscription ${subscription.id} "${subscription.title}": nothing was sent`,
      `see its splits: payctl subs get ${subscription.id}`,
    );
  }
  await confirmChange(
    invocation,
    [
      'About to remove a split. This cannot be undone.',
      `  subscription: ${subscription.id} "${subscription.title}" (${formatCentsExact(subscription.amount)})`,
      `  split:        ${splitId}: ${describeSplitValue(split)}`,
      `  receiver:     sub-account ${subaccountLabel(services, split.subaccountId)}${split.chargebackLiable ? ', chargeback liable' : ''}`,
    ],
    'Remove this split?',
  );
  const hints = { ...cancelledHint(subscription.id), [SPLIT_NOT_FOUND]: `see its splits: payctl subs get ${subscription.id}` };
  const result = await withHints(removeSplit(api, subscription.id, splitId), hints);
  if (result) await print(result);
}
