import { getBankAccount } from '../../api/bank-accounts.js';
import { resolveRequired } from '../../prompt.js';
import { pickBankAccount } from '../shared/pickers.js';
import type { Invocation } from '../spec.js';
import type { bankAccountsGet } from './index.js';

export async function run(invocation: Invocation<typeof bankAccountsGet>): Promise<void> {
  const { services, needArg, print } = invocation;
  const { id } = await resolveRequired(invocation, { id: needArg(0, (field) => pickBankAccount(invocation, field)) });
  await print(await getBankAccount(await services.api(), id));
}
