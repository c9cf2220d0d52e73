import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, type RunOptions, type RunResult } from '../helpers/cli.js';
import { startWorkerPool, type PayctlWorkerPool } from '../helpers/workers.js';
import { FAULTS, startFaultServer, type Fault, type FaultServer, type TimedRequest } from '../helpers/fault-server.js';
import { COMMAND_KINDS, STACK_LINE, inPool, liveToken, missingForRow, normalAnswer, rowName, type CommandKind } from './commands.js';
import { tally, trackFailures } from './tally.js';

/**
 * Every fault of the fault server against every kind of command. What the
 * contract promises: exit 4 when the request cannot have taken effect, 5 when
 * a POST/PUT/DELETE was sent and no proper answer came or a 5xx came back
 * (an API error body or not); GET tried at most 3
 * times, anything else exactly once; one clear `error:` line, no stack trace;
 * redirects never followed, so the token never reaches another host.
 */

interface Expectation {
  exit: number;
  /** Requests under test that may reach the server: [min, max]. */
  requests: [number, number];
  message: RegExp;
  /** Minimum time between attempts, for faults that carry Retry-After. */
  minGapMs?: number;
}

const NOT_API = /not an API answer/;
const UNKNOWN = /outcome is unknown|check whether|of unknown outcome/;

function expectationFor(fault: Fault, method: string, batch: boolean): Expectation {
  const single = singleRequestExpectation(fault, method);
  // A batch reports each row's error in its report on stdout and ends with one summary error:
  // 5 when any row's outcome is unknown (any 5xx to its POST among them), 1 when rows were refused or not reached.
  if (batch && fault === 'status-500-api-error') return { ...single, exit: 5 };
  // A server that refuses every connection stops a batch at its check for twins, before any row is sent: as a single withdrawal, exit 4.
  if (batch && fault === 'refuse') return single;
  return batch ? { ...single, exit: single.exit === 4 ? 1 : single.exit } : single;
}

function singleRequestExpectation(fault: Fault, method: string): Expectation {
  const read = method === 'GET';
  const retried = (exitForChange: number, message: RegExp): Expectation =>
    read ? { exit: 4, requests: [3, 3], message } : { exit: exitForChange, requests: [1, 1], message };
  const maybeRetried = (message: RegExp): Expectation => (read ? { exit: 4, requests: [1, 3], message } : { exit: 5, requests: [1, 1], message });
  const once = (message: RegExp): Expectation => ({ exit: read ? 4 : 5, requests: [1, 1], message });
  switch (fault) {
    case 'refuse':
      return { exit: 4, requests: [0, 0], message: /could not connect.*connection refused/ };
    case 'hang':
    case 'slow-body':
      return maybeRetried(/no answer from 127\.0\.0\.1:\d+ within the [\d.]+ s timeout/);
    case 'slow-ok':
      return { exit: 0, requests: [1, 1], message: /^$/ };
    case 'close-after-request':
    case 'truncated-content-length':
      return maybeRetried(/closed before/);
    case 'huge-body':
      // Asked again, it would be as large: refused, not retried.
      return once(/larger than 32 MiB/);
    case 'status-500':
    case 'status-502':
    case 'status-503':
    case 'status-504':
      return retried(5, NOT_API);
    case 'status-503-retry-after-date':
      return { ...retried(5, NOT_API), minGapMs: 400 };
    case 'status-500-api-error':
      // The server failed, whatever its body says: a write's outcome is unknown.
      return retried(5, /internal error while processing: the server failed.*\(returnCode -7000\b/);
    case 'status-408':
      return retried(4, /HTTP 408/);
    case 'status-429':
      return retried(4, /rate limiting/);
    case 'status-429-retry-after':
      return { ...retried(4, /rate limiting/), minGapMs: 900 };
    case 'html':
      return once(/text\/html.*not JSON/);
    case 'cut-json':
      return once(/cut-off or invalid JSON/);
    case 'wrong-shape':
    case 'data-null':
    case 'empty-body':
      // Read for the operation's needed fields, the error names the operation and what is wrong (`api`, which names none, says it as before).
      return once(/ answered with.*: the answer is not the API's|not an API answer/);
    case 'redirect-302':
    case 'redirect-307':
      return { exit: 1, requests: [1, 1], message: /redirected to http:\/\/127\.0\.0\.1:\d+\/.*does not follow redirects/ };
  }
}

/** --timeout per fault: short where the fault is the wait (the requests it sent are then waited for, runCase). */
function timeoutFor(fault: Fault): string {
  return fault === 'hang' || fault === 'slow-body' ? '2' : '5';
}

let server: FaultServer;
/**
 * The rows run in payctl processes kept up for the whole matrix (the built bundle's main): each case
 * meets its fault in a process of its own, as a user's run would, so a case waiting on a hung server
 * or a huge answer never delays another's timers, and a busy machine gives every case its
 * share of CPU; no case pays for Node's start-up.
 */
let payctl: PayctlWorkerPool;
let caseCounter = 0;
trackFailures();

beforeAll(async () => {
  server = await startFaultServer();
  payctl = startWorkerPool(16);
});
afterAll(async () => {
  await payctl?.close();
  await server?.close();
});

type Runner = (args: readonly string[], options: RunOptions) => Promise<RunResult>;

/**
 * The server runs in this busy process, and can act after payctl's --timeout (2 s for the waiting faults,
 * else 5 s): a read before the faulted request answered too late, or the fault itself (a close, a cut
 * answer) made too late. payctl then reports its timeout where the fault calls for another ending, and
 * the case never met its fault: it is run again, up to three times, so a busy machine slows the matrix
 * rather than failing it. A command that never sends the faulted request, or that waits out a fault it
 * should have seen, fails all three.
 */
async function runCase(row: CommandKind, fault: Fault, run: Runner): Promise<string[]> {
  for (let attempt = 1; ; attempt++) {
    const { problems, faultNotReached } = await runCaseOnce(row, fault, run);
    if (!faultNotReached || attempt === 3) return problems;
  }
}

async function runCaseOnce(row: CommandKind, fault: Fault, run: Runner): Promise<{ problems: string[]; faultNotReached: boolean }> {
  const caseId = `c${++caseCounter}`;
  const dir = mkdtempSync(path.join(tmpdir(), 'payctl-fault-'));
  const token = liveToken();
  const isTarget = (request: { method: string; url: string }) => request.method === row.method && row.path.test(request.url.split('?')[0]!);
  const baseUrl = server.urlFor(caseId, { fault, target: isTarget, answer: normalAnswer });
  const redirectsBefore = server.redirectTarget.requests.length;
  const started = performance.now();
  const result = await run([...row.command, ...row.argv(dir), '--timeout', timeoutFor(fault), '--no-input'], {
    env: { PAYCTL_CONFIG_DIR: path.join(dir, 'config'), PAYCTL_BASE_URL: baseUrl, PAYCTL_TOKEN: row.kind === 'login' ? undefined : token },
    input: row.input,
  });
  const elapsed = Math.round(performance.now() - started);
  const want = expectationFor(fault, row.method, row.kind === 'batch');
  const sends = row.sends ?? 1;
  const targetedNow = () => server.requestsOf(caseId).filter((request) => request.targeted);
  // A client that gave up on a hung server has sent its request, but the server (in this busy process) may
  // read it only after the client has gone: wait, bounded, for the requests the client sent to be read.
  for (const deadline = Date.now() + 60_000; targetedNow().length < want.requests[0] * sends && Date.now() < deadline; ) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const targeted = targetedNow();
  const problems: string[] = [];
  const seen = server.requestsOf(caseId).map((request) => `${request.method} ${request.url}`).join(', ') || 'none';
  const say = (text: string) =>
    problems.push(
      `${fault}: ${text} (exit ${result.code}, ${elapsed} ms; requests: ${seen})\n  stderr: ${result.stderr.trim().split('\n').join('\n          ')}`,
    );

  if (result.code !== want.exit) say(`exit ${result.code}, expected ${want.exit}`);
  const [min, max] = [want.requests[0] * sends, want.requests[1] * sends];
  if (targeted.length < min || targeted.length > max)
    say(`${targeted.length} ${row.method} requests arrived, expected ${min === max ? min : `${min} to ${max}`}`);
  if (want.exit !== 0 && !/^error: /m.test(result.stderr)) say('no "error:" line');
  const said = row.kind === 'batch' ? result.stdout + result.stderr : result.stderr;
  if (want.exit !== 0 && !want.message.test(said)) say(`message does not match ${want.message}`);
  if (want.exit === 5 && !UNKNOWN.test(result.stderr)) say('exit 5 without telling the user to check before retrying');
  if (STACK_LINE.test(result.stderr) || /this is a bug/.test(result.stderr)) say('stack trace or internal error shown');
  if (result.stderr.includes(token) || result.stdout.includes(token)) say('the token was printed');
  if (want.exit !== 0 && result.stdout.trim() !== '' && row.kind !== 'batch') say(`stdout is not empty: ${result.stdout.slice(0, 200)}`);
  if (server.redirectTarget.requests.length !== redirectsBefore) say('a redirect was followed to another host');
  if (want.minGapMs && row.method === 'GET') checkGaps(targeted, want.minGapMs, say);
  const timedOut = /within the [\d.]+ s timeout/.test(result.stderr);
  return { problems, faultNotReached: timedOut && ((min > 0 && targeted.length === 0) || !want.message.test(said)) };
}

function checkGaps(requests: TimedRequest[], minGapMs: number, say: (text: string) => void): void {
  for (let i = 1; i < requests.length; i++) {
    const gap = requests[i]!.at - requests[i - 1]!.at;
    if (gap < minGapMs) say(`retry ${i} came ${Math.round(gap)} ms after the previous attempt, before Retry-After allowed`);
  }
}

describe.concurrent('faults × command kinds', () => {
  for (const row of COMMAND_KINDS) {
    it(`${rowName(row)} (${row.method}): every fault ends in the contract's exit code, request count and message`, async () => {
      expect(missingForRow(row), `${rowName(row)} cannot run: the tree lacks`).toEqual([]);
      const problems = (await inPool(FAULTS, 4, (fault) => runCase(row, fault, payctl.run))).flat();
      expect(problems, problems.join('\n')).toEqual([]);
      tally('faults', FAULTS.length);
    });
  }
});

// The rows above run the bundle's main in kept-up processes. The built binary also has its launcher,
// code cache and output streams: the money path meets every fault through it too, alone, so that its
// runs' start-up does not compete with the matrix.
describe('faults × the built binary', () => {
  const withdrawRow = COMMAND_KINDS.find((row) => row.kind === 'withdraw')!;
  it(`${rowName(withdrawRow)} (${withdrawRow.method}) through the built binary: every fault ends the same way`, async () => {
    const problems = (await inPool(FAULTS, 4, (fault) => runCase(withdrawRow, fault, runCli))).flat();
    expect(problems, problems.join('\n')).toEqual([]);
    tally('faults', FAULTS.length);
  });
});

describe('after every fault', () => {
  it('redirects never carry the Authorization header to another host, for any method', () => {
    const leaked = server.redirectTarget.requests.filter((request) => request.headers.authorization !== undefined);
    expect(leaked).toEqual([]);
  });
});

describe('the command kinds the suites cover', () => {
  it('every kind of command that talks to the API has a row', () => {
    expect(new Set(COMMAND_KINDS.map((row) => row.kind))).toEqual(new Set(['read', 'create', 'update', 'delete', 'withdraw', 'batch', 'login']));
  });
});
