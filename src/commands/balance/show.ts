import { getBalance } from '../../api/withdrawals.js';
import type { Context } from '../../context.js';
import { balanceView } from '../../output/views.js';

export async function run(ctx: Context): Promise<void> {
  ctx.output.fieldsFor(balanceView);
  const balance = await getBalance(await ctx.api());
  if (ctx.output.format === 'table') await ctx.output.note(`balance of the ${ctx.accountLabel()} (profile ${ctx.settings().profileName})`);
  await ctx.output.item(balanceView, balance);
}
