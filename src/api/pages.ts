import type { ApiClient, ApiEnvelope } from '../http/client.js';
import { ExitCode, PayctlError } from '../errors.js';
import type { OperationId } from './answers.js';

export interface PageQuery {
  page?: number;
  limit?: number;
}

export interface Page<T> {
  items: T[];
  /** Total number of items across pages. */
  total: number;
  /** Absent for withdrawals, whose list gives only `meta.total`. */
  totalPages?: number;
}

/** How a page is asked for. */
export interface PageRequestOptions {
  /** A page scan waits out a 429 itself, at its own pace (ApiRequest's `callerHandlesRateLimit`). */
  callerHandlesRateLimit?: boolean;
}

/** A count from `meta`, or undefined when the answer gave none that can be one. */
const countOf = (value: unknown): number | undefined => (Number.isSafeInteger(value) && (value as number) >= 0 ? (value as number) : undefined);

/**
 * Fetches one page of a list route and normalises its `meta`. The answer's check
 * has made `data` an array; `meta` is not needed, and counts that are not counts
 * are ignored. Without a total, a full page says there is at least one more item,
 * so `--all` goes on until a page comes back short.
 */
export async function fetchPage<T>(
  client: ApiClient,
  /** Undefined for a route called raw (`api … --paginate`), whose answer is not checked: its data must then be a list. */
  operation: OperationId | undefined,
  path: string,
  query: Record<string, string | number | boolean | undefined>,
  accountContext = false,
  { callerHandlesRateLimit }: PageRequestOptions = {},
): Promise<Page<T>> {
  const envelope: ApiEnvelope<T[]> = await client.request<T[]>({ method: 'GET', path, query, accountContext, operation, callerHandlesRateLimit });
  const items = envelope.data;
  if (!Array.isArray(items)) throw new PayctlError(`GET ${path} answered no list (its data is not an array), so it has no pages to follow`, ExitCode.usage);
  const meta: Record<string, unknown> | undefined = typeof envelope.meta === 'object' && envelope.meta !== null ? envelope.meta : undefined;
  const page = typeof query.page === 'number' ? query.page : 1;
  const limit = typeof query.limit === 'number' ? query.limit : undefined;
  const atLeast = (page - 1) * (limit ?? 0) + items.length + (limit !== undefined && items.length >= limit ? 1 : 0);
  return { items, total: Math.max(countOf(meta?.total) ?? atLeast, items.length), totalPages: countOf(meta?.totalPages) };
}
