import { deleteBankAccount, getBankAccount } from '../../api/bank-accounts.js';
import type { Context } from '../../context.js';
import { messageView } from '../../output/views.js';
import { parseBankAccountId } from '../../validate.js';
import { confirmChange } from '../shared/confirm.js';
import { describeBankAccount } from '../shared/pickers.js';
import type { CommandInput } from '../spec.js';

export async function run(ctx: Context, { args }: CommandInput): Promise<void> {
  const id = parseBankAccountId('ID', args[0]!);
  ctx.output.fieldsFor(messageView);
  const api = await ctx.api();
  const account = await getBankAccount(api, id);
  await confirmChange(
    ctx,
    ['About to delete a bank account. This cannot be undone.', `  bank account: ${account.id}: ${describeBankAccount(account)}, document ${account.document}`],
    `Delete bank account ${account.id}?`,
  );
  await ctx.output.item(messageView, await deleteBankAccount(api, id));
}
