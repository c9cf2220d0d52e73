import { ExitCode, PayctlError } from '../errors.js';
import type { ApiClient } from '../http/client.js';
import type { CreateSubaccountPfRequest, CreateSubaccountPjRequest } from './types.js';
import type { Answers } from './validators.js';

export type SubaccountKind = 'pf' | 'pj';

export async function createSubaccount(
  client: ApiClient,
  kind: SubaccountKind,
  body: CreateSubaccountPfRequest | CreateSubaccountPjRequest,
): Promise<Answers['createSubaccountPf' | 'createSubaccountPj'] | undefined> {
  if (kind === 'pf') return (await client.call('createSubaccountPf', { body }))?.data;
  if (!('juridicLegalData' in body)) throw new PayctlError('a PJ sub-account is created with its juridicLegalData', ExitCode.internalError);
  return (await client.call('createSubaccountPj', { body }))?.data;
}
