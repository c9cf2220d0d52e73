import type { ApiClient } from '../http/client.js';
import { readApiClockOffset } from '../withdrawal/api-clock.js';
import { compareWithdrawal, createdAtOf, idOf, type WithdrawalIdentity } from '../withdrawal/identity.js';
import { MAX_PASSES, readWindow } from '../withdrawal/window.js';

/**
 * A withdrawal created this much before a row's intent (on the API's clock) still
 * counts as the row's: the `Date` header has whole seconds, and the clocks may have
 * drifted between the run and the reconcile.
 */
const WINDOW_MARGIN_MS = 30_000;

/**
 * How far the API's `Date` was ahead of this machine's clock at a row's intent (0 when behind, or when its time
 * there cannot be read): only a `Date` ahead can make a withdrawal dated by this machine's clock look older than
 * its intent; one behind makes it look newer, and the match takes it.
 */
const aheadAt = (row: { at: number; apiAt: number }): number => (Number.isNaN(row.at) ? 0 : Math.max(0, row.apiAt - row.at));

/** A row whose request may have reached the API without its answer being recorded. */
export interface UnknownRow {
  key: string;
  account: string | null;
  identity: WithdrawalIdentity;
  /** When its intent was made, on this machine's clock. */
  at: number;
  /** The same on the API's clock, when the run knew it: without it the row cannot be placed and stays unknown. */
  apiAt?: number;
}

export type Settlement =
  | { kind: 'paid'; withdrawalId: string; status: string }
  | { kind: 'absent' }
  /** payctl cannot tell: the row stays unknown and is not sent. */
  | { kind: 'undecided'; reason: string };

export interface Reconciliation {
  settlements: Map<string, Settlement>;
  /** The API's clock against this machine's, per account looked in (undefined: it sent no usable `Date`). */
  clockOffsets: Map<string | null, number | undefined>;
}

/**
 * Settles rows whose outcome is unknown by looking for their withdrawal in their
 * account's list: the same method, amount, bank account and key, created no earlier
 * than the intent on the API's clock (as the run recorded it: this machine's clock
 * may have been corrected since), and claimed by no other row; each withdrawal
 * settles at most one row, the oldest intent taking the oldest withdrawal. A row
 * with no such withdrawal was not paid (`absent`) unless payctl cannot be sure: the
 * run did not know the API's time, the list would not hold still, or an item that
 * could be the row's cannot be read, or one with every field of the row was made
 * before its intent by no more than the API's `Date` was then ahead of this machine's
 * clock: the API may date its withdrawals by a clock other than its `Date`'s (this
 * machine's being right), and that one is then the row's.
 */
export async function reconcile(
  unknown: readonly UnknownRow[],
  claimed: Set<string>,
  clientFor: (account: string | null) => Promise<ApiClient>,
): Promise<Reconciliation> {
  const settlements = new Map<string, Settlement>();
  const clockOffsets = new Map<string | null, number | undefined>();
  const undecided = (rows: readonly UnknownRow[], reason: string) => rows.forEach((row) => settlements.set(row.key, { kind: 'undecided', reason }));
  for (const account of new Set(unknown.map((row) => row.account))) {
    const client = await clientFor(account);
    const accountRows = unknown.filter((row) => row.account === account).sort((a, b) => a.at - b.at);
    const rows = accountRows.flatMap((row) => (row.apiAt === undefined ? [] : [{ ...row, apiAt: row.apiAt }]));
    undecided(
      accountRows.filter((row) => row.apiAt === undefined),
      "its intent did not record the API's time, so its withdrawal cannot be told from an older one",
    );
    const since = Math.min(...rows.map((row) => row.apiAt - WINDOW_MARGIN_MS - aheadAt(row)));
    const window = rows.length > 0 ? await readWindow(client, () => since) : undefined;
    clockOffsets.set(account, await readApiClockOffset(client));
    if (!window) continue;
    if (!window.stable) {
      undecided(rows, `the withdrawals list changed each of the ${MAX_PASSES} times it was read, so a withdrawal of this row may be hidden`);
      continue;
    }
    const unclaimed = window.items.filter((item) => !claimed.has(idOf(item) ?? ''));
    for (const row of rows) {
      const inWindow = (item: unknown) => (createdAtOf(item) ?? Infinity) >= row.apiAt - WINDOW_MARGIN_MS;
      // A withdrawal without an id cannot be named as the row's: it can only leave the row undecided (below).
      const match = unclaimed
        .flatMap((item) => {
          const createdAt = createdAtOf(item);
          const id = idOf(item);
          const same = id !== undefined && createdAt !== undefined && !claimed.has(id) && inWindow(item) && compareWithdrawal(item, row.identity) === 'same';
          return same ? [{ item, id, createdAt }] : [];
        })
        .sort((a, b) => a.createdAt - b.createdAt)[0];
      if (match) {
        claimed.add(match.id);
        const status = (match.item as Record<string, unknown>).status;
        settlements.set(row.key, { kind: 'paid', withdrawalId: match.id, status: typeof status === 'string' ? status : 'unknown' });
        continue;
      }
      // Could be the row's, but without the fields or the date to tell.
      const doubtful = unclaimed.find((item) => {
        const likeness = compareWithdrawal(item, row.identity);
        return !claimed.has(idOf(item) ?? '') && inWindow(item) && (likeness === 'unsure' || (likeness === 'same' && (createdAtOf(item) === undefined || idOf(item) === undefined)));
      });
      const rowWindowStart = row.apiAt - WINDOW_MARGIN_MS - aheadAt(row);
      const earlier = unclaimed
        .map((item) => ({ item, at: createdAtOf(item) }))
        .find(
          (dated): dated is { item: unknown; at: number } =>
            dated.at !== undefined && dated.at >= rowWindowStart && !claimed.has(idOf(dated.item) ?? '') && compareWithdrawal(dated.item, row.identity) === 'same',
        );
      settlements.set(
        row.key,
        doubtful
          ? {
              kind: 'undecided',
              reason: `withdrawal ${idOf(doubtful) ?? '(without an id)'} may be this row's, but the list does not give what payctl needs to tell`,
            }
          : earlier
            ? {
                kind: 'undecided',
                reason:
                  `withdrawal ${idOf(earlier.item)} has every field of this row but was made ${Math.round((row.apiAt - earlier.at) / 1000)} s before its intent ` +
                  `on the API's Date, which was ${Math.round(aheadAt(row) / 1000)} s ahead of this machine's clock: it is this row's if the API dates withdrawals ` +
                  'by another clock, else an earlier payment',
              }
            : { kind: 'absent' },
      );
    }
  }
  return { settlements, clockOffsets };
}
