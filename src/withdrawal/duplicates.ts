import type { Settings } from '../config/settings.js';
import { usageError } from '../errors.js';
import type { ApiClient } from '../http/client.js';
import { parseDuplicateWindow } from '../validation/flags.js';
import { compareWithdrawal, createdAtOf, idOf, type WithdrawalIdentity } from './identity.js';
import { MAX_PASSES, PAGE_SIZE, readWindow, WindowTooLong, type WindowRead } from './window.js';

/** How far back a withdrawal looks for its twins when the profile does not say: a re-export of the same sheet the next morning is caught. */
export const DEFAULT_DUPLICATE_WINDOW = '24h';
/** 10 000 withdrawals: a bound on a slow list; an account busier than that in its window is told to shorten it. */
const MAX_PAGES = 100;

/** The profile's duplicate window: its text (`24h`, for messages) and length. */
export function duplicateWindowOf(settings: Settings): { text: string; ms: number } {
  const text = settings.profile?.duplicateWindow ?? DEFAULT_DUPLICATE_WINDOW;
  return { text, ms: parseDuplicateWindow(`the duplicateWindow of profile "${settings.profileName}"`, text) };
}

/**
 * The withdrawals of the client's account made within `windowMs` on the API's
 * clock (the `Date` of its answers) or on this machine's, whichever reaches further
 * back: the API may date its withdrawals by another clock than its `Date`'s, and a
 * `Date` hours ahead would otherwise put a twin made a moment ago outside the window.
 * Every operator's, whatever tool made them, read as --reconcile reads them (see
 * readWindow), so that a withdrawal created meanwhile cannot push a twin out of
 * view. An item without a readable date counts as in the window.
 */
export async function recentWithdrawals(client: ApiClient, window: { text: string; ms: number }): Promise<unknown[]> {
  let since = -Infinity;
  const edge = () => (since = Date.now() + Math.min(client.lastAnswerClockOffset() ?? 0, 0) - window.ms);
  let read: WindowRead;
  try {
    read = await readWindow(client, edge, MAX_PAGES);
  } catch (error) {
    if (!(error instanceof WindowTooLong)) throw error;
    // Read to its end, such a list is long by its whole history, not by the window: a shorter window would not help.
    if (error.unordered) {
      throw usageError(
        `cannot check for twins: the withdrawals list is not given newest first, so its twins may be anywhere in it, and it holds more than the ${MAX_PAGES * PAGE_SIZE} withdrawals payctl reads; nothing was sent`,
        'pass --allow-duplicate once you have checked the account for twins yourself',
      );
    }
    throw usageError(
      `cannot check for twins: the account made more than ${MAX_PAGES * PAGE_SIZE} withdrawals in the last ${window.text}; nothing was sent`,
      "shorten the profile's window (payctl profiles set NAME --duplicate-window 1h), or pass --allow-duplicate",
    );
  }
  if (!read.stable) {
    throw usageError(
      `cannot check for twins: the account's withdrawals list changed each of the ${MAX_PASSES} times it was read, so a twin may be hidden; nothing was sent`,
      'run it again in a moment, or pass --allow-duplicate',
    );
  }
  return read.items.filter((item) => (createdAtOf(item) ?? since) >= since);
}

/**
 * The items that may be an identity made again: same method, amount, bank account
 * and key. An item payctl cannot fully read counts (the check errs towards
 * refusing); those in `exclude` (withdrawals a batch's journal already holds for
 * its own rows) do not. The items are indexed once by amount, method and bank
 * account, so that a batch compares each row with its few candidates, not with
 * every item (500 rows against 2000 withdrawals took 150-250 ms before the first row).
 */
export function twinFinder(items: readonly unknown[], exclude: ReadonlySet<string> = new Set()): (identity: WithdrawalIdentity) => unknown[] {
  const byKey = new Map<string, number[]>();
  // Items whose amount, method or bank account is not of its type: compareWithdrawal finds them unsure, not different, whatever the row.
  const unreadable: number[] = [];
  items.forEach((item, i) => {
    if (exclude.has(idOf(item) ?? '')) return;
    const { amount, withdrawalPaymentType, bankAccountId } = (item && typeof item === 'object' ? item : {}) as Record<string, unknown>;
    if (typeof amount !== 'number' || typeof withdrawalPaymentType !== 'string' || typeof bankAccountId !== 'number') {
      unreadable.push(i);
      return;
    }
    const key = twinKey(amount, withdrawalPaymentType, bankAccountId);
    const same = byKey.get(key);
    if (same) same.push(i);
    else byKey.set(key, [i]);
  });
  return (identity) => {
    const candidates = [...(byKey.get(twinKey(identity.amount, identity.method.toUpperCase(), identity.bankAccountId)) ?? []), ...unreadable];
    // In the list's order, as the twins are named.
    if (unreadable.length > 0) candidates.sort((a, b) => a - b);
    return candidates.map((i) => items[i]).filter((item) => compareWithdrawal(item, identity) !== 'different');
  };
}

const twinKey = (amount: number, method: string, bankAccountId: number) => JSON.stringify([amount, method, bankAccountId]);
