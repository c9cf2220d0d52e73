import os from 'node:os';
import { withdraw } from '../../api/withdrawals.js';
import { WITHDRAWAL_METHODS, type WithdrawalMethod } from '../../api/types.js';
import { CSV_SEPARATORS, type CsvSeparator } from '../../batch/csv.js';
import { JournalWriteError, JournalWriter, readJournal, JOURNAL_VERSION, type JournalContents, type JournalHeader, type RowState } from '../../batch/journal.js';
import { reconcile, type UnknownRow } from '../../batch/reconcile.js';
import type { SheetChoice } from '../../batch/workbook.js';
import type { WithdrawalFinding } from '../../audit/trail.js';
import { batchReportView, batchSummary, batchTotals, PAID, planSummary, reportRow, type ReportRow } from '../../batch/report.js';
import { readBatchFile, type BatchRow } from '../../batch/rows.js';
import type { Context } from '../../context.js';
import { answerDetail, ExitCode, PayctlError, usageError } from '../../errors.js';
import { GLOBAL_FLAGS } from '../options.js';
import type { ApiClient } from '../../http/client.js';
import { statusLine } from '../../output/status-line.js';
import { resolveRequired } from '../../prompt.js';
import { describeClockOffset, readApiClockOffset } from '../../withdrawal/api-clock.js';
import { checkBatchTwins, type DuplicateOverride } from '../../withdrawal/duplicate-guard.js';
import { identityOf, type WithdrawalIdentity } from '../../withdrawal/identity.js';
import { LedgerUnavailable, rowClaim, sendClaimed, settleJournalPaidRows, settleLeftOverRows } from '../../ledger/index.js';
import { describeHolder, LockBusy, platformAccount, takeLock, type HeldLock } from '../../withdrawal/lock.js';
import { refuseAboveBatchLimits } from '../../withdrawal/limits.js';
import { assertPrivate } from '../../withdrawal/private-file.js';
import { confirmChange } from '../shared/confirm.js';
import { flagOf, type Invocation } from '../spec.js';
import type { withdrawBatch } from './index.js';

const DEFAULT_CONCURRENCY = 4;

/** Why sending stopped before every row was tried. */
type StopReason = 'interrupted' | 'auth' | 'journal' | 'lock-lost' | 'ledger' | undefined;

/** A batch's inputs, checked before anything else happens. */
interface BatchPlan {
  method: WithdrawalMethod;
  csvFile: string;
  journalFile: string;
  /** The flag that names the journal, for messages about it. */
  journalFlag: string;
  /** The flag that settles rows of unknown outcome, for messages about them. */
  reconcileFlag: string;
  concurrency: number;
  /** Whether rows matching withdrawals already on the platform are sent anyway, and the flag that says so. */
  allowDuplicate: DuplicateOverride;
  /** The command that settles unknown rows, for hints. */
  reconcileCommand: string;
}

/**
 * `withdraw batch FILE --method M` (also spelled `withdraw M --from-csv FILE`):
 * one withdrawal per CSV row. Every row is checked before any is sent; one
 * confirmation covers the batch; the journal, held by one run at a time, makes a
 * rerun skip rows done and refuse rows whose outcome is unknown until
 * `--reconcile` settles them from the withdrawals list. Under --dry-run the rows
 * to send are recorded, not sent, and nothing is written to disk.
 */
export async function run(invocation: Invocation<typeof withdrawBatch>): Promise<void> {
  const { services, args: [csvFile], opts, flag } = invocation;
  const { method } = await resolveRequired(invocation, {
    method: invocation.need('method', (field) => field.select('Balance every row draws on', WITHDRAWAL_METHODS.map((value) => ({ name: value, value })))),
  });
  const journalFile = opts.journal ?? `${csvFile}.journal`;
  const plan: BatchPlan = {
    method,
    csvFile,
    journalFile,
    journalFlag: flag('journal'),
    reconcileFlag: flag('reconcile'),
    concurrency: opts.concurrency ?? DEFAULT_CONCURRENCY,
    allowDuplicate: { given: opts.allowDuplicate, flag: flag('allowDuplicate') },
    reconcileCommand: `payctl withdraw batch ${csvFile} ${flag('method')} ${method}${opts.journal ? ` ${flag('journal')} ${opts.journal}` : ''} ${flag('reconcile')}`,
  };
  const rows = await readRows(invocation, plan, inputSeparator(services.flags.csvSeparator), { name: opts.sheet, flag: flag('sheet') }, opts.allowDuplicateRows);
  refuseAboveBatchLimits(services.settings(), rows.map((row) => ({ line: row.line, amount: row.request.amount })), csvFile);
  assertPrivate(journalFile, 'journal', 'file');
  // A dry run writes nothing to disk, not even the lock: it reads the journal as it stands.
  const lock = services.flags.dryRun ? undefined : await lockJournal(journalFile);
  try {
    await runBatch(invocation, plan, rows, lock, opts.reconcile);
  } catch (error) {
    if (!(error instanceof JournalWriteError)) throw error;
    throw new PayctlError(`${error.message}: nothing more was sent`, ExitCode.unknownOutcome, {
      hint: `check before retrying: make room for the journal, then run: ${plan.reconcileCommand}`,
    });
  } finally {
    await lock?.release();
  }
}

/**
 * The global --csv-separator also says how the input file is split (else it is
 * read off the header row); a batch file takes only `,` or `;`, whatever -o csv takes.
 */
function inputSeparator(given: string | undefined): CsvSeparator | undefined {
  if (given === undefined) return undefined;
  const separator = CSV_SEPARATORS.find((choice) => choice === given);
  if (separator) return separator;
  const name = flagOf('csvSeparator', GLOBAL_FLAGS.csvSeparator);
  const choices = CSV_SEPARATORS.map((choice) => `"${choice}"`).join(' or ');
  throw usageError(
    `${name} ${JSON.stringify(given)} cannot split a batch file: a batch file is split by ${choices}; nothing was sent`,
    `give ${name} ${CSV_SEPARATORS.map((choice) => `'${choice}'`).join(' or ')}, or leave it out: the separator is then read from the header row`,
  );
}

async function readRows(
  { io, services }: Context,
  plan: BatchPlan,
  separator: CsvSeparator | undefined,
  sheet: SheetChoice,
  allowDuplicateRows: boolean,
): Promise<BatchRow[]> {
  const { rows, problems } = await readBatchFile(plan.csvFile, plan.method, services.settings().subaccount ?? null, { separator, sheet, allowDuplicateRows });
  if (problems.length > 0) {
    io.stderr.write(`${problems.map((p) => `  ${p}`).join('\n')}\n`);
    throw usageError(
      `${plan.csvFile}: ${problems.length} problem${problems.length > 1 ? 's' : ''} (listed above): nothing was sent`,
      `columns: amount (cents) or amount_brl (reais, 1.234,56), bank_account_id${plan.method === 'pix' ? ', pix_key_type, pix_key' : ''}, and optionally postback_url, subaccount, reference`,
    );
  }
  return rows;
}

/** One run per journal: a second one refuses at once, naming the first. */
async function lockJournal(journalFile: string): Promise<HeldLock> {
  try {
    return await takeLock(`${journalFile}.lock`, 'journal lock', 0);
  } catch (error) {
    if (!(error instanceof LockBusy)) throw error;
    throw usageError(
      `the journal ${journalFile} is in use by another payctl${error.holder ? `: ${describeHolder(error.holder)}` : ''}; one batch at a time per journal, nothing was sent`,
      'wait for that run to finish, then run this again: rows it paid are skipped',
    );
  }
}

/**
 * Settles rows of unknown outcome (with --reconcile), confirms, then sends the
 * rows to send while holding the journal's `lock`. Without a lock (--dry-run)
 * they are recorded instead, in the file's order, and only a plan goes to stderr:
 * stdout is left to the requests main prints.
 */
async function runBatch(ctx: Context, plan: BatchPlan, rows: BatchRow[], lock: HeldLock | undefined, wantsReconcile: boolean): Promise<void> {
  const { io, services } = ctx;
  const journal = openJournal(services, plan);
  const states = journal.contents.rows;
  const clients = new Map<string | null, Promise<ApiClient>>();
  const clientFor = (account: string | null) => {
    if (!clients.has(account)) clients.set(account, services.apiInAccount(account));
    return clients.get(account)!;
  };

  const reconciled = new Set<string>();
  if (wantsReconcile && [...states.values()].some((s) => s.state === 'unknown')) {
    await settleUnknown(ctx, plan, rows, states, journal, clientFor, reconciled);
  }
  if (wantsReconcile) await settleJournalPaidRows(services, rows, states);

  const stateOf = (row: BatchRow): RowState => states.get(row.key) ?? { state: 'new' };
  const toSend = rows.filter((row) => ['new', 'failed'].includes(stateOf(row).state));
  const done = rows.filter((row) => stateOf(row).state === 'done');
  const unknown = rows.filter((row) => stateOf(row).state === 'unknown');
  if (toSend.length > 0) {
    const paidByJournal = new Set([...states.values()].flatMap((s) => (s.state === 'done' ? [s.withdrawalId] : [])));
    const duplicates = await checkBatchTwins(ctx, toSend, paidByJournal, clientFor, plan.allowDuplicate);
    const summary = [
      `About to withdraw by ${plan.method.toUpperCase()} from ${plan.csvFile}:`,
      ...batchTotals(toSend),
      ...(done.length ? [`  skipped:      ${done.length} rows already done (journal ${plan.journalFile})`] : []),
      ...(unknown.length ? [`  refused:      ${unknown.length} rows of unknown outcome (settle them with ${plan.reconcileFlag})`] : []),
      ...duplicates,
    ];
    await confirmChange(ctx, summary, `Make these ${toSend.length} withdrawals now?`);
  }

  const outcomes = new Map<string, ReportRow>();
  for (const row of done) {
    const state = stateOf(row) as Extract<RowState, { state: 'done' }>;
    outcomes.set(row.key, reportRow(row, reconciled.has(row.key) ? 'reconciled' : 'already-done', { withdrawalId: state.withdrawalId, status: state.status }));
  }
  for (const row of unknown) {
    const state = stateOf(row) as Extract<RowState, { state: 'unknown' }>;
    outcomes.set(row.key, reportRow(row, 'unknown', { error: state.error ?? (state.intent ? `sent at ${state.intent.at}; no answer recorded` : 'its journal record was cut by a crash') }));
  }
  const rowKeys = new Set(rows.map((row) => row.key));
  const orphans = [...states].filter(([key, state]) => state.state === 'unknown' && !rowKeys.has(key)) as Array<[string, Extract<RowState, { state: 'unknown' }>]>;
  let sending: SendResult = { unrecorded: [], held: 0 };
  if (!lock) {
    // What a dry run records is a list, whatever its length: one request per row to send.
    services.recordedAsList = true;
    await recordAll(toSend, clientFor, outcomes);
  } else if (toSend.length > 0) {
    sending = await sendAll(ctx, toSend, plan, journal, lock, clientFor, outcomes);
    if (sending.stopped === 'interrupted') io.stderr.write('interrupted: rows not started were not sent; rerun the same command to continue\n');
  }
  journal.close();

  const report = rows.map((row) => outcomes.get(row.key)!);
  if (lock) await writeReport(ctx, report);
  const summary = lock ? batchSummary(report) : planSummary(report);
  for (const [key, state] of orphans) {
    const where = state.intent ? `line ${state.intent.line} of an earlier version of the file` : 'a row no longer in the file';
    summary.push(`  unknown  ${where} (journal key ${key}): settle it with ${plan.reconcileFlag}`);
  }
  io.stderr.write(`${summary.join('\n')}\n`);
  throwForOutcome(report, orphans.length, sending, plan);
}

interface OpenJournal {
  contents: JournalContents;
  /** Appends a record; the journal file (its header and this run's record first) is made on the first. */
  append: JournalWriter['append'];
  close(): void;
}

/**
 * The journal, checked to belong to this kind of batch; the file is written only
 * when something is recorded, and never under --dry-run (its records are dropped).
 */
function openJournal(services: Context['services'], plan: BatchPlan): OpenJournal {
  let contents: JournalContents;
  try {
    contents = readJournal(plan.journalFile);
  } catch (error) {
    throw usageError(
      `${plan.journalFlag} ${plan.journalFile}: ${(error as Error).message}; nothing was sent`,
      'the journal records which rows were paid: do not delete it; restore it from a backup, or fix that line by hand',
    );
  }
  const settings = services.settings();
  const account = settings.subaccount ?? null;
  const header = contents.header;
  if (header && (header.method !== plan.method || accountOfHeader(header) !== platformAccount(settings.baseUrl, account ?? undefined))) {
    throw usageError(
      `${plan.journalFlag} ${plan.journalFile} belongs to a ${header.method} batch against ${header.baseUrl} in the ${header.account ? `sub-account ${header.account}` : 'main account'}, ` +
        `not to this ${plan.method} batch against ${settings.baseUrl} in the ${services.accountLabel()}`,
      `run it with the same profile, account and method, or give another ${plan.journalFlag}`,
    );
  }
  let writer: JournalWriter | undefined;
  return {
    contents,
    append: (record) => {
      if (services.flags.dryRun) return;
      if (!writer) {
        writer = new JournalWriter(plan.journalFile);
        const at = new Date().toISOString();
        if (!header) writer.append({ type: 'batch', version: JOURNAL_VERSION, method: plan.method, baseUrl: settings.baseUrl, account, at });
        writer.append({ type: 'run', pid: process.pid, host: os.hostname(), at });
      }
      writer.append(record);
    },
    close: () => writer?.close(),
  };
}

/**
 * The platform account a journal was written against, as the locks name it: a rerun through
 * `localhost` of a batch run through `127.0.0.1` (or with a trailing `/`) is the same batch.
 * A base URL that is not one (an edited journal) matches nothing.
 */
function accountOfHeader(header: JournalHeader): string {
  try {
    return platformAccount(header.baseUrl, header.account ?? undefined);
  } catch {
    return `unreadable ${header.baseUrl}`;
  }
}

async function settleUnknown(
  ctx: Context,
  { method, reconcileFlag }: BatchPlan,
  rows: BatchRow[],
  states: Map<string, RowState>,
  journal: OpenJournal,
  clientFor: (account: string | null) => Promise<ApiClient>,
  reconciled: Set<string>,
): Promise<void> {
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
      };
      unknownRows.push({ key, account: intent.account, identity, at: Date.parse(intent.at), apiAt: intent.apiAt ? Date.parse(intent.apiAt) : undefined });
    } else if (row && state.cutAfter) {
      const apiAt = state.cutAfterApiAt ? Date.parse(state.cutAfterApiAt) : undefined;
      unknownRows.push({ key, account: row.account, identity: identityOf(row.request), at: Date.parse(state.cutAfter), apiAt });
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
    await ctx.io.output.note(`reconcile: ${where}: ${offset === undefined ? "the API sent no Date header, so its clock is unknown" : `${describeClockOffset(offset)}; rows are matched on the API's clock`}`);
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
      states.set(key, { state: 'done', withdrawalId: settlement.withdrawalId, status: settlement.status });
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
  if (!ctx.services.flags.dryRun) await settleLeftOverRows(ctx.services, decided);
  // The audit log shows these sends as unknown until now; a dry run writes nothing to it.
  if (!ctx.services.flags.dryRun) await (await import('../../audit/trail.js')).settleWithdrawals(ctx.services, findings, `withdraw batch ${reconcileFlag}`);
  await ctx.io.output.note(
    `reconcile: ${count.paid} of ${settlements.size + neverSent} unknown rows were paid (found in withdrawals list); ${count.absent} were not, and those still in the file are sent` +
      (count.undecided ? `; ${count.undecided} cannot be decided and stay unknown` : ''),
  );
}

interface SendResult {
  stopped?: StopReason;
  journalError?: JournalWriteError;
  /** Rows sent whose answer could not be written to the journal: it shows them as of unknown outcome. */
  unrecorded: BatchRow[];
  /** Rows refused before sending (exit 2): claimed by another operator in the team's ledger, or above its daily total. */
  held: number;
}

/**
 * Sends rows with bounded concurrency: intent on disk, request, outcome on disk.
 * Ctrl-C stops starting rows and lets those in flight finish (a second Ctrl-C
 * ends the run at once: the journal then shows them unknown). A journal that
 * cannot be written, or a lost lock, stops sending too.
 */
async function sendAll(
  ctx: Context,
  rows: BatchRow[],
  { concurrency, csvFile, allowDuplicate }: BatchPlan,
  journal: OpenJournal,
  lock: HeldLock,
  clientFor: (account: string | null) => Promise<ApiClient>,
  outcomes: Map<string, ReportRow>,
): Promise<SendResult> {
  let next = 0;
  const result: SendResult = { unrecorded: [], held: 0 };
  const stopWith = (reason: StopReason) => (result.stopped ??= reason);
  const { io } = ctx;
  const progress = progressBar(io, rows.length);
  const releaseCtrlC = io.interrupts.takeOver(() => {
    if (result.stopped === 'interrupted') return io.interrupts.stop('interrupted');
    stopWith('interrupted');
    io.stderr.write('\nstopping: waiting for the requests in flight (Ctrl-C again to quit now)\n');
  });
  /** Writes a record; false once the journal cannot be written. */
  const record = (write: () => void): boolean => {
    try {
      write();
      return true;
    } catch (error) {
      if (!(error instanceof JournalWriteError)) throw error;
      result.journalError ??= error;
      stopWith('journal');
      return false;
    }
  };
  const sendOne = async (row: BatchRow) => {
    const client = await clientFor(row.account);
    const { request } = row;
    const offset = await readApiClockOffset(client);
    const intentWritten = record(() =>
      journal.append({
        type: 'intent', key: row.key, line: row.line, account: row.account, amount: request.amount, bankAccountId: request.bankAccountId,
        ...(request.withdrawalMethod === 'pix' ? { pixKeyType: request.pixKeyType, pixKey: request.pixKey } : {}),
        ...(request.postbackUrl ? { postbackUrl: request.postbackUrl } : {}),
        ...(row.reference ? { reference: row.reference } : {}),
        occurrence: row.occurrence,
        at: new Date().toISOString(),
        ...(offset === undefined ? {} : { apiAt: new Date(Date.now() + offset).toISOString() }),
      }),
    );
    if (!intentWritten) return;
    let outcome: ReportRow;
    let written: boolean;
    try {
      const created = await sendClaimed(ctx, rowClaim(ctx.services, row, csvFile, allowDuplicate.given), () => withdraw(client, request));
      // Rows are sent only when not under --dry-run, which records them instead (recordAll).
      if (!created) throw new PayctlError('the withdrawal was recorded, not sent', ExitCode.internalError);
      outcome = reportRow(row, 'sent', { withdrawalId: created.id, status: created.status });
      written = record(() => journal.append({ type: 'done', key: row.key, withdrawalId: created.id, status: created.status, at: new Date().toISOString() }));
    } catch (error) {
      const known = error instanceof PayctlError ? error : undefined;
      const detail = known ? answerDetail(known) : '';
      const message = known ? `${known.message}${detail ? ` (${detail})` : ''}` : String((error as Error)?.message ?? error);
      if (mayHaveMoved(known)) {
        outcome = reportRow(row, 'unknown', { error: message });
        written = record(() => journal.append({ type: 'unknown', key: row.key, error: message, at: new Date().toISOString() }));
      } else {
        outcome = reportRow(row, 'failed', { error: message });
        written = record(() => journal.append({ type: 'failed', key: row.key, error: message, exitCode: known!.exitCode, at: new Date().toISOString() }));
        if (known!.exitCode === ExitCode.auth) stopWith('auth');
        if (known instanceof LedgerUnavailable) stopWith('ledger');
        if (known!.exitCode === ExitCode.usage) result.held++;
      }
    }
    if (!written && outcome.outcome !== 'unknown') {
      result.unrecorded.push(row);
      outcome = { ...outcome, error: `${outcome.error ? `${outcome.error}; ` : ''}not recorded: ${result.journalError!.message}` };
    }
    outcomes.set(row.key, outcome);
  };
  const worker = async () => {
    while (!result.stopped && next < rows.length) {
      if (lock.lost()) {
        stopWith('lock-lost');
        break;
      }
      const row = rows[next++]!;
      await sendOne(row);
      progress.update(outcomes);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(concurrency, rows.length) }, worker));
  } finally {
    releaseCtrlC();
    progress.done();
  }
  const notSent: Record<Exclude<StopReason, undefined>, string> = {
    interrupted: 'not sent: interrupted',
    auth: 'not sent after an authentication failure',
    journal: `not sent: ${result.journalError?.message ?? 'the journal could not be written'}`,
    'lock-lost': "not sent: the journal's lock was taken over by another process",
    ledger: 'not sent: the ledger does not answer',
  };
  for (const row of rows) if (!outcomes.has(row.key)) outcomes.set(row.key, reportRow(row, 'not-sent', { error: notSent[result.stopped ?? 'interrupted'] }));
  return result;
}

/**
 * Under --dry-run: each row's request recorded by the API client, never sent,
 * one after another so that they are recorded in the file's order.
 */
async function recordAll(rows: BatchRow[], clientFor: (account: string | null) => Promise<ApiClient>, outcomes: Map<string, ReportRow>): Promise<void> {
  for (const row of rows) {
    await withdraw(await clientFor(row.account), row.request);
    outcomes.set(row.key, reportRow(row, 'planned'));
  }
}

/**
 * Whether a failed request may still have moved money: no answer, an answer that
 * is not the API's, or any 5xx (the server may have failed after acting on it),
 * even one that carries the API's error body.
 */
const mayHaveMoved = (error: PayctlError | undefined): boolean =>
  !error || error.exitCode === ExitCode.unknownOutcome || (error.status !== undefined && error.status >= 500);

/** A bar of the rows finished, with what became of them, on stderr at a terminal. */
function progressBar(io: Context['io'], total: number) {
  const line = statusLine(io);
  const width = 30;
  return {
    update: (outcomes: Map<string, ReportRow>) => {
      const finished = [...outcomes.values()].filter((r) => ['sent', 'failed', 'unknown'].includes(r.outcome));
      const count = (outcome: string) => finished.filter((r) => r.outcome === outcome).length;
      const filled = Math.round((finished.length / total) * width);
      line.show(
        () => `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${finished.length}/${total}  sent ${count('sent')}  failed ${count('failed')}  unknown ${count('unknown')}`,
        finished.length >= total,
      );
    },
    done: () => line.done(),
  };
}

async function writeReport({ io }: Context, report: ReportRow[]): Promise<void> {
  const writer = io.output.list(batchReportView);
  await writer.write(report);
  await writer.end();
}

/**
 * Exit 5 when any row's outcome is unknown (or sent but not recorded), 130 after
 * Ctrl-C, 3 after an authentication failure, 1 when any row failed or was not
 * sent; 0 when every row is paid.
 */
function throwForOutcome(report: ReportRow[], orphans: number, sending: SendResult, plan: BatchPlan): void {
  const count = (outcome: string) => report.filter((r) => r.outcome === outcome).length;
  const unpaid = report.filter((r) => !PAID.includes(r.outcome) && r.outcome !== 'planned').length + orphans;
  const { stopped, journalError, unrecorded } = sending;
  if (unpaid === 0 && unrecorded.length === 0) return;
  const message = `${unpaid} of ${report.length} rows are not paid`;
  if (journalError && unrecorded.length > 0) {
    throw new PayctlError(
      `${journalError.message}: sending stopped; lines ${unrecorded.map((row) => row.line).join(', ')} were in flight and their outcome is not in the journal`,
      ExitCode.unknownOutcome,
      { hint: `check before retrying: make room for the journal, then settle them with: ${plan.reconcileCommand}` },
    );
  }
  if (count('unknown') || orphans) {
    throw new PayctlError(`${message}: ${count('unknown') + orphans} of unknown outcome`, ExitCode.unknownOutcome, {
      hint: `check before retrying; settle them with: ${plan.reconcileCommand}`,
    });
  }
  if (stopped === 'journal') throw new PayctlError(`${message}: ${journalError!.message}, so sending stopped`, ExitCode.localFailure, { hint: 'make room for the journal, then run the same command again' });
  if (stopped === 'lock-lost') {
    throw new PayctlError(`${message}: the journal's lock was taken over by another process, so sending stopped`, ExitCode.unknownOutcome, {
      hint: `check that no other payctl runs this batch, then: ${plan.reconcileCommand}`,
    });
  }
  if (stopped === 'interrupted') throw new PayctlError(`${message}: interrupted`, ExitCode.interrupted);
  if (stopped === 'ledger') throw new PayctlError(`${message}: the ledger does not answer, so sending stopped`, ExitCode.network, { hint: `check the database (payctl ledger status), then run the same command again` });
  if (sending.held === unpaid) throw new PayctlError(`${message}: the team's ledger refused them (listed above): nothing was sent for them`, ExitCode.usage);
  if (stopped === 'auth') throw new PayctlError(`${message}: authentication failed`, ExitCode.auth, { hint: 'log in again: payctl auth login' });
  throw new PayctlError(`${message}: ${count('failed')} refused or not reached`, ExitCode.rowsNotPaid);
}
