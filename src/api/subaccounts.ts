import type { ApiClient } from '../http/client.js';
import type { CreateSubaccountPfRequest, CreateSubaccountPjRequest, Subaccount } from './types.js';

export type SubaccountKind = 'pf' | 'pj';

export async function createSubaccount(
  client: ApiClient,
  kind: SubaccountKind,
  body: CreateSubaccountPfRequest | CreateSubaccountPjRequest,
): Promise<Subaccount | undefined> {
  const operation = kind === 'pf' ? 'createSubaccountPf' : 'createSubaccountPj';
  return (await client.request<Subaccount>({ method: 'POST', path: `/subaccounts/${kind}`, operation, body }))?.data;
}
