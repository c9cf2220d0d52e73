import type { ReadOptions } from '../http/client.js';

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
export interface PageRequestOptions extends ReadOptions {
  /** A page scan waits out a 429 itself, at its own pace (ApiRequest's `callerHandlesRateLimit`). */
  callerHandlesRateLimit?: boolean;
}

/** A count from `meta`, or undefined when the answer gave none that can be one. */
const countOf = (value: unknown): number | undefined => (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : undefined);

/**
 * One page of a list route, its `meta` normalised. `meta` is not needed, and counts
 * that are not counts are ignored. Without a total, a full page says there is at
 * least one more item, so `--all` goes on until a page comes back short.
 */
export function pageOf<T>(items: T[], meta: unknown, query: PageQuery): Page<T> {
  const counts: Partial<Record<string, unknown>> = typeof meta === 'object' && meta !== null ? meta : {};
  const page = query.page ?? 1;
  const limit = query.limit;
  const atLeast = (page - 1) * (limit ?? 0) + items.length + (limit !== undefined && items.length >= limit ? 1 : 0);
  return { items, total: Math.max(countOf(counts.total) ?? atLeast, items.length), totalPages: countOf(counts.totalPages) };
}
