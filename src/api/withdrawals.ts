import type { ApiClient, ReadOptions } from '../http/client.js';
import { pageOf, type Page, type PageQuery, type PageRequestOptions } from './pages.js';
import type { WithdrawRequest } from './types.js';
import type { Answers } from './validators.js';

export type ListedWithdrawal = Answers['listWithdrawals'][number];
export type WithdrawalAnswer = Answers['getWithdrawal'];
export type BalancesAnswer = Answers['getBalance'];

export async function getBalance(client: ApiClient, options?: ReadOptions): Promise<BalancesAnswer> {
  return (await client.call('getBalance', { ...options })).data;
}

export async function listWithdrawals(client: ApiClient, query: PageQuery, options?: PageRequestOptions): Promise<Page<ListedWithdrawal>> {
  const { data, meta } = await client.call('listWithdrawals', { query, ...options });
  return pageOf(data, meta, query);
}

export async function getWithdrawal(client: ApiClient, id: string, options?: ReadOptions): Promise<WithdrawalAnswer> {
  return (await client.call('getWithdrawal', { params: { withdrawalId: id }, ...options })).data;
}

export async function withdraw(client: ApiClient, body: WithdrawRequest): Promise<Answers['withdraw'] | undefined> {
  return (await client.call('withdraw', { body }))?.data;
}
