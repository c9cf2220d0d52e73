import { setMaxListeners } from 'node:events';
import type { IOStreams } from '../iostreams.js';
import { ExitCode, PayctlError } from '../errors.js';
import type { ApiClient } from '../http/client.js';
import { counted } from '../output/footer.js';
import { statusLine } from '../output/status-line.js';
import { waitForSettlement } from '../withdrawal/wait.js';
import { throwForOutcome, type BatchEnd } from './engine.js';
import type { ReportRow } from './report.js';

/** What following a batch's withdrawals came to: the rows with their last status, and whether Ctrl-C or a failed read stopped the wait. */
export interface FollowedBatch {
  report: ReportRow[];
  interrupted: boolean;
  /** A read that failed (not one that took no effect, which is tried again): it ended the wait, and is the run's error once the rows are reported. */
  failure?: unknown;
}

/**
 * `withdraw batch --wait`: reads every withdrawal this run sent until it is
 * COMPLETED or FAILED, up to `concurrency` reads at a time, all within `seconds`,
 * with one line on stderr at a terminal. Ctrl-C stops waiting, and so does a
 * read that fails: the rows keep the last status read.
 */
export async function followSentRows(
  ctx: { readonly io: IOStreams },
  report: readonly ReportRow[],
  clientFor: (account: string | null) => Promise<ApiClient>,
  seconds: number,
  concurrency: number,
): Promise<FollowedBatch> {
  const { io } = ctx;
  const statusOf = new Map<string, string>();
  const sent = report.flatMap((row) => (row.outcome === 'sent' && row.withdrawalId ? [{ row, start: { id: row.withdrawalId, status: row.status ?? 'PENDING' } }] : []));
  for (const { row, start } of sent) statusOf.set(row.key, start.status);
  const started = Date.now();
  const line = statusLine(io);
  const count = (status: string) => [...statusOf.values()].filter((s) => s === status).length;
  const show = () =>
    line.show(
      () => `waiting for ${counted(sent.length, 'withdrawals')}: ${count('COMPLETED')} COMPLETED, ${count('FAILED')} FAILED, ` +
        `${sent.length - count('COMPLETED') - count('FAILED')} not yet (${Math.round((Date.now() - started) / 1000)} s)`,
      false,
    );
  // Ctrl-C, or a read that fails, ends the wait: the other rows' waits and reads are given up, not waited for.
  const waitEnds = new AbortController();
  setMaxListeners(concurrency + 10, waitEnds.signal);
  let interrupted = false;
  let failure: unknown;
  const releaseCtrlC = io.interrupts.takeOver(() => {
    if (interrupted) return io.interrupts.stop('interrupted');
    interrupted = true;
    waitEnds.abort();
  });
  await io.output.note(`waiting up to ${seconds} s for ${counted(sent.length, 'withdrawals')} to settle (Ctrl-C stops waiting, not the withdrawals)`);
  // One iterator shared by the workers: each takes the next row not yet taken.
  const queue = sent.values();
  const worker = async () => {
    for (const { row, start } of queue) {
      if (waitEnds.signal.aborted) break;
      try {
        const api = await clientFor(row.account);
        const timeLeft = started + seconds * 1000 - Date.now();
        const { withdrawal } = await waitForSettlement(ctx, api, start, timeLeft, {
          signal: waitEnds.signal,
          onRead: (read) => {
            statusOf.set(row.key, String(read.status));
            show();
          },
        });
        statusOf.set(row.key, String(withdrawal.status));
      } catch (error) {
        if (error instanceof PayctlError && error.exitCode === ExitCode.interrupted) continue;
        failure ??= error;
        waitEnds.abort();
        return;
      }
    }
  };
  try {
    show();
    await Promise.all(Array.from({ length: Math.min(concurrency, sent.length) }, worker));
  } finally {
    releaseCtrlC();
    line.done();
  }
  const followed = report.map((row) => {
    const status = statusOf.get(row.key);
    return status === undefined ? row : { ...row, status };
  });
  return { report: followed, interrupted, failure };
}

/** The lines the batch's summary adds after --wait: the counts, then each row not COMPLETED. */
export function followSummary({ report, interrupted, failure }: FollowedBatch): string[] {
  const followed = report.filter((row) => row.outcome === 'sent' && row.withdrawalId);
  const count = (status: string) => followed.filter((row) => row.status === status).length;
  const unsettled = followed.filter((row) => row.status !== 'COMPLETED' && row.status !== 'FAILED');
  const stopped = interrupted || failure !== undefined;
  return [
    `waited: ${count('COMPLETED')} COMPLETED, ${count('FAILED')} FAILED, ${unsettled.length} still ${stopped ? 'unsettled when the wait was stopped' : 'PENDING'}` +
      (failure === undefined ? '' : ' (a read failed: see the error below)'),
    ...followed.filter((row) => row.status === 'FAILED').map((row) => `  FAILED   line ${row.line}: withdrawal ${row.withdrawalId}`),
    ...unsettled.map((row) => `  ${String(row.status).padEnd(8)} line ${row.line}: withdrawal ${row.withdrawalId}`),
  ];
}

/**
 * The exit of a batch run with --wait, by the worst outcome: sending's exit 5
 * (an outcome unknown) first; then a read that failed while waiting (its own exit);
 * then Ctrl-C while waiting (130) or a withdrawal still PENDING (5); then sending's
 * own exit; then a withdrawal that FAILED (1).
 */
export function throwForFollowed(report: readonly ReportRow[], end: BatchEnd, followed: FollowedBatch, seconds: number): void {
  let sendingError: PayctlError | undefined;
  try {
    throwForOutcome(report, end);
  } catch (error) {
    if (!(error instanceof PayctlError)) throw error;
    sendingError = error;
  }
  if (sendingError?.exitCode === ExitCode.unknownOutcome) throw sendingError;
  if (followed.failure !== undefined) throw followed.failure;
  const sent = report.filter((row) => row.outcome === 'sent' && row.withdrawalId);
  const lines = (rows: readonly ReportRow[]) => `line${rows.length > 1 ? 's' : ''} ${rows.map((row) => row.line).join(', ')}`;
  const unsettled = sent.filter((row) => row.status !== 'COMPLETED' && row.status !== 'FAILED');
  const hint = 'do not send them again; follow each with: payctl withdrawals get ID (ids in the report)';
  if (followed.interrupted) {
    throw new PayctlError(`interrupted while waiting: ${counted(unsettled.length, 'withdrawals')} made and not settled yet (${lines(unsettled)})`, ExitCode.interrupted, { hint });
  }
  if (unsettled.length) throw new PayctlError(`${counted(unsettled.length, 'withdrawals')} made and still PENDING after ${seconds} s (${lines(unsettled)})`, ExitCode.stillPending, { hint });
  if (sendingError) throw sendingError;
  const failed = sent.filter((row) => row.status === 'FAILED');
  if (failed.length) {
    throw new PayctlError(`${counted(failed.length, 'withdrawals')} FAILED (${lines(failed)}): the platform did not pay them, and their amounts are back in the balance`, ExitCode.withdrawalFailed, {
      hint: 'see each with: payctl withdrawals get ID (ids in the report)',
    });
  }
}
