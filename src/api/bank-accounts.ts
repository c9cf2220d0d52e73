import type { ApiClient, ReadOptions } from '../http/client.js';
import { pageOf, type Page, type PageQuery, type PageRequestOptions } from './pages.js';
import type { Answers } from './validators.js';

export type ListedBankAccount = Answers['listBankAccounts'][number];
export type BankAccountAnswer = Answers['getBankAccount'];

export async function listBankAccounts(client: ApiClient, query: PageQuery, options?: PageRequestOptions): Promise<Page<ListedBankAccount>> {
  const { data, meta } = await client.call('listBankAccounts', { query, ...options });
  return pageOf(data, meta, query);
}

export async function getBankAccount(client: ApiClient, id: number | bigint, options?: ReadOptions): Promise<BankAccountAnswer> {
  return (await client.call('getBankAccount', { params: { bankAccountId: id }, ...options })).data;
}

export async function deleteBankAccount(client: ApiClient, id: number | bigint): Promise<Answers['deleteBankAccount'] | undefined> {
  return (await client.call('deleteBankAccount', { params: { bankAccountId: id } }))?.data;
}
