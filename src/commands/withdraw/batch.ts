import { getBalance, withdraw } from '../../api/withdrawals.js';
import { WITHDRAWAL_METHODS, type WithdrawalMethod } from '../../api/types.js';
import { BATCH_FILE_SEPARATORS, type BatchFileSeparator } from '../../batch/csv.js';
import { sendRows, throwForOutcome, type BatchClient, type BatchEnd, type SendResult } from '../../batch/engine.js';
import { followSentRows, followSummary, throwForFollowed } from '../../batch/follow.js';
import { JournalWriteError, type RowState } from '../../batch/journal.js';
import { lockJournal, openJournal, type OpenJournal } from '../../batch/open-journal.js';
import { settleUnknownRows } from '../../batch/settle.js';
import type { SheetChoice } from '../../batch/workbook.js';
import { batchReportView, batchSummary, batchTotals, planSummary, reportRow, type ReportRow } from '../../batch/report.js';
import { readBatchFile, type BatchRow } from '../../batch/rows.js';
import type { Context } from '../../context.js';
import { ExitCode, LISTED_ABOVE, PayctlError, usageError } from '../../errors.js';
import { GLOBAL_FLAGS } from '../../flags.js';
import type { ApiClient } from '../../http/client.js';
import { printDryRun } from '../shared/dry-run.js';
import { visible } from '../../output/sanitize.js';
import { statusLine } from '../../output/status-line.js';
import { resolveRequired } from '../../prompt.js';
import { readApiClockOffset } from '../../withdrawal/api-clock.js';
import { batchDrawsOnLines, feeLines } from '../../withdrawal/confirmation.js';
import { checkBatchTwins, sendBatchUnlessDuplicate, type DuplicateOverride } from '../../withdrawal/duplicate-guard.js';
import { claimsAhead, ledgerWritten, ownRowsByPayment, rowClaim, sendClaimed, settleJournalPaidRows, settleUnsentClaims, type RowClaims } from '../../ledger/index.js';
import { OPERATION_CALLS } from '../../api/validators.js';
import { intentMaker, intentNotSent, writeIntentAhead } from '../../audit/trail.js';
import { notSentOutcome, type AuditIntent } from '../../audit/log.js';
import type { HeldLock } from '../../withdrawal/lock.js';
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
function inputSeparator(given: string | undefined): BatchFileSeparator | undefined {
  if (given === undefined) return undefined;
  const separator = BATCH_FILE_SEPARATORS.find((choice) => choice === given);
  if (separator) return separator;
  const name = flagOf('csvSeparator', GLOBAL_FLAGS.csvSeparator);
  const choices = BATCH_FILE_SEPARATORS.map((choice) => `"${choice}"`).join(' or ');
  throw usageError(
    `${name} ${JSON.stringify(given)} cannot split a batch file: a batch file is split by ${choices}; nothing was sent`,
    `give ${name} ${BATCH_FILE_SEPARATORS.map((choice) => `'${choice}'`).join(' or ')}, or leave it out: the separator is then read from the header row`,
  );
}

async function readRows(
  { io, services }: Context,
  plan: BatchPlan,
  separator: BatchFileSeparator | undefined,
  sheet: SheetChoice,
  allowDuplicateRows: boolean,
): Promise<BatchRow[]> {
  const { rows, problems } = await readBatchFile(plan.csvFile, plan.method, services.settings().subaccount ?? null, { separator, sheet, allowDuplicateRows });
  if (problems.length > 0) {
    io.stderr.write(`${problems.map((p) => `  ${p}`).join('\n')}\n`);
    throw usageError(
      `${plan.csvFile}: ${problems.length} problem${problems.length > 1 ? 's' : ''} ${LISTED_ABOVE}: nothing was sent`,
      `columns: amount (cents) or amount_brl (reais, 1.234,56), bank_account_id${plan.method === 'pix' ? ', pix_key_type, pix_key' : ''}, and optionally postback_url, subaccount, reference`,
      problems,
    );
  }
  return rows;
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

  const reconciled =
    wantsReconcile && [...states.values()].some((s) => s.state === 'unknown')
      ? await settleUnknownRows(services, { method: plan.method, rows, states, journal, clientFor, by: `withdraw batch ${plan.reconcileFlag}`, note: (text) => io.output.note(text) })
      : new Set<string>();
  if (wantsReconcile) await settleJournalPaidRows(services, rows, states);

  const stateOf = (row: BatchRow): RowState => states.get(row.key) ?? { state: 'new' };
  const toSend = rows.filter((row) => ['new', 'failed'].includes(stateOf(row).state));
  const done = rows.filter((row) => stateOf(row).state === 'done');
  const unknown = rows.filter((row) => stateOf(row).state === 'unknown');
  const paidByJournal = new Set([...states.values()].flatMap((s) => (s.state === 'done' ? [s.withdrawalId] : [])));
  // Beside the check, awaited before the first claim, so that the ledger (node-postgres, the connection, the
  // run's registration) opens while the check runs, not at the first claim (150-250 ms of the first rows);
  // a ledger that fails it fails that claim (exit 4, nothing sent).
  let unsentSettled: Promise<void> = Promise.resolve();
  if (toSend.length > 0) {
    unsentSettled = settleUnsentClaims(services, toSend, plan.csvFile).catch(() => {});
    // The balances are read beside the check (a round trip less before the first row), but the check decides first
    // whichever answers first: one that fails or refuses gives up the balances' reads, and a balance that cannot be
    // read is reported once the check has passed. So a file with twins is refused as such every run, never ended
    // instead by a balance that happened to fail sooner.
    const balancesGivenUp = new AbortController();
    const drawsOn = batchDrawsOnLines(
      plan.method,
      toSend.map((row) => ({ account: row.account, amount: row.request.amount })),
      async (account, signal) => getBalance(await clientFor(account), { signal }),
      balancesGivenUp.signal,
    );
    drawsOn.catch(() => {});
    let duplicates: string[];
    try {
      duplicates = await checkBatchTwins(ctx, toSend, paidByJournal, clientFor, plan.allowDuplicate);
    } catch (error) {
      balancesGivenUp.abort();
      throw error;
    }
    const summary = [
      `About to withdraw by ${plan.method.toUpperCase()} from ${plan.csvFile}:`,
      ...batchTotals(toSend),
      ...feeLines(services.settings().env, plan.method, toSend.map((row) => row.request.amount)),
      ...(await drawsOn),
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
    await unsentSettled;
    const claims: RowClaims = { file: plan.csvFile, allowDuplicate: plan.allowDuplicate.given, own: ownRowsByPayment(plan.method, rows, states) };
    // Checked again and sent under the accounts' withdrawal locks: a copy of this file, or a single withdrawal
    // of one of its rows, started meanwhile waits and then finds these.
    sending = await sendBatchUnlessDuplicate(ctx, toSend, paidByJournal, clientFor, plan.allowDuplicate, () =>
      sendAll(ctx, toSend, { concurrency: plan.concurrency, claims }, journal, lock, clientFor, outcomes),
    );
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
  // Its reasons are the API's messages and its ids the API's: made visible, as every line of server text on stderr.
  io.stderr.write(`${summary.map(visible).join('\n')}\n`);
  // What a dry run recorded is a list, whatever its length: one request per row to send.
  if (!lock) await printDryRun(io, services.recorded, (text) => services.secrets.scrub(text), { asList: true });
  const end: BatchEnd = { orphans: orphans.length, sending, reconcileCommand: plan.reconcileCommand };
  if (followed) throwForFollowed(report, end, followed, plan.waitSeconds!);
  else throwForOutcome(report, end);
}

/**
 * Sends the rows through the engine, the journal's `lock` held: Ctrl-C stops
 * starting rows and lets those in flight finish (a second Ctrl-C ends the run at
 * once: the journal then shows them unknown). Each row's claim is taken in the
 * team's ledger just before it is sent.
 */
async function sendAll(
  ctx: Context,
  rows: BatchRow[],
  { concurrency, claims }: { concurrency: number; claims: RowClaims },
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
  // A row's write, as its audit intent names it: made ahead of its send, once, kept with its claim and in the local log.
  const { method, path } = OPERATION_CALLS.withdraw;
  const intentOf = intentMaker(ctx.services);
  const intents = new Map<string, AuditIntent>();
  const intentFor = (row: BatchRow): AuditIntent => {
    let intent = intents.get(row.key);
    if (!intent) intents.set(row.key, (intent = intentOf(row.account, { method, path, body: row.request })));
    return intent;
  };
  const ahead = claimsAhead(ctx.services, rows, { ...claims, concurrency }, intentFor);
  const client: BatchClient = {
    clockOffset: async (row) => readApiClockOffset(await clientFor(row.account)),
    prepare: (row) => writeIntentAhead(ctx.services, intentFor(row)),
    notSent: (row, reason) => intentNotSent(ctx.services, intentFor(row), reason),
    send: async (row, intentOnDisk) => {
      const send = async () =>
        sendClaimed(ctx, rowClaim(ctx.services, row, claims), async () => withdraw(await clientFor(row.account), row.request), {
          behind: true,
          ahead: ahead?.claimOf(row),
          ready: intentOnDisk,
          intent: intentFor(row),
        });
      const created = await send().catch(async (error: unknown) => {
        // Refused before its audit hook (a claim another operator holds): its intent written ahead says not sent.
        const known = error instanceof PayctlError ? error : undefined;
        await intentNotSent(ctx.services, intentFor(row), `not sent: ${known?.message ?? String(error)}`, known?.exitCode);
        throw error;
      });
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
    await ahead?.unsent((intent) => notSentOutcome(intent.id, ExitCode.tookNoEffect, 'not sent: the batch stopped before this row'));
    releaseCtrlC();
    progress.done();
  }
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

/** A bar of the rows finished, with what became of them, on stderr at a terminal. */
function progressBar(io: Context['io'], total: number) {
  const line = statusLine(io);
  const width = 30;
  return {
    update: (outcomes: ReadonlyMap<string, ReportRow>) => {
      const finished = [...outcomes.values()].filter((r) => ['sent', 'failed', 'unknown', 'not-sent'].includes(r.outcome));
      const count = (outcome: string) => finished.filter((r) => r.outcome === outcome).length;
      const filled = Math.round((finished.length / total) * width);
      line.show(
        () => `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${finished.length}/${total}  sent ${count('sent')}  failed ${count('failed')}  unknown ${count('unknown')}${count('not-sent') ? `  not sent ${count('not-sent')}` : ''}`,
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
