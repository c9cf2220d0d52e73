import type { Page } from '../../api/pages.js';
import type { Context } from '../../context.js';
import type { OptionSpec } from '../spec.js';
import { optString } from '../spec.js';
import { parseLimit, parsePage } from '../../validate.js';
import type { View } from '../../output/views.js';
import { usageError } from '../../errors.js';

/** The paging flags every list command takes. */
export const PAGING_OPTIONS: readonly OptionSpec[] = [
  { flags: '--page <n>', description: 'page to show, from 1 (default 1)' },
  { flags: '--limit <n>', description: 'items per page, 1 to 100 (default 20; 100 with --all)' },
  { flags: '--all', description: 'every page, in order' },
];

export interface PagingInput {
  page?: number;
  limit?: number;
  all: boolean;
}

/** Validates the paging flags before anything is sent. */
export function parsePaging(opts: Record<string, unknown>): PagingInput {
  const page = optString(opts, 'page');
  const limit = optString(opts, 'limit');
  const all = opts.all === true;
  if (all && page !== undefined) throw usageError('--all and --page cannot be used together: --all fetches every page');
  return {
    page: page === undefined ? undefined : parsePage('--page', page),
    limit: limit === undefined ? undefined : parseLimit('--limit', limit),
    all,
  };
}

export type PageFetcher<T> = (query: { page: number; limit: number }) => Promise<Page<T>>;

/**
 * Runs a list command: one page, or with --all every page, written as it arrives.
 * `--fields` is checked against the view before the first request.
 */
export async function runList<T>(ctx: Context, view: View, paging: PagingInput, fetch: PageFetcher<T>): Promise<void> {
  const writer = ctx.output.list(view);
  if (!paging.all) {
    const page = await fetch({ page: paging.page ?? 1, limit: paging.limit ?? 20 });
    await writer.write(page.items);
    await writer.end();
    return;
  }
  const limit = paging.limit ?? 100;
  try {
    for (let page = 1, seen = 0; ; page++) {
      const result = await fetch({ page, limit });
      await writer.write(result.items);
      seen += result.items.length;
      const done = result.totalPages !== undefined ? page >= result.totalPages : seen >= result.total;
      if (done || result.items.length === 0) break;
    }
  } catch (error) {
    await writer.abort();
    throw error;
  }
  await writer.end();
}
