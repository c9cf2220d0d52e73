import { listWithdrawals } from '../../api/withdrawals.js';
import type { Context } from '../../context.js';
import { withdrawalView } from '../../output/views.js';
import { parsePaging, runList } from '../shared/list.js';
import type { CommandInput } from '../spec.js';

export async function run(ctx: Context, { opts }: CommandInput): Promise<void> {
  const paging = parsePaging(opts);
  const api = await ctx.api();
  if (ctx.output.format === 'table') await ctx.output.note(`withdrawals of the ${ctx.accountLabel()}`);
  await runList(ctx, withdrawalView, paging, (query) => listWithdrawals(api, query));
}
