import type { ApiClient } from '../http/client.js';
import type { Balances, CreditBalanceRequest, SettlementStatus, Subaccount, Withdrawal } from './types.js';

/** Routes only the sandbox serves: they play the platform's back office. */
export async function approveSubaccount(client: ApiClient, id: string): Promise<Subaccount | undefined> {
  return (await client.request<Subaccount>({ method: 'POST', path: `/sandbox/subaccounts/${encodeURIComponent(id)}/approve`, operation: 'sandboxApproveSubaccount' }))?.data;
}

export async function settleWithdrawal(client: ApiClient, id: string, status: SettlementStatus): Promise<Withdrawal | undefined> {
  const path = `/sandbox/withdrawals/${encodeURIComponent(id)}/settle`;
  return (await client.request<Withdrawal>({ method: 'POST', path, body: { status }, accountContext: true, operation: 'sandboxSettleWithdrawal' }))?.data;
}

export async function creditBalance(client: ApiClient, credit: CreditBalanceRequest): Promise<Balances | undefined> {
  return (await client.request<Balances>({ method: 'POST', path: '/sandbox/balance', body: credit, accountContext: true, operation: 'sandboxCreditBalance' }))?.data;
}
