import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import readline from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';
import { deadPid } from './helpers.js';

/**
 * The lock module itself, in many processes at once: each takes the same lock at
 * the same instant (they wait for one wall-clock time), says whether it won, and
 * holds it a moment. Its code is bundled from src/ for plain node processes, which
 * take one lock per line of stdin: the races reuse six of them instead of starting
 * six Node processes a round.
 */
let taker: string;

beforeAll(async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'payctl-lock-'));
  const entry = path.join(dir, 'taker.ts');
  writeFileSync(
    entry,
    `import fs from 'node:fs';
import { takeLock } from ${JSON.stringify(path.join(ROOT, 'src/withdrawal/lock.ts'))};
import { waitUntil } from ${JSON.stringify(path.join(ROOT, 'test/helpers/start-at.cjs'))};
import readline from 'node:readline';
let lockPath = '';
// Every removal under the lock waits 100 ms first: judging a lock stale and removing it are far
// apart, as on a loaded machine, so takers that judged the same stale lock interleave every time.
for (const name of ['unlinkSync', 'rmdirSync', 'rmSync']) {
  const real = fs[name];
  fs[name] = (target, ...rest) => {
    if (String(target).startsWith(lockPath)) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
    return real(target, ...rest);
  };
}
// One line in, { lockPath, startAt }: one line out, won or busy, and "done" once it let go.
const take = async (request) => {
  lockPath = request.lockPath;
  waitUntil(request.startAt);
  try {
    const lock = await takeLock(lockPath, 'test lock', 0);
    process.stdout.write('won\\n');
    // Held until every taker has answered: a late one must find it busy, not free.
    while (!fs.existsSync(lockPath + '.release')) await new Promise((r) => setTimeout(r, 20));
    await lock.release();
  } catch (error) {
    process.stdout.write(error.name === 'LockBusy' ? 'busy\\n' : 'error: ' + error.message + '\\n');
  }
  process.stdout.write('done\\n');
};
let queue = Promise.resolve();
readline.createInterface({ input: process.stdin }).on('line', (line) => (queue = queue.then(() => take(JSON.parse(line)))));`,
  );
  taker = path.join(dir, 'taker.cjs');
  await build({ entryPoints: [entry], bundle: true, platform: 'node', format: 'cjs', outfile: taker, logLevel: 'warning' });
});

interface Taking {
  /** won or busy */
  said: Promise<string>;
  /** It has let go (a winner, once `LOCK.release` exists) and takes the next lock it is given. */
  done: Promise<void>;
}

/** A taker process, kept up: `take` has it take a lock; a winner holds it until `LOCK.release` exists. */
function startTaker() {
  const child = spawn(process.execPath, [taker], { stdio: ['pipe', 'pipe', 'inherit'] });
  const waiting: Array<(line: string) => void> = [];
  readline.createInterface({ input: child.stdout }).on('line', (line) => waiting.shift()?.(line));
  const nextLine = () => new Promise<string>((resolve) => waiting.push(resolve));
  return {
    child,
    take(lockPath: string, startAt: number): Taking {
      const said = nextLine();
      const done = nextLine().then(() => undefined);
      child.stdin.write(`${JSON.stringify({ lockPath, startAt })}\n`);
      return { said, done };
    },
    close: () => new Promise<void>((resolve) => child.on('close', () => resolve()).stdin.end()),
  };
}

let takers: Array<ReturnType<typeof startTaker>>;
beforeAll(() => {
  takers = Array.from({ length: 6 }, () => startTaker());
});
afterAll(() => Promise.all(takers.map((t) => t.close())));

/** The six takers at once; resolves with what each said, once all have said it and the winner has let go. */
async function takeAtOnce(lockPath: string): Promise<string[]> {
  const startAt = Date.now() + 300;
  const takings = takers.map((t) => t.take(lockPath, startAt));
  const outcomes = await Promise.all(takings.map((t) => t.said));
  writeFileSync(`${lockPath}.release`, '');
  await Promise.all(takings.map((t) => t.done));
  return outcomes.sort();
}

describe('takeLock across processes', () => {
  it('6 processes at once on a lock left by a process that is gone: exactly one wins, 5 rounds over', async () => {
    const bootId = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    for (let round = 0; round < 5; round++) {
      const lockPath = path.join(mkdtempSync(path.join(tmpdir(), 'payctl-lock-')), 'journal.lock');
      mkdirSync(lockPath, { mode: 0o700 });
      writeFileSync(
        path.join(lockPath, `holder-${randomUUID()}.json`),
        JSON.stringify({ pid: deadPid(), host: os.hostname(), bootId, since: new Date().toISOString() }),
      );
      expect(await takeAtOnce(lockPath), `round ${round}`).toEqual(['busy', 'busy', 'busy', 'busy', 'busy', 'won']);
    }
  });

  it('a holder on this machine stopped (as by Ctrl-Z) keeps its lock, however old the lock looks: a second taker is told busy', async () => {
    const lockPath = path.join(mkdtempSync(path.join(tmpdir(), 'payctl-lock-')), 'journal.lock');
    const [holder, other] = takers as [ReturnType<typeof startTaker>, ReturnType<typeof startTaker>];
    const held = holder.take(lockPath, Date.now());
    expect(await held.said).toBe('won');
    holder.child.kill('SIGSTOP');
    try {
      // Stopped, it does not refresh the lock's time: 60 s old is far past what a holder elsewhere would be judged by.
      const old = new Date(Date.now() - 60_000);
      utimesSync(lockPath, old, old);
      const second = other.take(lockPath, Date.now());
      const said = await second.said;
      writeFileSync(`${lockPath}.release`, '');
      await second.done;
      expect(said).toBe('busy');
    } finally {
      holder.child.kill('SIGCONT');
    }
    await held.done;
  });

  it('6 processes at once on a free lock: exactly one wins, and the others are told it is busy', async () => {
    const lockPath = path.join(mkdtempSync(path.join(tmpdir(), 'payctl-lock-')), 'journal.lock');
    expect(await takeAtOnce(lockPath)).toEqual(['busy', 'busy', 'busy', 'busy', 'busy', 'won']);
  });
});
