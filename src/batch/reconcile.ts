import { listWithdrawals } from '../api/withdrawals.js';
import type { Withdrawal, WithdrawalMethod } from '../api/types.js';
import type { ApiClient } from '../http/client.js';
import { allPages } from '../commands/shared/list.js';
import type { IntentRecord } from './journal.js';
import { sameWithdrawal } from './match.js';

/** Clocks of this machine and the API's may differ a little; a withdrawal this much older than its intent still counts. */
const CLOCK_SKEW_MS = 60_000;

/**
 * Settles rows whose outcome is unknown by looking for their withdrawal in the
 * account's list: same amount, method and key, created after the intent, and not
 * already claimed by another row. Returns the withdrawal found for each key, or
 * null when there is none (nothing moved: the row can be sent again).
 */
export async function reconcile(
  method: WithdrawalMethod,
  unknown: readonly IntentRecord[],
  claimed: Set<string>,
  clientFor: (account: string | null) => Promise<ApiClient>,
): Promise<Map<string, Withdrawal | null>> {
  const found = new Map<string, Withdrawal | null>();
  const accounts = [...new Set(unknown.map((intent) => intent.account))];
  for (const account of accounts) {
    const client = await clientFor(account);
    const since = Math.min(...unknown.filter((i) => i.account === account).map((i) => Date.parse(i.at))) - CLOCK_SKEW_MS;
    const candidates: Withdrawal[] = [];
    for await (const page of allPages((query) => listWithdrawals(client, query), 100)) {
      candidates.push(...page.filter((w) => Date.parse(w.createdAt) >= since && !claimed.has(w.id)));
    }
    // Oldest first, so each row claims the earliest withdrawal that fits it.
    candidates.sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt));
    for (const intent of unknown.filter((i) => i.account === account).sort((a, b) => Date.parse(a.at) - Date.parse(b.at))) {
      const match = candidates.find(
        (w) => !claimed.has(w.id) && Date.parse(w.createdAt) >= Date.parse(intent.at) - CLOCK_SKEW_MS && sameWithdrawal(w, { method, ...intent }),
      );
      if (match) claimed.add(match.id);
      found.set(intent.key, match ?? null);
    }
  }
  return found;
}
