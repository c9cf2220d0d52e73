/** What a handler receives and returns, and the helpers every handler shares. */
import type { PageQuery as ApiPageQuery } from '../api/pages.js';
import type { ListMeta } from '../api/types.js';
import type { ChangeSet } from './changes.js';
import { ApiError, type ErrorKind } from './errors.js';
import type { AccessClaims } from './jwt.js';
import type { PostbackDispatcher } from './postbacks.js';
import type { SeedConfig } from './seed.js';
import type { Account, Company, SandboxStore } from './store.js';

/** Long-lived parts of a running sandbox that handlers use. */
export interface SandboxServices {
  store: SandboxStore;
  seedConfig: SeedConfig;
  postbacks: PostbackDispatcher;
  tokenTtlSeconds: number;
  /** token → claims of tokens already verified (see authenticate in server.ts) */
  verifiedTokens: Map<string, AccessClaims>;
}

/** A request that passed routing and validation. Body, params and query match the document's schemas. */
export interface PublicRequest {
  params: Record<string, unknown>;
  query: Record<string, unknown>;
  body: unknown;
  now: Date;
  services: SandboxServices;
}

/** An authenticated request: the token's company and the account context. */
export interface CompanyRequest extends PublicRequest {
  company: Company;
  /** the main account, or the sub-account named by x-subaccount-id on the routes that take it */
  account: Account;
  /** every record the handler creates, changes or removes is noted here (see changes.ts) */
  changes: ChangeSet;
}

export interface Reply {
  /** defaults to the operation's success status in the document */
  status?: number;
  body: unknown;
}

export const single = (data: unknown, message: string): Reply => ({ body: { data, message } });

/** A list query as the sandbox serves it: the API's, with the schema's defaults filled in. */
export type PageQuery = Required<ApiPageQuery>;

/** page and limit of a list query (validated, defaults filled in by the schema) */
export const pageQuery = (query: Record<string, unknown>): PageQuery => ({ page: query.page as number, limit: query.limit as number });

export function pageMeta(total: number, { page, limit }: PageQuery): ListMeta {
  return { total, page, limit, totalPages: Math.ceil(total / limit) };
}

/** Anything that pages like IndexedList (customers are a CustomerDirectory). */
interface Pageable {
  readonly size: number;
  page(page: number, limit: number): unknown[];
}

/** One page of a list, oldest first, in the usual list envelope. */
export function pagedReply(list: Pageable, query: Record<string, unknown>, message: string): Reply {
  const paging = pageQuery(query);
  return { body: { data: list.page(paging.page, paging.limit), meta: pageMeta(list.size, paging), message } };
}

/** The record with this id, or the kind's not-found error: another company's ids land here too. */
export function findOrFail<Id, T>(list: { get(id: Id): T | undefined }, id: unknown, notFound: ErrorKind, label: string): T {
  const record = list.get(id as Id);
  if (!record) throw new ApiError(notFound, `${label} ${String(id)} not found`);
  return record;
}
