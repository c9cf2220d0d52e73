import os from 'node:os';
import { withdraw } from '../../api/withdrawals.js';
import { WITHDRAWAL_METHODS, type WithdrawalMethod } from '../../api/types.js';
import { CSV_SEPARATORS, type CsvSeparator } from '../../batch/csv.js';
import { sendRows, throwForOutcome, type BatchClient, type BatchEnd, type SendResult } from '../../batch/engine.js';
import { followSentRows, followSummary, throwForFollowed } from '../../batch/follow.js';
import { JournalWriteError, JournalWriter, readJournal, JOURNAL_VERSION, type JournalContents, type JournalHeader, type RowState } from '../../batch/journal.js';
import { reconcile, type UnknownRow } from '../../batch/reconcile.js';
import type { SheetChoice } from '../../batch/workbook.js';
import type { WithdrawalFinding } from '../../withdrawal/identity.js';
import { batchReportView, batchSummary, batchTotals, planSummary, reportRow, type ReportRow } from '../../batch/report.js';
import { readBatchFile, type BatchRow } from '../../batch/rows.js';
import type { Context } from '../../context.js';
import { ExitCode, PayctlError, usageError } from '../../errors.js';
import { GLOBAL_FLAGS } from '../../flags.js';
import type { ApiClient } from '../../http/client.js';
import { printDryRun } from '../shared/dry-run.js';
import { statusLine } from '../../output/status-line.js';
import { resolveRequired } from '../../prompt.js';
import { describeClockOffset, readApiClockOffset } from '../../withdrawal/api-clock.js';
import { checkBatchTwins, type DuplicateOverride } from '../../withdrawal/duplicate-guard.js';
import { identityOf, type WithdrawalIdentity } from '../../withdrawal/identity.js';
import { ledgerWritten, rowClaim, sendClaimed, settleJournalPaidRows, settleLeftOverRows } from '../../ledger/index.js';
import { describeHolder, LockBusy, platformAccount, takeLock, type HeldLock } from '../../withdrawal/lock.js';
import { refuseAboveBatchLimits } from '../../withdrawal/limits.js';
import { assertPrivate } from '../../withdrawal/private-file.js';
import { confirmChange } from '../shared/confirm.js';
import { DEFAULT_WAIT_SECONDS } from '../shared/wait.js';
import { flagOf, type Invocation } from '../spec.js';
import type { withdrawBatch } from './index.js';

const DEFAULT_CONCURRENCY = 4;

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
  /** With --wait: how long to follow the rows sent until they settle, in seconds. */
  waitSeconds?: number;
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
    ...(opts.wait ? { waitSeconds: opts.waitTimeout ?? DEFAULT_WAIT_SECONDS } : {}),
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
 * they are recorded instead, in the file's order: a plan goes to stderr, the
 * requests recorded to stdout.
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
  let sending: BatchEnd['sending'] = { unrecorded: [], held: 0 };
  if (!lock) {
    await recordAll(toSend, clientFor, outcomes);
  } else if (toSend.length > 0) {
    sending = await sendAll(ctx, toSend, plan, journal, lock, clientFor, outcomes);
    await ledgerWritten(services, plan.reconcileCommand);
    if (sending.stopped === 'interrupted') io.stderr.write('interrupted: rows not started were not sent; rerun the same command to continue\n');
  }
  journal.close();

  let report = rows.map((row) => outcomes.get(row.key)!);
  // Rows are followed only when sending went to its end: after a stop, the run ends as soon as it can.
  const followed =
    lock && plan.waitSeconds !== undefined && !sending.stopped && report.some((row) => row.outcome === 'sent')
      ? await followSentRows(ctx, report, clientFor, plan.waitSeconds, plan.concurrency)
      : undefined;
  if (followed) report = followed.report;
  if (lock) await writeReport(ctx, report);
  const summary = lock ? [...batchSummary(report), ...(followed ? followSummary(followed) : [])] : planSummary(report);
  for (const [key, state] of orphans) {
    const where = state.intent ? `line ${state.intent.line} of an earlier version of the file` : 'a row no longer in the file';
    summary.push(`  unknown  ${where} (journal key ${key}): settle it with ${plan.reconcileFlag}`);
  }
  io.stderr.write(`${summary.join('\n')}\n`);
  // What a dry run recorded is a list, whatever its length: one request per row to send.
  if (!lock) printDryRun(io, services.recorded, (text) => services.secrets.scrub(text), { asList: true });
  const end: BatchEnd = { orphans: orphans.length, sending, reconcileCommand: plan.reconcileCommand };
  if (followed) throwForFollowed(report, end, followed, plan.waitSeconds!);
  else throwForOutcome(report, end);
}

interface OpenJournal {
  contents: JournalContents;
  /** Appends a record; the journal file (its header and this run's record first) is made on the first. */
  append: JournalWriter['append'];
  /** Every record appended so far on disk (nothing to do under --dry-run). */
  flush(): Promise<void>;
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
    flush: async () => writer?.flush(),
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

/**
 * Under --dry-run: each row's request recorded by the API client, never sent,
 * one after another so that they are recorded in the file's order.
 */
/**
 * Sends the rows through the engine, the journal's `lock` held: Ctrl-C stops
 * starting rows and lets those in flight finish (a second Ctrl-C ends the run at
 * once: the journal then shows them unknown). Each row's claim is taken in the
 * team's ledger just before it is sent.
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
  const { io } = ctx;
  const progress = progressBar(io, rows.length);
  const stop = new AbortController();
  const releaseCtrlC = io.interrupts.takeOver(() => {
    if (stop.signal.aborted) return io.interrupts.stop('interrupted');
    stop.abort();
    io.stderr.write('\nstopping: waiting for the requests in flight (Ctrl-C again to quit now)\n');
  });
  const client: BatchClient = {
    clockOffset: async (row) => readApiClockOffset(await clientFor(row.account)),
    send: async (row) => {
      const api = await clientFor(row.account);
      const created = await sendClaimed(ctx, rowClaim(ctx.services, row, csvFile, allowDuplicate.given), () => withdraw(api, row.request), { behind: true });
      // Rows are sent only when not under --dry-run, which records them instead (recordAll).
      if (!created) throw new PayctlError('the withdrawal was recorded, not sent', ExitCode.internalError);
      return created;
    },
  };
  try {
    const result = await sendRows({ rows, journal, client, signal: stop.signal, concurrency, lockLost: () => Boolean(lock.lost()), onRowEnd: progress.update });
    for (const [key, outcome] of result.outcomes) outcomes.set(key, outcome);
    return result;
  } finally {
    releaseCtrlC();
    progress.done();
  }
}

async function recordAll(rows: BatchRow[], clientFor: (account: string | null) => Promise<ApiClient>, outcomes: Map<string, ReportRow>): Promise<void> {
  for (const row of rows) {
    await withdraw(await clientFor(row.account), row.request);
    outcomes.set(row.key, reportRow(row, 'planned'));
  }
}

/** A bar of the rows finished, with what became of them, on stderr at a terminal. */
function progressBar(io: Context['io'], total: number) {
  const line = statusLine(io);
  const width = 30;
  return {
    update: (outcomes: ReadonlyMap<string, ReportRow>) => {
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
