import { listWithdrawals } from '../api/withdrawals.js';
import type { ApiClient } from '../http/client.js';
import { ALL_PAGES_PACE } from '../commands/shared/list.js';
import { collectPages } from '../commands/shared/scan.js';
import { apiClockOffset } from '../withdrawal/api-clock.js';
import { compareWithdrawal, createdAtOf, idOf, type WithdrawalIdentity } from '../withdrawal/identity.js';

/**
 * A withdrawal created this much before a row's intent (on the API's clock) still
 * counts as the row's: the `Date` header has whole seconds, and the clocks may have
 * drifted between the run and the reconcile.
 */
const WINDOW_MARGIN_MS = 30_000;

/** A row whose request may have reached the API without its answer being recorded. */
export interface UnknownRow {
  key: string;
  account: string | null;
  identity: WithdrawalIdentity;
  /** When its intent was made, on this machine's clock. */
  at: number;
  /** The same on the API's clock, when the run knew it. */
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
 * account's list: the same amount, method and destination, created no earlier than
 * the intent on the API's clock, and claimed by no other row; each withdrawal
 * settles at most one row, the oldest intent taking the oldest withdrawal. A row
 * with no such withdrawal was not paid (`absent`) unless payctl cannot be sure:
 * the API gave no clock, or an item that could be the row's cannot be read.
 */
export async function reconcile(
  unknown: readonly UnknownRow[],
  claimed: Set<string>,
  clientFor: (account: string | null) => Promise<ApiClient>,
): Promise<Reconciliation> {
  const settlements = new Map<string, Settlement>();
  const clockOffsets = new Map<string | null, number | undefined>();
  for (const account of new Set(unknown.map((row) => row.account))) {
    const client = await clientFor(account);
    const items: unknown[] = await collectPages((query) => listWithdrawals(client, query), { ...ALL_PAGES_PACE, limit: 100 });
    const offset = apiClockOffset(client);
    clockOffsets.set(account, offset);
    const rows = unknown.filter((row) => row.account === account).sort((a, b) => a.at - b.at);
    if (offset === undefined) {
      for (const row of rows)
        settlements.set(row.key, {
          kind: 'undecided',
          reason: "the API's answers carry no Date header, so the time of its withdrawals cannot be set against the row's",
        });
      continue;
    }
    const unclaimed = items.filter((item) => !claimed.has(idOf(item) ?? ''));
    for (const row of rows) {
      const since = Math.min(row.apiAt ?? Infinity, row.at + offset) - WINDOW_MARGIN_MS;
      const inWindow = (item: unknown) => (createdAtOf(item) ?? Infinity) >= since;
      const match = unclaimed
        .filter(
          (item) => !claimed.has(idOf(item) ?? '') && createdAtOf(item) !== undefined && inWindow(item) && compareWithdrawal(item, row.identity) === 'same',
        )
        .sort((a, b) => createdAtOf(a)! - createdAtOf(b)!)[0];
      if (match) {
        claimed.add(idOf(match)!);
        const status = (match as Record<string, unknown>).status;
        settlements.set(row.key, { kind: 'paid', withdrawalId: idOf(match)!, status: typeof status === 'string' ? status : 'unknown' });
        continue;
      }
      // Could be the row's, but without the fields or the date to tell.
      const doubtful = unclaimed.find((item) => {
        const likeness = compareWithdrawal(item, row.identity);
        return !claimed.has(idOf(item) ?? '') && inWindow(item) && (likeness === 'unsure' || (likeness === 'same' && createdAtOf(item) === undefined));
      });
      settlements.set(
        row.key,
        doubtful
          ? {
              kind: 'undecided',
              reason: `withdrawal ${idOf(doubtful) ?? '(without an id)'} may be this row's, but the list does not give what payctl needs to tell`,
            }
          : { kind: 'absent' },
      );
    }
  }
  return { settlements, clockOffsets };
}
