import { deleteBankAccount, getBankAccount } from '../../api/bank-accounts.js';
import { confirmChange } from '../shared/confirm.js';
import { describeBankAccount, pickBankAccount } from '../shared/pickers.js';
import { resolveRequired } from '../../prompt.js';
import type { Invocation } from '../spec.js';
import type { bankAccountsDelete } from './index.js';

export async function run(invocation: Invocation<typeof bankAccountsDelete>): Promise<void> {
  const { services, needArg, print } = invocation;
  const { id } = await resolveRequired(invocation, { id: needArg(0, (field) => pickBankAccount(invocation, field)) });
  const api = await services.api();
  const account = await getBankAccount(api, id);
  await confirmChange(
    invocation,
    ['About to delete a bank account. This cannot be undone.', `  bank account: ${account.id}: ${describeBankAccount(account)}, document ${account.document}`],
    `Delete bank account ${account.id}?`,
  );
  const result = await deleteBankAccount(api, id);
  if (result) await print(result);
}
