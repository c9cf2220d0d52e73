import { listWithdrawals } from '../api/withdrawals.js';
import type { ApiClient } from '../http/client.js';
import { apiClockOffset } from './api-clock.js';
import { compareWithdrawal, createdAtOf, type WithdrawalIdentity } from './identity.js';

/** A withdrawal made this recently, with the same identity, is most likely a repeat. */
export const DUPLICATE_WINDOW_MS = 10 * 60 * 1000;
/** Enough for any real pace of withdrawals in 10 minutes, and a bound on a slow list. */
const MAX_PAGES = 20;

export interface RecentTwin {
  id: string;
  createdAt: string;
  status: string;
}

/**
 * The newest withdrawal of the client's account that may be the same as `identity`
 * and was made in the last 10 minutes on the API's clock (the `Date` of its answer;
 * this machine's clock when the API sends none). The list comes newest first: pages
 * are read until one holds nothing from the window, so a busy account is covered.
 * An item payctl cannot fully read (no date, a missing field) counts as possibly
 * the same: the guard errs towards asking.
 */
export async function findRecentTwin(client: ApiClient, identity: WithdrawalIdentity): Promise<RecentTwin | undefined> {
  for (let page = 1; page <= MAX_PAGES; page++) {
    const { items, total } = await listWithdrawals(client, { page, limit: 100 });
    const since = Date.now() + (apiClockOffset(client) ?? 0) - DUPLICATE_WINDOW_MS;
    const recent = items.filter((item) => (createdAtOf(item) ?? since) >= since);
    const twin = recent.find((item) => compareWithdrawal(item, identity) !== 'different');
    if (twin) {
      const field = (name: string) => String(Reflect.get(twin, name) ?? 'unknown');
      return { id: field('id'), createdAt: field('createdAt'), status: field('status') };
    }
    if (recent.length === 0 || page * 100 >= total) return undefined;
  }
  return undefined;
}
