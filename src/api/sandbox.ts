import type { ApiClient } from '../http/client.js';
import { pageOf, type Page, type PageQuery, type PageRequestOptions } from './pages.js';
import type { CreditBalanceRequest, SettlementStatus } from './types.js';
import type { Answers } from './validators.js';

/** Routes only the sandbox serves: they play the platform's back office. */
export async function approveSubaccount(client: ApiClient, id: string): Promise<Answers['sandboxApproveSubaccount'] | undefined> {
  return (await client.call('sandboxApproveSubaccount', { params: { subaccountId: id } }))?.data;
}

export async function settleWithdrawal(client: ApiClient, id: string, status: SettlementStatus): Promise<Answers['sandboxSettleWithdrawal'] | undefined> {
  return (await client.call('sandboxSettleWithdrawal', { params: { withdrawalId: id }, body: { status } }))?.data;
}

export async function creditBalance(client: ApiClient, credit: CreditBalanceRequest): Promise<Answers['sandboxCreditBalance'] | undefined> {
  return (await client.call('sandboxCreditBalance', { body: credit }))?.data;
}

export type ListedSandboxSubaccount = Answers['sandboxListSubaccounts'][number];

/** The sandbox's own list of the company's sub-accounts (the API has none); a platform without it answers 404. */
export async function listSandboxSubaccounts(client: ApiClient, query: PageQuery, options?: PageRequestOptions): Promise<Page<ListedSandboxSubaccount>> {
  const { data, meta } = await client.call('sandboxListSubaccounts', { query, ...options });
  return pageOf(data, meta, query);
}
