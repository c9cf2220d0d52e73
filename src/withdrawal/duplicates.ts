import { listWithdrawals } from '../api/withdrawals.js';
import type { Settings } from '../config/settings.js';
import { usageError } from '../errors.js';
import type { ApiClient } from '../http/client.js';
import { parseDuplicateWindow } from '../validate.js';
import { apiClockOffset } from './api-clock.js';
import { compareWithdrawal, createdAtOf, idOf, type WithdrawalIdentity } from './identity.js';

/** How far back a withdrawal looks for its twins when the profile does not say: a re-export of the same sheet the next morning is caught. */
export const DEFAULT_DUPLICATE_WINDOW = '24h';
const PAGE_SIZE = 100;
/** 10 000 withdrawals: a bound on a slow list; an account busier than that in its window is told to shorten it. */
const MAX_PAGES = 100;

/** The profile's duplicate window: its text (`24h`, for messages) and length. */
export function duplicateWindowOf(settings: Settings): { text: string; ms: number } {
  const text = settings.profile?.duplicateWindow ?? DEFAULT_DUPLICATE_WINDOW;
  return { text, ms: parseDuplicateWindow(`the duplicateWindow of profile "${settings.profileName}"`, text) };
}

/**
 * The withdrawals of the client's account made within `windowMs` on the API's
 * clock (the `Date` of its answers; this machine's when it sends none): every
 * operator's, whatever tool made them. The list comes newest first; pages are
 * read one after another, so a withdrawal created meanwhile only pushes the
 * others down onto the page read next (seen twice, kept once, by id) and can
 * never push one out of view. Reading stops at a page with nothing in the
 * window. An item without a readable date counts as in the window.
 */
export async function recentWithdrawals(client: ApiClient, window: { text: string; ms: number }): Promise<unknown[]> {
  const byId = new Map<string, unknown>();
  const withoutId: unknown[] = [];
  for (let page = 1; page <= MAX_PAGES; page++) {
    const { items, total } = await listWithdrawals(client, { page, limit: PAGE_SIZE });
    const since = Date.now() + (apiClockOffset(client) ?? 0) - window.ms;
    const recent = items.filter((item) => (createdAtOf(item) ?? since) >= since);
    for (const item of recent) {
      const id = idOf(item);
      if (id === undefined) withoutId.push(item);
      else byId.set(id, item);
    }
    if (recent.length === 0 || items.length === 0 || page * PAGE_SIZE >= total) return [...byId.values(), ...withoutId];
  }
  throw usageError(
    `cannot check for twins: the account made more than ${MAX_PAGES * PAGE_SIZE} withdrawals in the last ${window.text}; nothing was sent`,
    "shorten the profile's window (payctl profiles set NAME --duplicate-window 1h), or pass --allow-duplicate",
  );
}

/**
 * The items that may be `identity` made again: same method, amount, bank account
 * and key. An item payctl cannot fully read counts (the check errs towards
 * refusing); those in `exclude` (withdrawals a batch's journal already holds for
 * its own rows) do not.
 */
export const twinsOf = (items: readonly unknown[], identity: WithdrawalIdentity, exclude: ReadonlySet<string> = new Set()): unknown[] =>
  items.filter((item) => !exclude.has(idOf(item) ?? '') && compareWithdrawal(item, identity) !== 'different');
