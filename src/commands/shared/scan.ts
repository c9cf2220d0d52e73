import { setMaxListeners } from 'node:events';
import type { ApiClient } from '../../http/client.js';
import type { Page, PageQuery, PageRequestOptions } from '../../api/pages.js';
import { ExitCode, PayctlError } from '../../errors.js';

/**
 * A scan of every page of a list (a search such as `customers find`, a
 * customer's subscriptions, a pick list): pages are asked for many at a time and
 * handed over in the list's order as soon as each and those before it are in
 * (they arrive nearly in order, as they are asked for in order), so a match is
 * shown a moment after it is found and the output is the same on every run.
 *
 * How many are in flight adapts as TCP's congestion window does: it starts at
 * START_CONCURRENCY and grows by one per page answered (doubling each round trip)
 * up to MAX_CONCURRENCY; a 429 halves it (once per wave of requests: the answers
 * to requests sent before the cut do not cut again), pauses every new request
 * until the `Retry-After` asked for has passed, and puts the page back to be
 * asked again; growth after a 429 is by one per round trip. A 429 never fails
 * the scan: it is waited out, unless the API answers nothing else for
 * GIVE_UP_AFTER_MS. Any other failure ends the scan with that error.
 */

/**
 * Asks for one page. `signal` is aborted when the page is no longer wanted: another page failed (the
 * run ends with that failure, without waiting for the answers of the pages still in flight), or the
 * run was cut short.
 */
export type PageFetcher<T> = (query: { page: number; limit: number }, signal: AbortSignal) => Promise<Page<T>>;

/**
 * The fetcher of a list operation's pages for a scan, with the list's own filters: the scan waits out
 * a 429 at its own pace, so the page's request leaves that to it.
 */
export function pagesOf<T, Filters extends object>(
  list: (client: ApiClient, query: PageQuery & Filters, options: PageRequestOptions) => Promise<Page<T>>,
  client: ApiClient,
  filters: Filters,
): PageFetcher<T> {
  return (query, signal) => list(client, { ...filters, ...query }, { callerHandlesRateLimit: true, signal });
}

export interface ScanProgress {
  /** Items looked at so far, and in the whole list as the API counts them. */
  items: number;
  total: number;
}

export interface ScanOptions {
  /** Items a page. */
  limit: number;
  onProgress?: (progress: ScanProgress) => void;
  /** Aborted when the run is cut short: no page is asked for after it. */
  signal?: AbortSignal;
  /** Pages in flight at first, and at most (tests and benchmarks set them). */
  startConcurrency?: number;
  maxConcurrency?: number;
}

export interface ScanResult {
  /** Items in the whole list, as the API counted them, or as many as were seen when more. */
  total: number;
  /** 429 answers waited out. */
  rateLimited: number;
}

export const START_CONCURRENCY = 16;
export const MAX_CONCURRENCY = 64;
/** A `Retry-After` longer than this is waited only this long before the page is asked again. */
const LONGEST_WAIT_MS = 60_000;
/** A 429 without `Retry-After` waits this long, doubling while they come in a row. */
const FIRST_BACKOFF_MS = 500;
/** Only 429s, with no page answered, for this long: the API is not letting the scan through. */
const GIVE_UP_AFTER_MS = 120_000;

const isRateLimited = (error: unknown): error is PayctlError => error instanceof PayctlError && error.status === 429;

/**
 * Asks for every page of a list and hands each to `onPage` in the list's order,
 * one at a time (`onPage` may write). Resolves once every page was handed over.
 */
export async function scanPages<T>(
  fetch: PageFetcher<T>,
  onPage: (items: T[], page: number) => void | Promise<void>,
  options: ScanOptions,
): Promise<ScanResult> {
  const { limit, signal } = options;
  const maxConcurrency = options.maxConcurrency ?? MAX_CONCURRENCY;
  const pace = new Pace(Math.min(options.startConcurrency ?? START_CONCURRENCY, maxConcurrency), maxConcurrency);
  let rateLimited = 0;
  let lastAnswerAt = Date.now();
  // The client joins the run's signal and this one into one signal per request (AbortSignal.any, which adds
  // no listener to either); a client without the run's listens to this one directly: Node warns beyond 10.
  const givenUp = new AbortController();
  setMaxListeners(maxConcurrency + 10, givenUp.signal);

  /** The page's answer, its 429s waited out (page 1, asked alone: it says how many pages there are). */
  const fetchAlone = async (page: number): Promise<Page<T>> => {
    for (let backoff = FIRST_BACKOFF_MS; ; backoff *= 2) {
      try {
        return await fetch({ page, limit }, givenUp.signal);
      } catch (error) {
        if (!isRateLimited(error) || Date.now() - lastAnswerAt > GIVE_UP_AFTER_MS) throw error;
        rateLimited++;
        await sleep(waitFor(error, backoff), signal);
      }
    }
  };

  const first = await fetchAlone(1);
  lastAnswerAt = Date.now();
  let total = first.total;
  let items = first.items.length;
  options.onProgress?.({ items, total });
  await onPage(first.items, 1);
  if (first.items.length === 0) return { total, rateLimited };
  let lastPage = first.totalPages ?? Math.ceil(total / limit);

  return new Promise<ScanResult>((resolve, reject) => {
    let nextPage = 2;
    let inFlight = 0;
    const again: number[] = [];
    let pausedUntil = 0;
    let backoff = FIRST_BACKOFF_MS;
    let timer: NodeJS.Timeout | undefined;
    let finished = false;
    // Pages answered but not yet handed over (one before them is still out, or `onPage` is busy):
    // no new page is asked for while too many are.
    const arrived = new Map<number, T[]>();
    let nextToHand = 2;
    let handing = false;

    const fail = (error: unknown) => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      // Cut short, the pages are given up for the run's reason; else for the scan's, which --debug shows.
      givenUp.abort(signal?.aborted ? signal.reason : new Error('given up: another page failed'));
      reject(error);
    };
    const onAbort = () => fail(signal?.reason instanceof Error ? signal.reason : interrupted());
    signal?.addEventListener('abort', onAbort, { once: true });

    const pump = () => {
      if (finished) return;
      const now = Date.now();
      if (now < pausedUntil) {
        clearTimeout(timer);
        timer = setTimeout(pump, pausedUntil - now);
        return;
      }
      // A page asked again goes first: the pages after it wait for it to be handed over.
      while (inFlight < pace.window && (again.length > 0 || (nextPage <= lastPage && arrived.size < maxConcurrency))) {
        launch(again.shift() ?? nextPage++);
      }
      if (inFlight === 0 && arrived.size === 0 && !handing && again.length === 0 && nextPage > lastPage) {
        finished = true;
        signal?.removeEventListener('abort', onAbort);
        resolve({ total: Math.max(total, items), rateLimited });
      }
    };

    /** Hands over the pages that are next in order, one at a time. */
    const handOver = async () => {
      if (handing) return;
      handing = true;
      try {
        while (!finished) {
          const page = arrived.get(nextToHand);
          if (page === undefined) break;
          await onPage(page, nextToHand);
          arrived.delete(nextToHand);
          nextToHand++;
        }
      } catch (error) {
        fail(error);
      } finally {
        handing = false;
      }
      pump();
    };

    const launch = (page: number) => {
      inFlight++;
      const sentAt = Date.now();
      fetch({ page, limit }, givenUp.signal).then(
        (result) => {
          inFlight--;
          if (finished) return;
          lastAnswerAt = Date.now();
          backoff = FIRST_BACKOFF_MS;
          pace.answered();
          total = Math.max(total, result.total);
          items += result.items.length;
          // The list grew while it was read: its count says so. Without a count, a full page counts one
          // more item (fetchPage), so the page after it is asked for until one comes back short.
          lastPage = Math.max(lastPage, Math.ceil(result.total / limit));
          options.onProgress?.({ items, total });
          arrived.set(page, result.items);
          void handOver();
          pump();
        },
        (error: unknown) => {
          inFlight--;
          if (finished) return;
          if (!isRateLimited(error) || Date.now() - lastAnswerAt > GIVE_UP_AFTER_MS) return fail(error);
          rateLimited++;
          pace.rateLimited(sentAt);
          again.push(page);
          pausedUntil = Math.max(pausedUntil, Date.now() + waitFor(error, backoff));
          backoff = Math.min(backoff * 2, LONGEST_WAIT_MS);
          pump();
        },
      );
    };

    pump();
  });
}

/** Every item of every page that `keep` accepts, in the list's order. */
export async function collectPages<T>(fetch: PageFetcher<T>, options: ScanOptions, keep: (item: T) => boolean = () => true): Promise<T[]> {
  const kept: T[] = [];
  await scanPages(fetch, (items) => void kept.push(...items.filter(keep)), options);
  return kept;
}

const interrupted = () => new PayctlError('interrupted', ExitCode.interrupted);

/** How long to wait after a 429: its `Retry-After` (at most LONGEST_WAIT_MS), else the backoff. */
const waitFor = (error: PayctlError, backoff: number) => Math.min(error.retryAfterMs ?? backoff, LONGEST_WAIT_MS);

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(interrupted());
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', stop);
      resolve();
    }, ms);
    const stop = () => {
      clearTimeout(timer);
      reject(interrupted());
    };
    signal?.addEventListener('abort', stop, { once: true });
  });
}

/**
 * How many pages may be in flight: a congestion window. Below the threshold it
 * grows by one per answer (slow start); above it, by one per window's worth of
 * answers. A 429 halves it, once per wave: answers to requests sent before the
 * cut do not cut it again.
 */
class Pace {
  private size: number;
  private threshold: number;
  private cutAt = 0;

  constructor(
    start: number,
    private readonly max: number,
  ) {
    this.size = start;
    this.threshold = max;
  }

  get window(): number {
    return Math.max(1, Math.floor(this.size));
  }

  answered(): void {
    this.size = Math.min(this.max, this.size < this.threshold ? this.size + 1 : this.size + 1 / this.size);
  }

  rateLimited(sentAt: number): void {
    if (sentAt < this.cutAt) return;
    this.cutAt = Date.now();
    this.threshold = Math.max(1, Math.floor(this.size / 2));
    this.size = this.threshold;
  }
}
