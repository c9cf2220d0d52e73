import type { ApiClient } from '../http/client.js';
import { fetchPage, type Page, type PageQuery } from './pages.js';
import type { BankAccount, MessageResult } from './types.js';

export const listBankAccounts = (client: ApiClient, query: PageQuery): Promise<Page<BankAccount>> =>
  fetchPage<BankAccount>(client, 'listBankAccounts', '/bank_accounts', { ...query }, true);

export async function getBankAccount(client: ApiClient, id: number): Promise<BankAccount> {
  return (await client.request<BankAccount>({ method: 'GET', path: `/bank_accounts/${id}`, accountContext: true, operation: 'getBankAccount', resourceId: id })).data;
}

export async function deleteBankAccount(client: ApiClient, id: number): Promise<MessageResult | undefined> {
  return (await client.request<MessageResult>({ method: 'DELETE', path: `/bank_accounts/${id}`, accountContext: true, operation: 'deleteBankAccount' }))?.data;
}
