import { getSubscription, removeSplit } from '../../api/subscriptions.js';
import { formatCentsExact } from '../../output/money.js';
import { confirmChange } from '../shared/confirm.js';
import type { Invocation } from '../spec.js';
import type { subsRemoveSplit } from './index.js';

export async function run(invocation: Invocation<typeof subsRemoveSplit>): Promise<void> {
  const { services, args: [subscriptionId, splitId], print } = invocation;
  const api = await services.api();
  const subscription = await getSubscription(api, subscriptionId);
  const split = subscription.splits.find((s) => s.id === splitId);
  const value = !split
    ? 'not among this subscription\'s splits (payctl subs get shows them)'
    : split.splitType === 'AMOUNT'
      ? formatCentsExact(split.splitAmount ?? 0)
      : `${split.splitPercentage}% of the amount`;
  await confirmChange(
    invocation,
    [
      'About to remove a split. This cannot be undone.',
      `  subscription: ${subscription.id} "${subscription.title}" (${formatCentsExact(subscription.amount)})`,
      `  split:        ${splitId}: ${value}`,
      ...(split ? [`  receiver:     sub-account ${split.subaccountId}${split.chargebackLiable ? ', chargeback liable' : ''}`] : []),
    ],
    'Remove this split?',
  );
  const result = await removeSplit(api, subscriptionId, splitId);
  if (result) await print(result);
}
