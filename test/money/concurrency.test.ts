import { cpSync, existsSync, mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempConfigDir } from '../helpers/cli.js';
import type { SandboxSession } from '../helpers/sandbox.js';
import type { PayctlWorker } from '../helpers/workers.js';
import { processStart } from '../../src/withdrawal/lock.js';
import { csvFile, deadPid, expectPaidOnce, PIX_HEADER, pixKeys, pixRows, sandboxWithdrawals, startProxy, startRacingSandbox, type RacingSandbox } from './helpers.js';

/**
 * Two payctl processes at once on the same money: one journal, one account. The processes are
 * workers kept up across rounds (test/helpers/workers.ts), so runs given one start time begin
 * together without waiting for Node to start.
 */
let batches: SandboxSession;
let bank: string;
let workers: PayctlWorker[];

let race: RacingSandbox | undefined;

beforeAll(async () => {
  // Two workers for the batches started together, ten for five guard rounds at a time: the tests run side by side.
  race = await startRacingSandbox(12);
  ({ session: batches, bank, workers } = race);
});
afterAll(() => race?.close());

/** The same command in two worker processes, started at one instant. */
function runTogether(pair: [PayctlWorker, PayctlWorker], args: string[], env: Record<string, string> = batches.env) {
  const startAt = Date.now() + 50;
  const [first, second] = pair;
  return Promise.all([first.run(args, { env, startAt }), second.run(args, { env, startAt })]);
}

const batchArgs = (file: string, extra: string[] = []) => ['withdraw', 'batch', file, '--method', 'pix', '--yes', '--main-account', ...extra];
const HOLDER = /in use by another payctl: pid (\d+) on host (\S+) /;

/** The pids of the runs a journal records. */
const runPids = (journal: string) =>
  readFileSync(journal, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { type: string; pid?: number })
    .filter((r) => r.type === 'run')
    .map((r) => r.pid);

const bootId = () => readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();

/** A lock as payctl leaves it when its process dies: the holder's record inside a private folder. */
function leaveLock(lockPath: string, holder: { pid: number; host: string; bootId?: string; started?: string }, ageMs = 0): void {
  mkdirSync(lockPath, { mode: 0o700 });
  writeFileSync(path.join(lockPath, `holder-${randomUUID()}.json`), JSON.stringify({ ...holder, since: new Date(Date.now() - ageMs).toISOString() }), {
    mode: 0o600,
  });
  const then = new Date(Date.now() - ageMs);
  utimesSync(lockPath, then, then);
}

describe.concurrent('one batch at a time per journal', () => {
  /**
   * The 200 rows on a platform of their own: a batch holds its account's withdrawal lock while it
   * sends, and the tests beside it, on the shared sandbox's account, would wait for all 200.
   */
  let own: RacingSandbox;
  beforeAll(async () => {
    own = await startRacingSandbox(0);
  });
  afterAll(() => own?.close());

  it('two batches started together on 200 rows: one pays, the other refuses at once naming pid and host; exactly 200 withdrawals', async () => {
    const file = csvFile('together.csv', [PIX_HEADER, ...pixRows('together', 200, own.bank)]);
    const [a, b] = await runTogether([workers[0]!, workers[1]!], batchArgs(file), own.session.env);
    expect([a.code, b.code].sort(), `${a.stderr}\n---\n${b.stderr}`).toEqual([0, 2]);
    const loser = a.code === 2 ? a : b;
    const [, pid, host] = HOLDER.exec(loser.stderr) ?? [];
    expect(host).toBe(os.hostname());
    expect(runPids(`${file}.journal`)).toEqual([Number(pid)]);
    expect(loser.stderr).toContain('nothing was sent');
    await expectPaidOnce(own.session, 'together-', pixKeys('together', 200));
  });

  it('a lock left by a process that is gone is taken over; of two runs racing to take it over exactly one wins, 5 times over', async () => {
    // The five rounds are independent (a journal, keys and a proxy each) and mostly wait on the API: they run side by side.
    const round = async (round: number) => {
      const prefix = `stale${round}`;
      const file = csvFile('stale.csv', [PIX_HEADER, ...pixRows(prefix, 5, bank)]);
      const journal = `${file}.journal`;
      leaveLock(`${journal}.lock`, { pid: deadPid(), host: os.hostname(), bootId: bootId() });
      // The winner's first request waits at the proxy until the other run has ended: it holds the lock all
      // that time, so the other finds it held however late it starts. Two runs recorded in the journal
      // means both took the lock: then nothing is held, both go on, and the codes below fail.
      const proxy = await startProxy(batches.sandbox.url);
      let otherEnded!: () => void;
      const gate = new Promise<void>((resolve) => (otherEnded = resolve));
      let held = 0;
      proxy.holdGets(() => {
        if (existsSync(journal) && runPids(journal).length > 1) otherEnded();
        held++;
        return gate;
      });
      const serial = batchArgs(file, ['--concurrency', '1']);
      const env = { PAYCTL_BASE_URL: proxy.url };
      // Two processes started the usual way. The loser may read the lock between the stale record's removal and
      // the winner's record's arrival; it reads again until the winner's is there (busyHolder in src/withdrawal/lock.ts).
      const run = () => batches.runProcess(serial, { env }).finally(otherEnded);
      const [a, b] = await Promise.all([run(), run()]);
      await proxy.close();
      expect([a.code, b.code].sort(), `round ${round}:\n${a.stderr}\n---\n${b.stderr}`).toEqual([0, 2]);
      expect(held, 'the winner was held until the other ended').toBeGreaterThan(0);
      const loser = a.code === 2 ? a : b;
      expect(Number(HOLDER.exec(loser.stderr)?.[1]), loser.stderr).toBe(runPids(journal)[0]);
      await expectPaidOnce(batches, `${prefix}-`, pixKeys(prefix, 5));
    };
    await Promise.all([0, 1, 2, 3, 4].map(round));
  });

  it('a lock whose holder is gone is taken over though its pid now names another running process; a live holder is refused', async () => {
    // A process that runs all along: as the holder's pid used again after the holder died, recorded with
    // another start time; as a live holder, with its own.
    const other = spawn('sleep', ['600'], { stdio: 'ignore' });
    try {
      const started = processStart(other.pid!);
      expect(started).toMatch(/^\d+$/);
      const reused = csvFile('reused.csv', [PIX_HEADER, ...pixRows('reused', 3, bank)]);
      leaveLock(`${reused}.journal.lock`, { pid: other.pid!, host: os.hostname(), bootId: bootId(), started: String(Number(started) - 1) });
      const taken = await batches.run(batchArgs(reused));
      expect(taken.code, taken.stderr).toBe(0);
      await expectPaidOnce(batches, 'reused-', pixKeys('reused', 3));

      const live = csvFile('live.csv', [PIX_HEADER, ...pixRows('live', 3, bank)]);
      leaveLock(`${live}.journal.lock`, { pid: other.pid!, host: os.hostname(), bootId: bootId(), started });
      const refused = await batches.run(batchArgs(live));
      expect(refused.code, refused.stderr).toBe(2);
      expect(refused.stderr).toMatch(new RegExp(`in use by another payctl: pid ${other.pid} on host `));
      expect((await sandboxWithdrawals(batches)).filter((w) => w.pixKey?.startsWith('live-'))).toHaveLength(0);
    } finally {
      other.kill();
    }
  });

  it('a lock held on another host is refused while fresh, naming that host, and taken over once it is stale', async () => {
    const file = csvFile('remote.csv', [PIX_HEADER, ...pixRows('remote', 3, bank)]);
    const lock = `${file}.journal.lock`;
    leaveLock(lock, { pid: 4242, host: 'payroll-server' });
    // Touched ten minutes ahead, as a live holder refreshing it keeps it fresh: fresh however long the run takes to reach it.
    const ahead = new Date(Date.now() + 600_000);
    utimesSync(lock, ahead, ahead);
    const refused = await batches.run(batchArgs(file));
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/in use by another payctl: pid 4242 on host payroll-server/);
    expect((await sandboxWithdrawals(batches)).filter((w) => w.pixKey?.startsWith('remote-'))).toHaveLength(0);

    // proper-lockfile refreshes a live holder's lock every few seconds: one untouched for a minute has gone.
    const old = new Date(Date.now() - 60_000);
    utimesSync(lock, old, old);
    const taken = await batches.run(batchArgs(file));
    expect(taken.code, taken.stderr).toBe(0);
    await expectPaidOnce(batches, 'remote-', pixKeys('remote', 3));
  });
});

describe.concurrent('the single-withdrawal duplicate guard cannot be raced', () => {
  /**
   * Five lanes of four rounds side by side, each lane on a platform of its own (a sandbox, 100 ms
   * latency): the guard's lock is the account's, so lanes on one account would take their turns
   * at it, one round after another.
   */
  const LANES = 5;
  let lanes: RacingSandbox[] = [];
  beforeAll(async () => {
    lanes = await Promise.all(Array.from({ length: LANES }, () => startRacingSandbox(0)));
  });
  afterAll(() => Promise.all(lanes.map((lane) => lane.close())));

  it('20 rounds of two identical `withdraw pix --yes` started at once, API latency 100 ms: exactly one payment a round', async () => {
    const round = async (i: number, pair: [PayctlWorker, PayctlWorker], { session, bank: laneBank }: (typeof lanes)[number]) => {
      // Each round is two terminals of one user: one config folder per round.
      const configDir = tempConfigDir();
      cpSync(session.configDir, configDir, { recursive: true });
      const amount = 50_000 + i;
      const args = [
        'withdraw',
        'pix',
        '--main-account',
        '--amount',
        String(amount),
        '--bank-account',
        laneBank,
        '--pix-key-type',
        'email',
        '--pix-key',
        'raced@example.com',
        '--yes',
      ];
      const env = { ...session.env, PAYCTL_CONFIG_DIR: configDir };
      const results = await runTogether(pair, args, env);
      const paid = (await sandboxWithdrawals(session)).filter((w) => w.pixKey === 'raced@example.com' && w.amount === amount);
      return { amount, results, paid };
    };
    const rounds = (
      await Promise.all(
        lanes.map(async (lane, k) => {
          const done = [];
          for (let i = k; i < 20; i += LANES) done.push(await round(i, [workers[2 + 2 * k]!, workers[3 + 2 * k]!], lane));
          return done;
        }),
      )
    ).flat();
    expect(rounds).toHaveLength(20);
    for (const { amount, results, paid } of rounds) {
      const codes = results.map((r) => r.code).sort();
      expect(codes, `amount ${amount}:\n${results.map((r) => r.stderr).join('\n---\n')}`).toEqual([0, 2]);
      expect(results.find((r) => r.code === 2)!.stderr).toMatch(/possible duplicate: the same withdrawal was made in the last 24h in the main account/);
      expect(paid, `amount ${amount}`).toHaveLength(1);
    }
    const made = await Promise.all(lanes.map(({ session }) => sandboxWithdrawals(session)));
    expect(made.flat().filter((w) => w.pixKey === 'raced@example.com')).toHaveLength(20);
  });
});
