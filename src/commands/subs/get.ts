import { getSubscription } from '../../api/subscriptions.js';
import type { Context } from '../../context.js';
import { splitView, subscriptionView } from '../../output/views.js';
import { parseUuid } from '../../validate.js';
import type { CommandInput } from '../spec.js';

export async function run(ctx: Context, { args }: CommandInput): Promise<void> {
  const id = parseUuid('ID', args[0]!);
  ctx.output.fieldsFor(subscriptionView);
  const subscription = await getSubscription(await ctx.api(), id);
  await ctx.output.item(subscriptionView, subscription);
  // A table shows the splits below, with the ids remove-split needs.
  if (ctx.output.format === 'table' && !ctx.output.options.fields && subscription.splits.length > 0) {
    await ctx.output.note('');
    const splits = ctx.output.list(splitView);
    await splits.write(subscription.splits);
    await splits.end();
  }
}
