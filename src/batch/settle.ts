import { parseApiTime } from '../api/time.js';
import type { WithdrawalMethod } from '../api/types.js';
import { settleWithdrawals } from '../audit/trail.js';
import type { ApiClient } from '../http/client.js';
import { settleLeftOverRows } from '../ledger/index.js';
import type { LedgerRun } from '../ledger/ledger.js';
import { describeClockOffset } from '../withdrawal/api-clock.js';
import { identityOf, type WithdrawalFinding, type WithdrawalIdentity } from '../withdrawal/identity.js';
import type { BatchJournal } from './engine.js';
import type { RowState } from './journal.js';
import { reconcile, type UnknownRow } from './reconcile.js';
import type { BatchRow } from './rows.js';

/** What `--reconcile` works on: the journal's row states (updated in place) and where it writes what it decided. */
export interface SettleInput {
  method: WithdrawalMethod;
  rows: readonly BatchRow[];
  states: Map<string, RowState>;
  journal: BatchJournal;
  clientFor: (account: string | null) => Promise<ApiClient>;
  /** What the audit trail says settled these writes, e.g. `withdraw batch --reconcile`. */
  by: string;
  /** Writes a note for the person running the batch. */
  note: (text: string) => Promise<void>;
}

/** An intent's API time; undefined when it has none or it cannot be read (a journal edited by hand), which leaves its row unknown. */
const apiTimeOf = (text: string | undefined): number | undefined => (text === undefined ? undefined : parseApiTime(text));

/**
 * `--reconcile`: each row of unknown outcome is looked for in its account's
 * withdrawals list (reconcile.ts). A row found paid is done; one not found is to
 * send again; one payctl cannot decide stays unknown, saying why. Each decision is
 * appended to the journal, settled in the team's ledger and in the audit trail
 * (neither under --dry-run). Returns the keys of the rows found paid.
 */
export async function settleUnknownRows(services: LedgerRun, { method, rows, states, journal, clientFor, by, note }: SettleInput): Promise<Set<string>> {
  const reconciled = new Set<string>();
  const rowOf = new Map(rows.map((row) => [row.key, row]));
  const unknownRows: UnknownRow[] = [];
  let neverSent = 0;
  const at = () => new Date().toISOString();
  for (const [key, state] of states) {
    if (state.state !== 'unknown') continue;
    const intent = state.intent;
    const row = rowOf.get(key);
    if (intent) {
      const identity: WithdrawalIdentity = {
        method,
        amount: intent.amount,
        bankAccountId: intent.bankAccountId,
        ...(intent.pixKey !== undefined ? { pixKey: intent.pixKey } : {}),
        ...(intent.pixKeyType !== undefined ? { pixKeyType: intent.pixKeyType } : {}),
        ...(intent.postbackUrl !== undefined ? { postbackUrl: intent.postbackUrl } : {}),
      };
      unknownRows.push({ key, account: intent.account, identity, at: Date.parse(intent.at), apiAt: apiTimeOf(intent.apiAt) });
    } else if (row && state.cutAfter) {
      const apiAt = apiTimeOf(state.cutAfterApiAt);
      const { postbackUrl } = row.request;
      const identity = { ...identityOf(row.request), ...(postbackUrl ? { postbackUrl } : {}) };
      unknownRows.push({ key, account: row.account, identity, at: Date.parse(state.cutAfter), apiAt });
    } else {
      // A first intent cut before it was flushed, of a row no longer in the file: intents are flushed before sending, so it never left.
      journal.append({ type: 'absent', key, at: at() });
      states.set(key, { state: 'new' });
      neverSent++;
    }
  }
  const claimed = new Set([...states.values()].flatMap((s) => (s.state === 'done' ? [s.withdrawalId] : [])));
  const { settlements, clockOffsets } = await reconcile(unknownRows, claimed, clientFor);
  for (const [account, offset] of clockOffsets) {
    const where = account ? `sub-account ${account}` : 'main account';
    await note(`reconcile: ${where}: ${offset === undefined ? "the API sent no Date header, so its clock is unknown" : `${describeClockOffset(offset)}; rows are matched on the API's clock`}`);
  }
  const count = { paid: 0, absent: neverSent, undecided: 0 };
  const unknownOf = new Map(unknownRows.map((row) => [row.key, row]));
  const findings: WithdrawalFinding[] = [];
  for (const [key, settlement] of settlements) {
    const { identity, account } = unknownOf.get(key)!;
    if (settlement.kind === 'paid') findings.push({ identity, account, found: { id: settlement.withdrawalId, status: settlement.status } });
    else if (settlement.kind === 'absent') findings.push({ identity, account });
    if (settlement.kind === 'paid') {
      journal.append({ type: 'done', key, withdrawalId: settlement.withdrawalId, status: settlement.status, at: at(), reconciled: true });
      const { intent } = states.get(key) as Extract<RowState, { state: 'unknown' }>;
      states.set(key, { state: 'done', withdrawalId: settlement.withdrawalId, status: settlement.status, ...(intent ? { intent } : {}) });
      reconciled.add(key);
    } else if (settlement.kind === 'absent') {
      journal.append({ type: 'absent', key, at: at() });
      states.set(key, { state: 'new' });
    } else {
      const state = states.get(key) as Extract<RowState, { state: 'unknown' }>;
      states.set(key, { ...state, error: `cannot be settled: ${settlement.reason}` });
    }
    count[settlement.kind]++;
  }
  const decided = [...settlements].map(([key, settlement]) => ({ key, account: unknownOf.get(key)!.account, settlement }));
  if (!services.flags.dryRun) await settleLeftOverRows(services, decided);
  // The audit log shows these sends as unknown until now; a dry run writes nothing to it.
  if (!services.flags.dryRun) await settleWithdrawals(services, findings, by);
  await note(
    `reconcile: ${count.paid} of ${settlements.size + neverSent} unknown rows were paid (found in withdrawals list); ${count.absent} were not, and those still in the file are sent` +
      (count.undecided ? `; ${count.undecided} cannot be decided and stay unknown` : ''),
  );
  return reconciled;
}
