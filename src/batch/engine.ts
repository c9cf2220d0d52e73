import { answerDetail, ExitCode, LISTED_ABOVE, mayHaveMoved, PayctlError } from '../errors.js';
import { LedgerUnavailable } from '../ledger/index.js';
import { JournalWriteError, type JournalRecord } from './journal.js';
import { failedLines, PAID, reportRow, type ReportRow } from './report.js';
import type { BatchRow } from './rows.js';

/**
 * The batch engine: sends rows with bounded concurrency, each one's intent on
 * disk before its request and its outcome on disk after, and says what became of
 * every row and why sending stopped. It knows nothing of the command line or of
 * printing: the command plans, confirms and reports around it.
 */

/** What the engine needs of the API, for one row at a time. */
export interface BatchClient {
  /** The API's clock minus this machine's (ms) in the row's account, or undefined when unknown; read before the row's intent is written. */
  clockOffset(row: BatchRow): Promise<number | undefined>;
  /**
   * Sends the row's withdrawal (its claim taken first where a ledger is used) and returns it as created. Its request
   * leaves only once `intentOnDisk` has resolved; when that fails, it rejects with that failure, nothing sent.
   */
  send(row: BatchRow, intentOnDisk: Promise<void>): Promise<{ id: string; status: string }>;
  /**
   * Called as the row's journal intent is written, while the row before it is in flight: what the client
   * must have on disk before the row's request leaves (its audit intent) can go there meanwhile.
   */
  prepare?(row: BatchRow): void;
  /** A row prepared but not sent: sending stopped before it. */
  notSent?(row: BatchRow, reason: string): Promise<void>;
}

/**
 * The journal as the engine writes it: `append` writes a record (or throws JournalWriteError),
 * `flush` puts every record written so far on disk (rows starting together share one fsync).
 */
export interface BatchJournal {
  append(record: JournalRecord): void;
  flush(): Promise<void>;
}

/** Why sending stopped before every row was tried. */
export type StopReason = 'interrupted' | 'auth' | 'journal' | 'lock-lost' | 'ledger' | 'unreachable';

export interface SendInput {
  /** The rows to send, in the file's order. */
  rows: readonly BatchRow[];
  journal: BatchJournal;
  client: BatchClient;
  /** Aborted: no new row starts; rows in flight finish and are recorded. */
  signal: AbortSignal;
  /** Rows in flight at once. */
  concurrency: number;
  /** Whether the journal's lock was taken over by another process; asked before each row starts. */
  lockLost(): boolean;
  /** Called after each row ends, with the outcomes so far (for a progress line). */
  onRowEnd?(outcomes: ReadonlyMap<string, ReportRow>): void;
}

export interface SendResult {
  /** Every row's outcome by its key: sent, failed, unknown, or not-sent (its request never reached the API, or left after a stop). */
  outcomes: Map<string, ReportRow>;
  stopped?: StopReason;
  journalError?: JournalWriteError;
  /** Why the first row whose request never reached the API failed (connection refused, DNS): sending stopped there. */
  unreachable?: string;
  /** Rows sent whose answer could not be written to the journal: it shows them as of unknown outcome. */
  unrecorded: BatchRow[];
  /** Rows refused before sending (exit 2): claimed by another operator in the team's ledger, or above its daily total. */
  held: number;
}

/**
 * Sends `rows`: intent on disk, request, outcome on disk. An abort of `signal`,
 * a journal that cannot be written, a lost lock, an authentication failure, a
 * ledger that does not answer or a request that never reached the API stops
 * starting rows; those in flight finish.
 */
export async function sendRows({ rows, journal, client, signal, concurrency, lockLost, onRowEnd }: SendInput): Promise<SendResult> {
  // One iterator shared by the workers: each takes the next row not yet taken.
  const queue = rows.values();
  const outcomes = new Map<string, ReportRow>();
  const result: SendResult = { outcomes, unrecorded: [], held: 0 };
  const stopWith = (reason: StopReason) => (result.stopped ??= reason);
  const onAbort = () => stopWith('interrupted');
  if (signal.aborted) onAbort();
  signal.addEventListener('abort', onAbort, { once: true });
  /** A journal that cannot be written stops sending; false. */
  const journalFailed = (error: unknown): false => {
    if (!(error instanceof JournalWriteError)) throw error;
    result.journalError ??= error;
    stopWith('journal');
    return false;
  };
  /**
   * Writes a record (on disk with the next flush); false once the journal cannot be written, or once its lock was
   * taken over: the journal is then the new holder's, and a record of this run could undo its outcome for a row
   * (a `failed` or `not-sent` after its `done`: paid twice by the next run). Such rows stay, of unknown outcome, for --reconcile.
   */
  const record = (entry: JournalRecord): boolean => {
    if (lockLost()) {
      stopWith('lock-lost');
      return false;
    }
    try {
      journal.append(entry);
      return true;
    } catch (error) {
      return journalFailed(error);
    }
  };
  /**
   * Writes the row's journal intent and starts putting it on disk; undefined once the journal cannot be written.
   * The request leaves once it is there (the client waits for it beside the row's audit intent: their fsyncs overlap).
   */
  const prepare = async (row: BatchRow): Promise<Prepared | undefined> => {
    const { request } = row;
    const offset = await client.clockOffset(row);
    const intentWritten = record({
      type: 'intent', key: row.key, line: row.line, account: row.account, amount: request.amount, bankAccountId: request.bankAccountId,
      ...(request.withdrawalMethod === 'pix' ? { pixKeyType: request.pixKeyType, pixKey: request.pixKey } : {}),
      ...(request.postbackUrl ? { postbackUrl: request.postbackUrl } : {}),
      ...(row.reference ? { reference: row.reference } : {}),
      occurrence: row.occurrence,
      at: new Date().toISOString(),
      ...(offset === undefined ? {} : { apiAt: new Date(Date.now() + offset).toISOString() }),
    });
    if (!intentWritten) return undefined;
    const intentOnDisk = journal.flush();
    // Failing, it is awaited by the row's send, or the row is set aside unsent: no unhandled failure.
    intentOnDisk.catch(() => {});
    client.prepare?.(row);
    return { row, intentOnDisk };
  };
  const sendOne = async ({ row, intentOnDisk }: Prepared) => {
    const notOnDisk = intentOnDisk.then(() => undefined, (error: unknown) => error);
    let outcome: ReportRow;
    let written: boolean;
    try {
      const created = await client.send(row, intentOnDisk);
      outcome = reportRow(row, 'sent', { withdrawalId: created.id, status: created.status });
      written = record({ type: 'done', key: row.key, withdrawalId: created.id, status: created.status, at: new Date().toISOString() });
    } catch (error) {
      // The intent never reached the disk, so the request never left: as a journal that cannot be written, before it.
      const failed = await notOnDisk;
      if (failed !== undefined) {
        journalFailed(failed);
        return;
      }
      const known = error instanceof PayctlError ? error : undefined;
      const detail = known ? answerDetail(known) : '';
      const message = known ? `${known.message}${detail ? ` (${detail})` : ''}` : String((error as Error)?.message ?? error);
      if (!known || mayHaveMoved(known)) {
        outcome = reportRow(row, 'unknown', { error: message });
        written = record({ type: 'unknown', key: row.key, error: message, at: new Date().toISOString() });
      } else if (known.neverReachedServer) {
        // The next rows would meet the same closed door: stop, and leave them to a rerun.
        outcome = reportRow(row, 'not-sent', { error: message });
        written = record({ type: 'not-sent', key: row.key, error: message, at: new Date().toISOString() });
        result.unreachable ??= message;
        stopWith('unreachable');
      } else {
        outcome = reportRow(row, 'failed', { error: message });
        written = record({ type: 'failed', key: row.key, error: message, exitCode: known.exitCode, at: new Date().toISOString() });
        if (known.exitCode === ExitCode.auth) stopWith('auth');
        if (known instanceof LedgerUnavailable) stopWith('ledger');
        if (known.exitCode === ExitCode.usage) result.held++;
      }
    }
    if (!written && outcome.outcome !== 'unknown') {
      result.unrecorded.push(row);
      const why = result.journalError?.message ?? "the journal's lock was taken over by another process";
      outcome = { ...outcome, error: `${outcome.error ? `${outcome.error}; ` : ''}not recorded: ${why}` };
    }
    outcomes.set(row.key, outcome);
  };
  /** Whether sending stopped, the journal's lock lost included; asked before each row is taken and before it is sent. */
  const sendingStopped = (): boolean => {
    if (!result.stopped && lockLost()) stopWith('lock-lost');
    return result.stopped !== undefined;
  };
  /** The next row to start, unless sending stopped. */
  const take = (): BatchRow | undefined => {
    if (sendingStopped()) return undefined;
    const next = queue.next();
    return next.done ? undefined : next.value;
  };
  const notSentWhy = (): string => {
    const why: Record<StopReason, string> = {
      interrupted: 'not sent: interrupted',
      auth: 'not sent after an authentication failure',
      journal: `not sent: ${result.journalError?.message ?? 'the journal could not be written'}`,
      'lock-lost': "not sent: the journal's lock was taken over by another process",
      ledger: 'not sent: the ledger does not answer',
      unreachable: `not sent: an earlier row's request never reached the API (${result.unreachable})`,
    };
    return why[result.stopped ?? 'interrupted'];
  };
  /** A row whose intent was written, left unsent because sending stopped meanwhile: the journal says so, and a rerun sends it. */
  const setAside = async ({ row }: Prepared) => {
    const error = notSentWhy();
    record({ type: 'not-sent', key: row.key, error, at: new Date().toISOString() });
    await client.notSent?.(row, error);
  };
  /**
   * Rows whose intents are written ahead, in the file's order: while the rows before them are in flight, so that
   * no row waits for an fsync on its way out (most of payctl's own time per row). A crash leaves them as it leaves
   * rows in flight: of unknown outcome until --reconcile looks for them on the platform.
   */
  const ahead: Array<Promise<Prepared | undefined>> = [];
  const topUp = () => {
    while (ahead.length < concurrency) {
      const row = take();
      if (!row) return;
      const prepared = prepare(row);
      // A failure is the worker's that takes it; none is left unhandled when a worker's failure ends the run first.
      prepared.catch(() => {});
      ahead.push(prepared);
    }
  };
  const worker = async () => {
    for (topUp(); ahead.length > 0; topUp()) {
      const prepared = await ahead.shift();
      if (!prepared) continue;
      if (sendingStopped()) {
        await setAside(prepared);
        continue;
      }
      topUp();
      await sendOne(prepared);
      onRowEnd?.(outcomes);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(concurrency, rows.length) }, worker));
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
  for (const row of rows) if (!outcomes.has(row.key)) outcomes.set(row.key, reportRow(row, 'not-sent', { error: notSentWhy() }));
  return result;
}

/** A row whose journal intent is written, on its way to disk. */
interface Prepared {
  row: BatchRow;
  intentOnDisk: Promise<void>;
}

/** What the exit of a batch depends on beyond its report. */
export interface BatchEnd {
  /** Rows of unknown outcome in the journal that are no longer in the file. */
  orphans: number;
  /** What sending said (nothing stopped, nothing held, when nothing was sent). */
  sending: Pick<SendResult, 'stopped' | 'journalError' | 'unrecorded' | 'held' | 'unreachable'>;
  /** The command that settles unknown rows, for hints. */
  reconcileCommand: string;
}

/**
 * Throws the batch's worst outcome: exit 5 when any row's outcome is unknown
 * (or sent but not recorded, or the lock was lost), 130 after Ctrl-C, 3 after an
 * authentication failure, 2 when the team's ledger held every unpaid row, 4 when
 * the ledger does not answer or a request never reached the API, 1 when any row
 * failed or was not sent. Returns when every row is paid (or planned, under --dry-run).
 */
export function throwForOutcome(report: readonly ReportRow[], { orphans, sending, reconcileCommand }: BatchEnd): void {
  const count = (outcome: string) => report.filter((r) => r.outcome === outcome).length;
  const unpaid = report.filter((r) => !PAID.includes(r.outcome) && r.outcome !== 'planned').length + orphans;
  const { stopped, journalError, unrecorded } = sending;
  if (unpaid === 0 && unrecorded.length === 0) return;
  const message = `${unpaid} of ${report.length} rows are not paid`;
  if (journalError && unrecorded.length > 0) {
    throw new PayctlError(
      `${journalError.message}: sending stopped; lines ${unrecorded.map((row) => row.line).join(', ')} were in flight and their outcome is not in the journal`,
      ExitCode.unknownOutcome,
      { hint: `check before retrying: make room for the journal, then settle them with: ${reconcileCommand}` },
    );
  }
  if (count('unknown') || orphans) {
    throw new PayctlError(`${message}: ${count('unknown') + orphans} of unknown outcome`, ExitCode.unknownOutcome, {
      hint: `check before retrying; settle them with: ${reconcileCommand}`,
    });
  }
  if (stopped === 'journal') throw new PayctlError(`${message}: ${journalError!.message}, so sending stopped`, ExitCode.localFailure, { hint: 'make room for the journal, then run the same command again' });
  if (stopped === 'lock-lost') {
    throw new PayctlError(`${message}: the journal's lock was taken over by another process, so sending stopped`, ExitCode.unknownOutcome, {
      hint: `check that no other payctl runs this batch, then: ${reconcileCommand}`,
    });
  }
  if (stopped === 'interrupted') throw new PayctlError(`${message}: interrupted`, ExitCode.interrupted);
  if (stopped === 'unreachable') {
    throw new PayctlError(`${message}: ${count('not-sent')} not sent: the API could not be reached (${sending.unreachable}), so sending stopped`, ExitCode.network, {
      hint: 'nothing was sent for them; once the API answers, run the same command again: rows paid are skipped',
    });
  }
  if (stopped === 'ledger') throw new PayctlError(`${message}: the ledger does not answer, so sending stopped`, ExitCode.network, { hint: `check the database (payctl ledger status), then run the same command again` });
  if (sending.held === unpaid) {
    throw new PayctlError(`${message}: the team's ledger refused them ${LISTED_ABOVE}: nothing was sent for them`, ExitCode.usage, { listed: failedLines(report) });
  }
  if (stopped === 'auth') throw new PayctlError(`${message}: authentication failed`, ExitCode.auth, { hint: 'log in again: payctl auth login' });
  throw new PayctlError(`${message}: ${count('failed')} refused`, ExitCode.rowsNotPaid);
}
