import type { ApiClient } from '../http/client.js';
import { fetchPage, type Page, type PageQuery } from './pages.js';
import type { Balances, CreditBalanceRequest, SettlementStatus, Subaccount, Withdrawal } from './types.js';

/** Routes only the sandbox serves: they play the platform's back office. */
export async function approveSubaccount(client: ApiClient, id: string): Promise<Subaccount | undefined> {
  const path = `/sandbox/subaccounts/${encodeURIComponent(id)}/approve`;
  return (await client.request<Subaccount>({ method: 'POST', path, operation: 'sandboxApproveSubaccount' }))?.data;
}

export async function settleWithdrawal(client: ApiClient, id: string, status: SettlementStatus): Promise<Withdrawal | undefined> {
  const path = `/sandbox/withdrawals/${encodeURIComponent(id)}/settle`;
  return (await client.request<Withdrawal>({ method: 'POST', path, body: { status }, accountContext: true, operation: 'sandboxSettleWithdrawal' }))?.data;
}

export async function creditBalance(client: ApiClient, credit: CreditBalanceRequest): Promise<Balances | undefined> {
  const request = { method: 'POST', path: '/sandbox/balance', body: credit, accountContext: true, operation: 'sandboxCreditBalance' } as const;
  return (await client.request<Balances>(request))?.data;
}

/** The sandbox's own list of the company's sub-accounts (the API has none); a platform without it answers 404. */
export const listSandboxSubaccounts = (client: ApiClient, query: PageQuery): Promise<Page<Subaccount>> =>
  fetchPage<Subaccount>(client, 'sandboxListSubaccounts', '/sandbox/subaccounts', { ...query });
