import { settleWithdrawal } from '../../api/sandbox.js';
import type { SettlementStatus } from '../../api/types.js';
import type { Context } from '../../context.js';
import { usageError } from '../../errors.js';
import { withdrawalView } from '../../output/views.js';
import { parseUuid } from '../../validate.js';
import { optString, type CommandInput } from '../spec.js';
import { assertNotProduction } from './guard.js';

export async function run(ctx: Context, { args, opts }: CommandInput): Promise<void> {
  const id = parseUuid('WITHDRAWAL-ID', args[0]!);
  const status = optString(opts, 'status') as SettlementStatus | undefined;
  if (!status) throw usageError('missing required flag: --status (COMPLETED or FAILED)');
  ctx.output.fieldsFor(withdrawalView);
  assertNotProduction(ctx);
  await ctx.output.item(withdrawalView, await settleWithdrawal(await ctx.api(), id, status));
}
