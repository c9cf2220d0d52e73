import { getWithdrawal } from '../../api/withdrawals.js';
import type { Context } from '../../context.js';
import { withdrawalView } from '../../output/views.js';
import { parseUuid } from '../../validate.js';
import type { CommandInput } from '../spec.js';

export async function run(ctx: Context, { args }: CommandInput): Promise<void> {
  const id = parseUuid('ID', args[0]!);
  ctx.output.fieldsFor(withdrawalView);
  await ctx.output.item(withdrawalView, await getWithdrawal(await ctx.api(), id));
}
