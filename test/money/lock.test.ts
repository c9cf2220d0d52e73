import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';
import { deadPid } from './helpers.js';

/**
 * The lock module itself, in many processes at once: each takes the same lock at
 * the same instant (they wait for one wall-clock time), says whether it won, and
 * holds it a moment. Its code is bundled from src/ for plain node processes.
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
const [lockPath, startAt] = process.argv.slice(2);
// Every removal under the lock waits 100 ms first: judging a lock stale and removing it are far
// apart, as on a loaded machine, so takers that judged the same stale lock interleave every time.
for (const name of ['unlinkSync', 'rmdirSync', 'rmSync']) {
  const real = fs[name];
  fs[name] = (target, ...rest) => {
    if (String(target).startsWith(lockPath)) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
    return real(target, ...rest);
  };
}
waitUntil(Number(startAt));
takeLock(lockPath, 'test lock', 0).then(
  async (lock) => {
    process.stdout.write('won');
    // Held until every taker has answered: a late one must find it busy, not free.
    while (!require('node:fs').existsSync(lockPath + '.release')) await new Promise((r) => setTimeout(r, 20));
    await lock.release();
  },
  (error) => process.stdout.write(error.name === 'LockBusy' ? 'busy' : 'error: ' + error.message),
);`,
  );
  taker = path.join(dir, 'taker.cjs');
  await build({ entryPoints: [entry], bundle: true, platform: 'node', format: 'cjs', outfile: taker, logLevel: 'warning' });
});

/** A taker process: what it said (won, busy) and its end; a winner holds the lock until `LOCK.release` exists. */
function startTaker(lockPath: string, startAt: number) {
  const child = spawn(process.execPath, [taker, lockPath, String(startAt)], { stdio: ['ignore', 'pipe', 'inherit'] });
  return {
    child,
    said: new Promise<string>((resolve) => child.stdout.setEncoding('utf8').once('data', resolve)),
    exited: new Promise<void>((resolve) => child.on('close', () => resolve())),
  };
}

/** Starts `count` takers at once; resolves with what each said, once all have said it and the winner has let go. */
async function takeAtOnce(lockPath: string, count: number): Promise<string[]> {
  const startAt = Date.now() + 300;
  const takers = Array.from({ length: count }, () => startTaker(lockPath, startAt));
  const outcomes = await Promise.all(takers.map((t) => t.said));
  writeFileSync(`${lockPath}.release`, '');
  await Promise.all(takers.map((t) => t.exited));
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
      expect(await takeAtOnce(lockPath, 6), `round ${round}`).toEqual(['busy', 'busy', 'busy', 'busy', 'busy', 'won']);
    }
  });

  it('a holder on this machine stopped (as by Ctrl-Z) keeps its lock, however old the lock looks: a second taker is told busy', async () => {
    const lockPath = path.join(mkdtempSync(path.join(tmpdir(), 'payctl-lock-')), 'journal.lock');
    const holder = startTaker(lockPath, Date.now());
    expect(await holder.said).toBe('won');
    holder.child.kill('SIGSTOP');
    try {
      // Stopped, it does not refresh the lock's time: 60 s old is far past what a holder elsewhere would be judged by.
      const old = new Date(Date.now() - 60_000);
      utimesSync(lockPath, old, old);
      const second = startTaker(lockPath, Date.now());
      const said = await second.said;
      writeFileSync(`${lockPath}.release`, '');
      await second.exited;
      expect(said).toBe('busy');
    } finally {
      holder.child.kill('SIGCONT');
    }
    await holder.exited;
  });

  it('6 processes at once on a free lock: exactly one wins, and the others are told it is busy', async () => {
    const lockPath = path.join(mkdtempSync(path.join(tmpdir(), 'payctl-lock-')), 'journal.lock');
    expect(await takeAtOnce(lockPath, 6)).toEqual(['busy', 'busy', 'busy', 'busy', 'busy', 'won']);
  });
});
