import { getWithdrawal } from '../api/withdrawals.js';
import { ExitCode, PayctlError } from '../errors.js';
import type { ApiClient } from '../http/client.js';
import type { IOStreams } from '../iostreams.js';
import { statusLine } from '../output/status-line.js';

const FIRST_DELAY_MS = 500;
const LONGEST_DELAY_MS = 5000;

/** What following a withdrawal reads: its id, and its status (a final one ends the wait, any other does not). */
export interface FollowedWithdrawal {
  id: string;
  status?: unknown;
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });

/**
 * `withdraw … --wait`: reads the withdrawal until it is COMPLETED or FAILED,
 * waiting longer between reads (half a second, growing to 5 s), with a status
 * line on stderr at a terminal. A read that fails for the network is tried again
 * until the deadline; any other failure ends the wait. Returns the last state
 * read and whether it is final. A status payctl does not know is not final.
 * `following.onRead` (a batch following many) is told each state read instead
 * of a line being drawn; `following.signal` stops the wait, the read in flight given up (else the run's).
 */
export async function waitForSettlement<W extends FollowedWithdrawal>(
  ctx: { readonly io: IOStreams },
  api: ApiClient,
  created: W,
  timeoutMs: number,
  following: { onRead?: (withdrawal: FollowedWithdrawal) => void; signal?: AbortSignal } = {},
): Promise<{ withdrawal: W | FollowedWithdrawal; final: boolean }> {
  const { io } = ctx;
  const signal = following.signal ?? io.signal;
  const started = Date.now();
  const deadline = started + timeoutMs;
  const line = following.onRead ? undefined : statusLine(io);
  let latest: W | FollowedWithdrawal = created;
  let delay = FIRST_DELAY_MS;
  try {
    while (!isFinal(latest)) {
      const wait = Math.min(delay, deadline - Date.now());
      if (wait <= 0) return { withdrawal: latest, final: false };
      line?.show(() => `waiting for withdrawal ${created.id}: ${String(latest.status)} (${Math.round((Date.now() - started) / 1000)} s)`, true);
      await sleep(wait, signal);
      if (signal.aborted) throw new PayctlError('interrupted', ExitCode.interrupted);
      delay = Math.min(delay * 1.5, LONGEST_DELAY_MS);
      try {
        latest = await getWithdrawal(api, created.id, { signal });
        following.onRead?.(latest);
      } catch (error) {
        // A read that took no effect (the network, a 429, a 5xx) is tried again at the next poll.
        if (!(error instanceof PayctlError) || error.exitCode !== ExitCode.tookNoEffect) throw error;
      }
    }
    return { withdrawal: latest, final: true };
  } finally {
    line?.done();
  }
}

const isFinal = (withdrawal: FollowedWithdrawal) => withdrawal.status === 'COMPLETED' || withdrawal.status === 'FAILED';

/**
 * `--wait` as a command ends it: notes that it waits, waits, prints the withdrawal as it ended
 * (`print`), and turns its end into the exit code: COMPLETED 0, FAILED 1, still PENDING after
 * `seconds` 5. `follow` is the command that follows it further, for the hints.
 */
export async function followToTheEnd(
  ctx: { readonly io: IOStreams },
  api: ApiClient,
  start: FollowedWithdrawal,
  seconds: number,
  where: { account: string; follow: string; print: (withdrawal: FollowedWithdrawal) => Promise<void> },
): Promise<void> {
  const { io } = ctx;
  await io.output.note(`withdrawal ${start.id} is ${String(start.status)} in the ${where.account}; waiting up to ${seconds} s for it to settle (Ctrl-C stops waiting, not the withdrawal)`);
  const { withdrawal, final } = await waitForSettlement(ctx, api, start, seconds * 1000);
  await where.print(withdrawal);
  if (!final) {
    throw new PayctlError(`withdrawal ${start.id} was made and is still ${String(withdrawal.status)} after ${seconds} s`, ExitCode.stillPending, {
      hint: `do not send it again; follow it with: ${where.follow}`,
    });
  }
  if (withdrawal.status === 'FAILED') {
    throw new PayctlError(`withdrawal ${start.id} FAILED: the platform did not pay it, and its amount is back in the balance`, ExitCode.withdrawalFailed, {
      hint: `see it with: ${where.follow}`,
    });
  }
  await io.output.note(`withdrawal ${start.id} is COMPLETED`);
}
