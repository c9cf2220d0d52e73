import { getBankAccount } from '../../api/bank-accounts.js';
import type { Context } from '../../context.js';
import { bankAccountView } from '../../output/views.js';
import { parseBankAccountId } from '../../validate.js';
import type { CommandInput } from '../spec.js';

export async function run(ctx: Context, { args }: CommandInput): Promise<void> {
  const id = parseBankAccountId('ID', args[0]!);
  ctx.output.fieldsFor(bankAccountView);
  await ctx.output.item(bankAccountView, await getBankAccount(await ctx.api(), id));
}
