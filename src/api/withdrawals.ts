import type { ApiClient } from '../http/client.js';
import { fetchPage, type Page, type PageQuery } from './pages.js';
import type { Balances, Withdrawal, WithdrawRequest } from './types.js';

export async function getBalance(client: ApiClient): Promise<Balances> {
  return (await client.request<Balances>({ method: 'GET', path: '/withdrawals/balance', accountContext: true, operation: 'getBalance' })).data;
}

export const listWithdrawals = (client: ApiClient, query: PageQuery): Promise<Page<Withdrawal>> =>
  fetchPage<Withdrawal>(client, 'listWithdrawals', '/withdrawals', { ...query }, true);

export async function getWithdrawal(client: ApiClient, id: string): Promise<Withdrawal> {
  const path = `/withdrawals/${encodeURIComponent(id)}`;
  return (await client.request<Withdrawal>({ method: 'GET', path, accountContext: true, operation: 'getWithdrawal', resourceId: id })).data;
}

export async function withdraw(client: ApiClient, body: WithdrawRequest): Promise<Withdrawal | undefined> {
  return (await client.request<Withdrawal>({ method: 'POST', path: '/withdrawals/withdraw', body, accountContext: true, operation: 'withdraw' }))?.data;
}
