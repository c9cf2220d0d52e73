import type { Context } from '../../context.js';
import { alsoListing } from '../../errors.js';
import { flagOf, switchOption, valueOption, type OptionDefs, type OptionValues } from '../spec.js';
import { parseLimit, parsePage } from '../../validation/flags.js';
import type { View } from '../../output/views.js';
import { statusLine } from '../../output/status-line.js';
import { scanPages, pagesOf, type PageFetcher, type ScanProgress, type ScanResult } from './scan.js';

export { pagesOf, type PageFetcher };

/** Items a page when payctl reads a whole list (the API's largest page). */
export const SCAN_PAGE_SIZE = 100;

/** The paging flags every list command takes. */
export const PAGING_OPTIONS = {
  page: valueOption('n', 'page to show, from 1 (default 1)', parsePage),
  limit: valueOption('n', 'items per page, 1 to 100 (default 20; 100 with --all)', parseLimit),
  all: switchOption('every page, in order (fetched a few at a time; a failure mid-way exits non-zero)'),
} satisfies OptionDefs;

const ALL_FLAG = flagOf('all', PAGING_OPTIONS.all);
const PAGE_FLAG = flagOf('page', PAGING_OPTIONS.page);

/** --all and --page are one or the other (a list command's `exclusive`). */
export const ALL_OR_PAGE = { options: ['all', 'page'], reason: `${ALL_FLAG} fetches every page` } as const;

/** A list command's invocation: its view and its paging values. */
export interface ListInvocation extends Context {
  readonly view: View;
  readonly opts: OptionValues<typeof PAGING_OPTIONS>;
}

/**
 * Pages in flight for `--all` (and as many answered, waiting their turn): enough to keep the
 * connection busy, few enough to stay polite and flat in memory.
 */
export const PAGE_CONCURRENCY = 4;
export const ALL_PAGES_PACE = { startConcurrency: PAGE_CONCURRENCY, maxConcurrency: PAGE_CONCURRENCY };

/** How far a list has come, on stderr at a terminal. */
export function progressLine(io: Context['io'], noun: string): { update: (progress: ScanProgress) => void; done: () => void } {
  const line = statusLine(io);
  return {
    update: ({ items, total }) =>
      line.show(() => `${noun}: ${items}/${total} (${total > 0 ? Math.min(100, Math.floor((items / total) * 100)) : 100}%)`, items >= total),
    done: () => line.done(),
  };
}

/**
 * Runs a list command: one page, or with --all every page, written in order as it
 * arrives. `--fields` is checked against the view before the first request.
 */
export async function runList<T>(invocation: ListInvocation, fetch: PageFetcher<T>): Promise<void> {
  const { io, view, opts } = invocation;
  if (!opts.all) {
    const writer = io.output.list(view);
    const [number, limit] = [opts.page ?? 1, opts.limit ?? 20];
    const page = await fetch({ page: number, limit }, io.signal);
    await writer.write(page.items);
    const pages = page.totalPages ?? Math.ceil(page.total / limit);
    await writer.end({ total: page.total, page: number, pages, next: number < pages ? nextPageCommand(io.argv, number + 1) : undefined });
    return;
  }
  await writeAllPages(invocation, view, fetch, opts.limit ?? 100);
}

/**
 * Says on stderr how far a list got before it failed with `error`, and returns the
 * error to throw, which says it too (a JSON error is all stderr holds in json modes);
 * not when the run was cut short (Ctrl-C, or stdout's reader gone, as with `| head`):
 * main has answered, quietly.
 */
export async function failedMidway(io: Context['io'], text: string, error: unknown): Promise<unknown> {
  if (io.interrupts.stopped) return error;
  await io.output.note(text);
  return alsoListing(error, [text]);
}

/**
 * Writes every page of a list, in order. On a failure mid-way the output is
 * ended as cut short (a json array is left unclosed), stderr says how much was
 * written, and the error's exit code stands.
 */
export async function writeAllPages<T>({ io }: Context, view: View, fetch: PageFetcher<T>, limit: number): Promise<void> {
  const writer = io.output.list(view);
  const progress = progressLine(io, view.noun);
  let total = 0;
  try {
    ({ total } = await scanPages(fetch, (items) => writer.write(items), {
      ...ALL_PAGES_PACE,
      limit,
      signal: io.signal,
      onProgress: (p) => {
        total = p.total;
        progress.update(p);
      },
    }));
  } catch (error) {
    progress.done();
    await writer.abort();
    throw await failedMidway(io, `the list is incomplete: ${writer.count} of ${total || 'an unknown number of'} ${view.noun} were written before the failure`, error);
  }
  progress.done();
  await writer.end({ total: Math.max(total, writer.count) });
}

/**
 * Writes the items of a list that `keep` accepts, scanning every page many at a
 * time (scan.ts): json, ndjson, csv and tsv get each match as soon as its page
 * (and every page before it) is in, so the first shows long before the scan
 * ends; a table, which needs every row to align, shows them at the end. The
 * footer says how many of those looked at matched. A failure mid-way is
 * reported as for writeAllPages.
 */
export async function writeMatches<T>({ io }: Context, view: View, fetch: PageFetcher<T>, keep: (item: T) => boolean): Promise<void> {
  const writer = io.output.list(view);
  const progress = progressLine(io, `${view.noun} scanned`);
  let result: ScanResult;
  try {
    result = await scanPages(fetch, (items) => writer.write(items.filter(keep)), {
      limit: SCAN_PAGE_SIZE,
      onProgress: (p) => progress.update(p),
      signal: io.signal,
    });
  } catch (error) {
    progress.done();
    await writer.abort();
    throw await failedMidway(io, `the search did not finish; ${view.noun} matching before the failure: ${writer.count}`, error);
  }
  progress.done();
  await writer.end({ scanned: result.total });
}

/** What to type for another page: the command as it was typed, its `--page` replaced. */
export function nextPageCommand(argv: readonly string[], page: number): string {
  const kept = argv.filter((arg, i) => !(arg === PAGE_FLAG || arg.startsWith(`${PAGE_FLAG}=`) || argv[i - 1] === PAGE_FLAG));
  return ['payctl', ...kept, PAGE_FLAG, String(page)].map(shellWord).join(' ');
}

/** A word as a POSIX shell reads it back: quoted when it holds anything but plain characters. */
const shellWord = (word: string) => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`);
