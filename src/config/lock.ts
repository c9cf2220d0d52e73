import fs from 'node:fs';
import { ExitCode, PayctlError } from '../errors.js';

type Lockfile = typeof import('proper-lockfile');
type Release = () => Promise<void>;

/** A held lock's mtime is renewed every second; one this old was left by a process that died. */
const STALE_AFTER_MS = 10_000;
const GIVE_UP_AFTER_MS = 15_000;
/** proper-lockfile's own stale check, turned off for the config lock (payctl takes stale locks over itself). */
const NEVER_STALE = Number.MAX_SAFE_INTEGER;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs `work` while holding `lockPath`: a proper-lockfile lock (a directory made
 * with mkdir, which only one process wins; its mtime renewed while held; removed
 * on exit). A lock that has gone stale was left by a process that died, and is
 * taken over; proper-lockfile would do that itself, but when two processes find
 * the same stale lock, the second can remove the lock the first has just made,
 * and both get in (payctl lost updates so). So only the holder of a second lock,
 * `LOCK.takeover`, removes a stale lock, and only if it is still stale then.
 */
export async function withLock<T>(lockPath: string, work: () => T): Promise<T> {
  const lockfile = await import('proper-lockfile');
  const release = await acquire(lockfile, lockPath);
  try {
    return work();
  } finally {
    await release();
  }
}

async function acquire(lockfile: Lockfile, lockPath: string): Promise<Release> {
  const giveUpAt = Date.now() + GIVE_UP_AFTER_MS;
  for (;;) {
    const release = await tryLock(lockfile, lockPath, NEVER_STALE);
    if (release) return release;
    if (isStale(lockPath)) await takeOver(lockfile, lockPath);
    else if (Date.now() > giveUpAt) {
      throw new PayctlError(`the config is locked by another payctl (${lockPath}), for more than ${GIVE_UP_AFTER_MS / 1000} s`, ExitCode.usage, {
        hint: `try again; if no payctl is running, remove the lock: rm -r '${lockPath}'`,
      });
    } else await sleep(5 + Math.random() * 20);
  }
}

async function takeOver(lockfile: Lockfile, lockPath: string): Promise<void> {
  // The takeover lock is held for a moment only; should its holder die, proper-lockfile's own stale check frees it.
  const release = await tryLock(lockfile, `${lockPath}.takeover`, STALE_AFTER_MS);
  if (!release) return;
  try {
    // Still stale while we hold the takeover lock: no one has taken it over and made a new one since we looked.
    // Older payctl versions left a plain file; both are removed.
    if (isStale(lockPath)) fs.rmSync(lockPath, { recursive: true, force: true });
  } catch (error) {
    throw new PayctlError(`cannot remove the stale config lock ${lockPath}: ${(error as Error).message}`, ExitCode.usage, {
      hint: `remove it: rm -r '${lockPath}'`,
    });
  } finally {
    await release();
  }
}

/** The lock, or undefined when another process holds it. */
async function tryLock(lockfile: Lockfile, lockfilePath: string, stale: number): Promise<Release | undefined> {
  try {
    // The first argument only names the lock inside proper-lockfile: with realpath off it is never opened.
    return await lockfile.lock(lockfilePath, { lockfilePath, realpath: false, stale, update: 1000, retries: 0, onCompromised: () => undefined });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOCKED') return undefined;
    throw new PayctlError(`cannot lock the config (${lockfilePath}): ${(error as Error).message}`, ExitCode.usage, {
      hint: 'check that the config folder is yours and writable',
    });
  }
}

function isStale(lockPath: string): boolean {
  try {
    return Date.now() - fs.statSync(lockPath).mtimeMs > STALE_AFTER_MS;
  } catch {
    return false;
  }
}
