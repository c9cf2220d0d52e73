import type { Page } from '../../api/pages.js';
import type { Context } from '../../context.js';
import type { OptionSpec } from '../spec.js';
import { optString } from '../spec.js';
import { parseLimit, parsePage } from '../../validate.js';
import type { View } from '../../output/views.js';
import { usageError } from '../../errors.js';
import { statusLine } from '../../output/status-line.js';
import { loadBuiltin } from '../../builtin.js';

/** The paging flags every list command takes. */
export const PAGING_OPTIONS: readonly OptionSpec[] = [
  { flags: '--page <n>', description: 'page to show, from 1 (default 1)' },
  { flags: '--limit <n>', description: 'items per page, 1 to 100 (default 20; 100 with --all)' },
  { flags: '--all', description: 'every page, in order (fetched a few at a time; a failure mid-way exits non-zero)' },
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

/** Pages requested at once by `--all`: enough to keep the connection busy, few enough to stay polite and flat in memory. */
export const PAGE_CONCURRENCY = 4;

export interface PageProgress {
  items: number;
  total: number;
}

/**
 * Every page of a list, in order. Once the first page tells how many there are
 * (`totalPages`, or `total` over the page size for withdrawals, which give only
 * `meta.total`), up to `concurrency` pages are in flight and at most that many
 * wait to be yielded, so memory does not grow with the list. Pages continue past
 * the estimate while they come back full and `total` is not reached, and stop at
 * an empty page.
 */
export async function* allPages<T>(
  fetch: PageFetcher<T>,
  limit: number,
  onProgress?: (progress: PageProgress) => void,
  concurrency = PAGE_CONCURRENCY,
): AsyncGenerator<T[]> {
  const first = await fetch({ page: 1, limit });
  let total = first.total;
  let seen = first.items.length;
  onProgress?.({ items: seen, total });
  yield first.items;
  if (first.items.length === 0) return;
  const knownPages = first.totalPages ?? Math.ceil(total / limit);
  const pending = new Map<number, Promise<Page<T>>>();
  const start = (page: number) => {
    const promise = fetch({ page, limit });
    // Failures are raised when the page's turn comes; this keeps an early one from being "unhandled".
    promise.catch(() => undefined);
    pending.set(page, promise);
  };
  let nextToStart = 2;
  try {
    for (let page = 2; ; page++) {
      while (nextToStart <= knownPages && nextToStart < page + concurrency) start(nextToStart++);
      if (!pending.has(page)) {
        // Beyond the estimate: only when the list grew or lacks totalPages and is not complete yet.
        if (first.totalPages !== undefined || seen >= total) return;
        start(page);
        nextToStart = page + 1;
      }
      const result = await pending.get(page)!;
      pending.delete(page);
      total = Math.max(total, result.total);
      seen += result.items.length;
      onProgress?.({ items: seen, total });
      if (result.items.length > 0) yield result.items;
      if (result.items.length < limit && page >= knownPages) return;
      if (result.items.length === 0) return;
    }
  } finally {
    pending.clear();
  }
}

/** How far a list has come, on stderr at a terminal. */
function progressLine(ctx: Context, noun: string): { update: (progress: PageProgress) => void; done: () => void } {
  const line = statusLine(ctx);
  return {
    update: ({ items, total }) =>
      line.show(() => `${noun}: ${items}/${total} (${total > 0 ? Math.min(100, Math.floor((items / total) * 100)) : 100}%)`, items >= total),
    done: () => line.done(),
  };
}

/**
 * An export allocates fast (a page parsed, then written, every few milliseconds)
 * and V8 answers a high allocation rate by growing its heap, which doubles the
 * peak memory of a 100,000-item export although little of it stays alive. Keeping
 * the young generation at its first size, the heap's growth steps small and V8 in
 * its memory-saving mode holds the peak near that of a short list, for a little
 * more time in GC. A long export also makes V8's optimising compiler work, whose
 * compilations and code held 6 MB of the peak; its time is in JSON parsing and
 * writing, which that compiler does not touch, so it is turned off (measured:
 * 100,000 customers took 1.38-1.52 s instead of 1.36-1.40 s). (These flags are
 * set before the export allocates anything.)
 */
function keepHeapFlat(): void {
  // Verified with Node 20's V8; V8 prints an error for a flag it no longer knows,
  // so other versions keep their own sizing rather than risk noise on stderr.
  if (!process.versions.node.startsWith('20.')) return;
  const { setFlagsFromString } = loadBuiltin<typeof import('node:v8')>('node:v8');
  setFlagsFromString('--semi-space-growth-factor=1');
  setFlagsFromString('--heap-growing-percent=10');
  setFlagsFromString('--optimize-for-size');
  setFlagsFromString('--no-opt');
}

/**
 * Runs a list command: one page, or with --all every page, written in order as it
 * arrives. `--fields` is checked against the view before the first request.
 */
export async function runList<T>(ctx: Context, view: View, paging: PagingInput, fetch: PageFetcher<T>): Promise<void> {
  if (!paging.all) {
    const writer = ctx.output.list(view);
    const [number, limit] = [paging.page ?? 1, paging.limit ?? 20];
    const page = await fetch({ page: number, limit });
    await writer.write(page.items);
    const pages = page.totalPages ?? Math.ceil(page.total / limit);
    await writer.end({ total: page.total, page: number, pages, next: number < pages ? nextPageCommand(ctx.argv, number + 1) : undefined });
    return;
  }
  await writeAllPages(ctx, view, fetch, paging.limit ?? 100);
}

/**
 * Writes every page of a list, in order, keeping only the items `keep` accepts
 * (`customers find`). On a failure mid-way the output is ended as cut short (a
 * json array is left unclosed), stderr says how much was written, and the
 * error's exit code stands.
 */
export async function writeAllPages<T>(ctx: Context, view: View, fetch: PageFetcher<T>, limit: number, keep?: (item: T) => boolean): Promise<void> {
  const writer = ctx.output.list(view);
  keepHeapFlat();
  const progress = progressLine(ctx, keep ? `${view.noun} scanned` : view.noun);
  let total = 0;
  try {
    for await (const items of allPages(fetch, limit, (p) => {
      total = p.total;
      progress.update(p);
    })) {
      await writer.write(keep ? items.filter(keep) : items);
    }
  } catch (error) {
    progress.done();
    await writer.abort();
    await ctx.output.note(
      keep
        ? `the search did not finish: ${writer.count} matching ${view.noun} were written before the failure`
        : `the list is incomplete: ${writer.count} of ${total || 'an unknown number of'} ${view.noun} were written before the failure`,
    );
    throw error;
  }
  progress.done();
  // A search says how many of those looked at matched; a whole list, how many of how many the API counted.
  await writer.end(keep ? { scanned: total } : { total: Math.max(total, writer.count) });
}

/** What to type for another page: the command as it was typed, its `--page` replaced. */
export function nextPageCommand(argv: readonly string[], page: number): string {
  const kept = argv.filter((arg, i) => !(arg === '--page' || arg.startsWith('--page=') || argv[i - 1] === '--page'));
  return ['payctl', ...kept, '--page', String(page)].map(shellWord).join(' ');
}

/** A word as a POSIX shell reads it back: quoted when it holds anything but plain characters. */
const shellWord = (word: string) => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`);
