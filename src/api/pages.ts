import type { ApiClient, ApiEnvelope } from '../http/client.js';

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

/** Fetches one page of a list route and normalises its `meta`. */
export async function fetchPage<T>(
  client: ApiClient,
  path: string,
  query: Record<string, string | number | boolean | undefined>,
  accountContext = false,
  { callerHandlesRateLimit }: PageRequestOptions = {},
): Promise<Page<T>> {
  const envelope: ApiEnvelope<T[]> = await client.request<T[]>({ method: 'GET', path, query, accountContext, callerHandlesRateLimit });
  const items = Array.isArray(envelope.data) ? envelope.data : [];
  return { items, total: envelope.meta?.total ?? items.length, totalPages: envelope.meta?.totalPages };
}
