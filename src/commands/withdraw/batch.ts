import { readFileSync } from 'node:fs';
import { withdraw } from '../../api/withdrawals.js';
import type { WithdrawalMethod } from '../../api/types.js';
import { readJournal, JournalWriter, type IntentRecord, type RowState } from '../../batch/journal.js';
import { reconcile } from '../../batch/reconcile.js';
import { batchReportView, batchSummary, batchTotals, PAID, reportRow, type ReportRow } from '../../batch/report.js';
import { parseBatch, type BatchRow } from '../../batch/rows.js';
import type { Context } from '../../context.js';
import { ExitCode, PayctlError, usageError } from '../../errors.js';
import type { ApiClient } from '../../http/client.js';
import { parseInteger } from '../../validate.js';
import { confirmChange } from '../shared/confirm.js';
import { statusLine } from '../../output/status-line.js';
import { optString } from '../spec.js';
import { WITHDRAW_FLAGS } from './request.js';

const DEFAULT_CONCURRENCY = 4;

/** Why sending stopped before every row was tried. */
type StopReason = 'interrupted' | 'auth' | undefined;

/**
 * `withdraw pix|card|boleto --from-csv FILE`: one withdrawal per row. Every row
 * is checked before any is sent; one confirmation covers the batch; the journal
 * makes a rerun skip rows done and refuse rows whose outcome is unknown until
 * `--reconcile` settles them from the withdrawals list.
 */
export async function runBatch(ctx: Context, method: WithdrawalMethod, opts: Record<string, unknown>): Promise<void> {
  const stray = Object.entries(WITHDRAW_FLAGS).filter(([key]) => opts[key] !== undefined).map(([, flag]) => flag);
  if (stray.length) throw usageError(`${stray.join(', ')} cannot be used with --from-csv: each row gives its own values`);
  const csvFile = String(opts.fromCsv);
  const journalFile = optString(opts, 'journal') ?? `${csvFile}.journal`;
  const concurrencyText = optString(opts, 'concurrency');
  const concurrency = concurrencyText === undefined ? DEFAULT_CONCURRENCY : parseInteger('--concurrency', concurrencyText, 1, 16);
  ctx.output.fieldsFor(batchReportView);

  const rows = readRows(ctx, csvFile, method);
  const journal = openJournal(ctx, journalFile, method);
  const states = journal.contents.rows;
  const clients = new Map<string | null, Promise<ApiClient>>();
  const clientFor = (account: string | null) => {
    if (!clients.has(account)) clients.set(account, ctx.apiInAccount(account));
    return clients.get(account)!;
  };

  const reconciled = new Set<string>();
  const unknownIntents = [...states.values()].flatMap((s) => (s.state === 'unknown' ? [s.intent] : []));
  if (opts.reconcile === true && unknownIntents.length > 0 && !ctx.flags.dryRun) {
    await settleUnknown(ctx, method, unknownIntents, states, journal.writer(), clientFor, reconciled);
  }

  const stateOf = (row: BatchRow): RowState => states.get(row.key) ?? { state: 'new' };
  const toSend = rows.filter((row) => ['new', 'failed'].includes(stateOf(row).state));
  const done = rows.filter((row) => stateOf(row).state === 'done');
  const unknown = rows.filter((row) => stateOf(row).state === 'unknown');
  if (toSend.length > 0) {
    const summary = [
      `About to withdraw by ${method.toUpperCase()} from ${csvFile}:`,
      ...batchTotals(toSend),
      ...(done.length ? [`  skipped:      ${done.length} rows already done (journal ${journalFile})`] : []),
      ...(unknown.length ? [`  refused:      ${unknown.length} rows of unknown outcome (settle them with --reconcile)`] : []),
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
    outcomes.set(row.key, reportRow(row, 'unknown', { error: state.error ?? `sent at ${state.intent.at}; no answer recorded` }));
  }
  const rowKeys = new Set(rows.map((row) => row.key));
  const orphans = unknownIntents.filter((intent) => states.get(intent.key)?.state === 'unknown' && !rowKeys.has(intent.key));
  let stopped: StopReason;
  if (ctx.flags.dryRun) {
    for (const row of toSend) outcomes.set(row.key, reportRow(row, 'planned'));
  } else if (toSend.length > 0) {
    stopped = await sendAll(ctx, toSend, concurrency, journal.writer(), clientFor, outcomes);
    if (stopped === 'interrupted') ctx.io.stderr.write('interrupted: rows not started were not sent; rerun the same command to continue\n');
  }
  journal.close();

  const report = rows.map((row) => outcomes.get(row.key)!);
  await writeReport(ctx, report);
  const summary = batchSummary(report);
  for (const intent of orphans) summary.push(`  unknown  line ${intent.line} of an earlier version of the file (journal key ${intent.key}): settle it with --reconcile`);
  ctx.io.stderr.write(`${summary.join('\n')}\n`);
  throwForOutcome(report, orphans.length, stopped, `payctl withdraw ${method} --from-csv ${csvFile} --reconcile`);
}

function readRows(ctx: Context, csvFile: string, method: WithdrawalMethod): BatchRow[] {
  let text: string;
  try {
    text = readFileSync(csvFile, 'utf8');
  } catch (error) {
    throw usageError(`--from-csv: cannot read ${csvFile}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  const { rows, problems } = parseBatch(text, method, ctx.settings().subaccount ?? null);
  if (problems.length > 0) {
    ctx.io.stderr.write(`${problems.map((p) => `  ${p}`).join('\n')}\n`);
    throw usageError(
      `--from-csv ${csvFile}: ${problems.length} problem${problems.length > 1 ? 's' : ''} (listed above): nothing was sent`,
      `columns: amount (cents), bank_account_id${method === 'pix' ? ', pix_key_type, pix_key' : ''}, and optionally postback_url, subaccount`,
    );
  }
  return rows;
}

/** The journal, checked to belong to this kind of batch; the writer opens (and the header is written) only when something is recorded. */
function openJournal(ctx: Context, file: string, method: WithdrawalMethod) {
  let contents;
  try {
    contents = readJournal(file);
  } catch (error) {
    throw usageError(`--journal ${file}: ${(error as Error).message}`, 'fix or move the journal; it records which rows were paid');
  }
  const settings = ctx.settings();
  const account = settings.subaccount ?? null;
  const header = contents.header;
  if (header && (header.method !== method || header.baseUrl !== settings.baseUrl || header.account !== account)) {
    throw usageError(
      `--journal ${file} belongs to a ${header.method} batch against ${header.baseUrl} in the ${header.account ? `sub-account ${header.account}` : 'main account'}, ` +
        `not to this ${method} batch against ${settings.baseUrl} in the ${ctx.accountLabel()}`,
      'run it with the same profile, account and method, or give another --journal',
    );
  }
  let writer: JournalWriter | undefined;
  return {
    contents,
    writer: () => {
      if (!writer) {
        writer = new JournalWriter(file);
        if (!header) writer.append({ type: 'batch', method, baseUrl: settings.baseUrl, account, at: new Date().toISOString() });
      }
      return writer;
    },
    close: () => writer?.close(),
  };
}

async function settleUnknown(
  ctx: Context,
  method: WithdrawalMethod,
  intents: IntentRecord[],
  states: Map<string, RowState>,
  journal: JournalWriter,
  clientFor: (account: string | null) => Promise<ApiClient>,
  reconciled: Set<string>,
): Promise<void> {
  const claimed = new Set([...states.values()].flatMap((s) => (s.state === 'done' ? [s.withdrawalId] : [])));
  const found = await reconcile(method, intents, claimed, clientFor);
  const at = new Date().toISOString();
  let paid = 0;
  for (const [key, withdrawal] of found) {
    if (withdrawal) {
      journal.append({ type: 'done', key, withdrawalId: withdrawal.id, status: withdrawal.status, at, reconciled: true });
      states.set(key, { state: 'done', withdrawalId: withdrawal.id, status: withdrawal.status });
      reconciled.add(key);
      paid++;
    } else {
      journal.append({ type: 'absent', key, at });
      states.set(key, { state: 'new' });
    }
  }
  await ctx.output.note(`reconcile: ${paid} of ${found.size} unknown rows were paid (found in withdrawals list); ${found.size - paid} were not and will be sent`);
}

/**
 * Sends rows with bounded concurrency: intent on disk, request, outcome on disk.
 * Ctrl-C stops starting rows and lets those in flight finish (a second Ctrl-C
 * quits at once: the journal then marks them unknown). Returns why it stopped early, if it did.
 */
async function sendAll(
  ctx: Context,
  rows: BatchRow[],
  concurrency: number,
  journal: JournalWriter,
  clientFor: (account: string | null) => Promise<ApiClient>,
  outcomes: Map<string, ReportRow>,
): Promise<StopReason> {
  let next = 0;
  let stop: StopReason;
  const progress = progressBar(ctx, rows.length);
  const onSigint = () => {
    if (stop === 'interrupted') process.exit(ExitCode.interrupted);
    stop = 'interrupted';
    ctx.io.stderr.write('\nstopping: waiting for the requests in flight (Ctrl-C again to quit now)\n');
  };
  process.on('SIGINT', onSigint);
  const sendOne = async (row: BatchRow) => {
    const client = await clientFor(row.account);
    const { request } = row;
    journal.append({
      type: 'intent', key: row.key, line: row.line, account: row.account, amount: request.amount, bankAccountId: request.bankAccountId,
      ...(request.withdrawalMethod === 'pix' ? { pixKey: request.pixKey } : {}), at: new Date().toISOString(),
    });
    try {
      const created = await withdraw(client, request);
      journal.append({ type: 'done', key: row.key, withdrawalId: created.id, status: created.status, at: new Date().toISOString() });
      outcomes.set(row.key, reportRow(row, 'sent', { withdrawalId: created.id, status: created.status }));
    } catch (error) {
      const known = error instanceof PayctlError ? error : undefined;
      const message = known ? `${known.message}${known.returnCode !== undefined ? ` (returnCode ${known.returnCode})` : ''}` : String((error as Error)?.message ?? error);
      if (!known || known.exitCode === ExitCode.unknownOutcome) {
        journal.append({ type: 'unknown', key: row.key, error: message, at: new Date().toISOString() });
        outcomes.set(row.key, reportRow(row, 'unknown', { error: message }));
      } else {
        journal.append({ type: 'failed', key: row.key, error: message, exitCode: known.exitCode, at: new Date().toISOString() });
        outcomes.set(row.key, reportRow(row, 'failed', { error: message }));
        if (known.exitCode === ExitCode.auth) stop ??= 'auth';
      }
    }
  };
  const worker = async () => {
    while (!stop && next < rows.length) {
      const row = rows[next++]!;
      await sendOne(row);
      progress.update(outcomes);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(concurrency, rows.length) }, worker));
  } finally {
    process.off('SIGINT', onSigint);
    progress.done();
  }
  for (const row of rows) if (!outcomes.has(row.key)) outcomes.set(row.key, reportRow(row, 'not-sent', { error: stop === 'auth' ? 'not sent after an authentication failure' : 'not sent: interrupted' }));
  return stop;
}

/** A bar of the rows finished, with what became of them, on stderr at a terminal. */
function progressBar(ctx: Context, total: number) {
  const line = statusLine(ctx);
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

async function writeReport(ctx: Context, report: ReportRow[]): Promise<void> {
  const writer = ctx.output.list(batchReportView);
  await writer.write(report);
  await writer.end();
}

/** Exit 5 when any row's outcome is unknown, 130 after Ctrl-C, 3 after an authentication failure, 1 when any row failed; 0 when every row is paid. */
function throwForOutcome(report: ReportRow[], orphans: number, stopped: StopReason, reconcileCommand: string): void {
  const count = (outcome: string) => report.filter((r) => r.outcome === outcome).length;
  const unpaid = report.filter((r) => !PAID.includes(r.outcome) && r.outcome !== 'planned').length + orphans;
  if (unpaid === 0) return;
  const message = `${unpaid} of ${report.length} rows are not paid`;
  if (count('unknown') || orphans) {
    throw new PayctlError(`${message}: ${count('unknown') + orphans} of unknown outcome`, ExitCode.unknownOutcome, {
      hint: `check before retrying; settle them with: ${reconcileCommand}`,
    });
  }
  if (stopped === 'interrupted') throw new PayctlError(`${message}: interrupted`, ExitCode.interrupted);
  if (stopped === 'auth') throw new PayctlError(`${message}: authentication failed`, ExitCode.auth, { hint: 'log in again: payctl auth login' });
  throw new PayctlError(`${message}: ${count('failed')} refused or not reached`, ExitCode.apiRefused);
}
