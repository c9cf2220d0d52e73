import { getSubscription, removeSplit } from '../../api/subscriptions.js';
import type { Context } from '../../context.js';
import { formatCentsExact } from '../../output/money.js';
import { messageView } from '../../output/views.js';
import { parseUuid } from '../../validate.js';
import { confirmChange } from '../shared/confirm.js';
import type { CommandInput } from '../spec.js';

export async function run(ctx: Context, { args }: CommandInput): Promise<void> {
  const subscriptionId = parseUuid('SUBSCRIPTION_ID', args[0]!);
  const splitId = parseUuid('SPLIT_ID', args[1]!);
  ctx.output.fieldsFor(messageView);
  const api = await ctx.api();
  const subscription = await getSubscription(api, subscriptionId);
  const split = subscription.splits.find((s) => s.id === splitId);
  const value = !split
    ? 'not among this subscription\'s splits (payctl subs get shows them)'
    : split.splitType === 'AMOUNT'
      ? formatCentsExact(split.splitAmount ?? 0)
      : `${split.splitPercentage}% of the amount`;
  await confirmChange(
    ctx,
    [
      'About to remove a split. This cannot be undone.',
      `  subscription: ${subscription.id} "${subscription.title}" (${formatCentsExact(subscription.amount)})`,
      `  split:        ${splitId}: ${value}`,
      ...(split ? [`  receiver:     sub-account ${split.subaccountId}${split.chargebackLiable ? ', chargeback liable' : ''}`] : []),
    ],
    'Remove this split?',
  );
  const result = await removeSplit(api, subscriptionId, splitId);
  await ctx.output.item(messageView, result);
}
