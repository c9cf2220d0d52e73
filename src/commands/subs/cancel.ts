import { cancelSubscription, getSubscription } from '../../api/subscriptions.js';
import type { Context } from '../../context.js';
import { formatCentsExact } from '../../output/money.js';
import { messageView } from '../../output/views.js';
import { parseUuid } from '../../validate.js';
import { confirmChange } from '../shared/confirm.js';
import type { CommandInput } from '../spec.js';

export async function run(ctx: Context, { args }: CommandInput): Promise<void> {
  const id = parseUuid('ID', args[0]!);
  ctx.output.fieldsFor(messageView);
  const api = await ctx.api();
  const subscription = await getSubscription(api, id);
  await confirmChange(
    ctx,
    [
      'About to cancel a subscription. This cannot be undone: it can never be reactivated.',
      `  subscription: ${subscription.id} "${subscription.title}" (${subscription.status})`,
      `  charges:      ${formatCentsExact(subscription.amount)} every ${subscription.frequency} days, customer ${subscription.customerId}`,
      `  splits:       ${subscription.splits.length}`,
    ],
    `Cancel subscription "${subscription.title}"?`,
  );
  const cancelled = await cancelSubscription(api, id);
  await ctx.output.item(messageView, { message: `subscription ${cancelled.id} cancelled`, ...cancelled });
}
