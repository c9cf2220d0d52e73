import { getBankAccount } from '../../api/bank-accounts.js';
import type { Invocation } from '../spec.js';
import type { bankAccountsGet } from './index.js';

export async function run({ services, args: [id], print }: Invocation<typeof bankAccountsGet>): Promise<void> {
  await print(await getBankAccount(await services.api(), id));
}
