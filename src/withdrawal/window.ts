import { listWithdrawals } from '../api/withdrawals.js';
import type { ApiClient } from '../http/client.js';
import { readsAtOnce } from '../http/reads-at-once.js';
import { createdAtOf, idOf } from './identity.js';

export const PAGE_SIZE = 100;
/**
 * Pages asked for at once after the first, no more than the first's total says there are: a busy
 * account's window (2000 withdrawals: 21 pages) is read in two round trips, not one per 100 withdrawals.
 */
const PAGES_AT_ONCE = 20;
/** Withdrawals made at once may be listed a little out of their creation order; a list further out is not newest first. */
const ORDER_SLACK_MS = 60_000;
/** Reads of the whole window before payctl gives up on a list that keeps moving. */
export const MAX_PASSES = 5;

export interface WindowRead {
  /** Every item seen in any read, once each (by id), those past the window's edge included. */
  items: unknown[];
  /** Whether a read found the window holding still; if not, absence proves nothing. */
  stable: boolean;
}

/** The list holds more pages in the window than the caller will read; `unordered`: it is not newest first, so every page was. */
export class WindowTooLong extends Error {
  constructor(readonly unordered: boolean) {
    super('the withdrawals list holds more pages than the caller reads');
  }
}

/**
 * Reads the account's newest-first withdrawals list back to `since` (a time on the
 * API's clock, asked once the first page of a read has answered, so that its
 * `Date` can place it), for the twin check and --reconcile alike. An item without a
 * readable date counts as in the window. The reference does not say the list's order:
 * one seen not newest first (an item a minute newer than one before it) is read to its end.
 *
 * The first read asks for the pages after the first PAGES_AT_ONCE at a time (those the
 * first's total says exist; if more come meanwhile, the read goes on past them), until
 * one has nothing in the window or comes back short of what its total says is left; a page
 * that fails ends the read and gives up the others in flight. A withdrawal created meanwhile
 * moves every item a place down, so a page answered after the next one can lose its last item
 * to it: that read is trusted only when every page answered the same count and no item showed
 * on two pages (a count the API caches can stay put while the list moves). A page short of its
 * total while it holds items in the window (one dropped, or fewer given than asked) is read
 * past, and makes no read trusted.
 * Otherwise the window is read again one page after another, in order: an item a
 * creation moves down then lands on a page not read yet, so a colleague's batch
 * running meanwhile cannot hide one. A read is trusted only when it lost nothing an
 * earlier read saw in the window (an item can also go: a list that keeps losing
 * items is read at most MAX_PASSES times, then said to be unstable).
 */
export async function readWindow(client: ApiClient, since: () => number, maxPages = Infinity): Promise<WindowRead> {
  const byId = new Map<string, unknown>();
  const withoutId: unknown[] = [];
  let earlier: Set<string> | undefined;
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    const seen = new Set<string>();
    const present = new Set<string>();
    const totals = new Set<number>();
    /** An answer this read cannot be complete with: a page short of what its total says, or (read at once) an item on two pages. */
    let misread = false;
    /** Once an item is newer than one before it, the list is not newest first: no page ends the window, only the list's end does. */
    let unordered = false;
    let oldestSeen = Infinity;
    let edge = -Infinity;
    const inWindow = (item: unknown) => (createdAtOf(item) ?? Infinity) >= edge;
    /** Takes in page `number`; whether the window goes on past it. */
    const take = ({ items, total }: { items: unknown[]; total: number }, number: number): boolean => {
      totals.add(total);
      for (const item of items) {
        const createdAt = createdAtOf(item);
        if (createdAt !== undefined) {
          if (createdAt > oldestSeen + ORDER_SLACK_MS) unordered = true;
          oldestSeen = Math.min(oldestSeen, createdAt);
        }
        const id = idOf(item);
        if (id === undefined) {
          if (pass === 0) withoutId.push(item);
          continue;
        }
        // Read one after another, a repeat is a creation moving items down, onto pages still to read.
        if (present.has(id) && pass === 0) misread = true;
        byId.set(id, item);
        present.add(id);
        if (inWindow(item)) seen.add(id);
      }
      // A page that drops items (or a server that gives fewer than asked) is not the list's end while its total says more.
      const short = items.length < PAGE_SIZE && (number - 1) * PAGE_SIZE + items.length < total;
      const goesOn = unordered || items.some(inWindow);
      if (short && goesOn) misread = true;
      return (items.length >= PAGE_SIZE || short) && goesOn;
    };
    const first = await listWithdrawals(client, { page: 1, limit: PAGE_SIZE });
    edge = since();
    let more = take(first, 1);
    const atOnce = pass === 0 ? PAGES_AT_ONCE : 1;
    for (let next = 2; more; ) {
      if (next > maxPages) throw new WindowTooLong(unordered);
      const known = Math.max(next, Math.ceil(first.total / PAGE_SIZE));
      const firstOfThese = next;
      const numbers = Array.from({ length: Math.min(atOnce, maxPages - next + 1, known - next + 1) }, (_, i) => firstOfThese + i);
      next += numbers.length;
      const pages = await readsAtOnce(numbers.map((page) => (signal: AbortSignal) => listWithdrawals(client, { page, limit: PAGE_SIZE }, { signal })));
      // Every page is taken in, even past the first that ends the window: all count for the check of the counts.
      more = pages.map((page, i) => take(page, firstOfThese + i)).every(Boolean);
    }
    // What an earlier read saw is still there, unless it has since left the window.
    const keptAll = earlier === undefined || [...earlier].every((id) => present.has(id) || !inWindow(byId.get(id)));
    const trusted = keptAll && !misread && (pass === 0 ? totals.size === 1 : true);
    if (trusted) return { items: [...byId.values(), ...withoutId], stable: true };
    earlier = new Set([...(earlier ?? []), ...seen]);
  }
  return { items: [...byId.values(), ...withoutId], stable: false };
}
