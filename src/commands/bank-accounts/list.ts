import { listBankAccounts } from '../../api/bank-accounts.js';
import { runList } from '../shared/list.js';
import type { Invocation } from '../spec.js';
import type { bankAccountsList } from './index.js';

export async function run(invocation: Invocation<typeof bankAccountsList>): Promise<void> {
  const { io, services } = invocation;
  const api = await services.api();
  if (io.output.format === 'table') await io.output.note(`bank accounts of the ${services.accountLabel()}`);
  await runList(invocation, (query, signal) => listBankAccounts(api, query, { signal }));
}
