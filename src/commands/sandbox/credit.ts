import { creditBalance } from '../../api/sandbox.js';
import type { Context } from '../../context.js';
import { usageError } from '../../errors.js';
import { balanceView } from '../../output/views.js';
import { parseCents } from '../../validate.js';
import { optString, type CommandInput } from '../spec.js';
import { assertNotProduction } from './guard.js';

export async function run(ctx: Context, { opts }: CommandInput): Promise<void> {
  const credit = Object.fromEntries(
    (['pix', 'card', 'billet'] as const).flatMap((method) => {
      const raw = optString(opts, method);
      return raw === undefined ? [] : [[method, parseCents(`--${method}`, raw)]];
    }),
  );
  if (Object.keys(credit).length === 0) throw usageError('give at least one of --pix, --card, --billet (integer cents)');
  ctx.output.fieldsFor(balanceView);
  assertNotProduction(ctx);
  await ctx.output.item(balanceView, await creditBalance(await ctx.api(), credit));
}
