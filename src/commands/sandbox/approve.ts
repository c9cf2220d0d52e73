import { approveSubaccount } from '../../api/sandbox.js';
import type { Context } from '../../context.js';
import { subaccountView } from '../../output/views.js';
import { parseUuid } from '../../validate.js';
import type { CommandInput } from '../spec.js';
import { assertNotProduction } from './guard.js';

export async function run(ctx: Context, { args }: CommandInput): Promise<void> {
  const id = parseUuid('SUBACCOUNT-ID', args[0]!);
  ctx.output.fieldsFor(subaccountView);
  assertNotProduction(ctx);
  await ctx.output.item(subaccountView, await approveSubaccount(await ctx.api(), id));
}
