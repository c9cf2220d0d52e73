import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { usageError } from '../errors.js';
import { assertPrivate } from './private-file.js';

/** Who holds a lock: written into the lock when it is taken. */
export interface LockHolder {
  pid: number;
  host: string;
  /** Linux's boot id: the same host name after a reboot is not the same running system. */
  bootId?: string;
  /** When the holder's process started (processStart): a pid is used again once its process is gone. */
  started?: string;
  since: string;
}

export interface HeldLock {
  /** Set once the lock was lost (taken over after this process stalled): stop moving money. */
  lost(): Error | undefined;
  release(): Promise<void>;
}

/** The lock is held by another process, named when it could be read. */
export class LockBusy extends Error {
  constructor(
    readonly lockPath: string,
    readonly holder: LockHolder | undefined,
  ) {
    super(`${lockPath} is held by ${holder ? describeHolder(holder) : 'another process'}`);
    this.name = 'LockBusy';
  }
}

export const describeHolder = (holder: LockHolder) => `pid ${holder.pid} on host ${holder.host} (since ${holder.since})`;

/** A holder on another machine keeps the lock's time fresh; one that stops doing so for this long has gone. */
const STALE_MS = 10_000;
const RETRY_EVERY_MS = 100;

/**
 * Takes the lock at `lockPath` (a directory), waiting up to `waitMs` for its holder
 * to let go, else throws LockBusy naming the holder.
 *
 * proper-lockfile makes the lock, keeps it fresh and notices when it is lost. Its
 * own takeover of a stale lock is "stat, then rmdir, then mkdir": two processes
 * that both judged the same lock stale can interleave so that the second removes
 * the lock the first has just made, and both hold it. So proper-lockfile works
 * here through a file system of payctl's (`LockDirectory`) in which
 * - a lock is born holding its holder's record (made aside, then renamed into
 *   place: rename never replaces a directory that has something in it);
 * - a stale lock is removed by unlinking the record of the holder judged stale,
 *   which only one process can do: the others fail and find the lock busy;
 * - a holder on this machine is stale exactly when its process is gone (its pid
 *   unused, or used by a process that started at another time), so a crashed
 *   run's lock is taken over at once, and a live one (even stopped with Ctrl-Z)
 *   is never taken over; a holder on another machine is judged by the lock's
 *   time, which its proper-lockfile refreshes.
 */
export async function takeLock(
  lockPath: string,
  what: string,
  waitMs: number,
  /** Called once, with the holder, when the lock is busy and is to be waited for: a person sees why nothing happens yet. */
  onWait?: (holder: LockHolder | undefined) => Promise<void> | void,
): Promise<HeldLock> {
  assertPrivate(lockPath, what, 'directory');
  const { default: lockfile } = await import('proper-lockfile');
  const directory = new LockDirectory(lockPath);
  let lostWith: Error | undefined;
  const attempt = async (forMs: number) => {
    const retries = Math.ceil(forMs / RETRY_EVERY_MS);
    try {
      return await lockfile.lock(lockPath, {
        lockfilePath: lockPath,
        realpath: false,
        stale: STALE_MS,
        retries: retries > 0 ? { retries, factor: 1, minTimeout: RETRY_EVERY_MS, maxTimeout: RETRY_EVERY_MS } : 0,
        fs: directory,
        onCompromised: (error: Error) => (lostWith = error),
      });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? '';
      if (BUSY_CODES.has(code)) throw new LockBusy(lockPath, await busyHolder(lockPath));
      throw usageError(`cannot make the ${what} ${lockPath}: ${code || (error as Error).message}: nothing was sent`);
    }
  };
  let release: () => Promise<void>;
  if (onWait && waitMs > 0) {
    try {
      release = await attempt(0);
    } catch (error) {
      if (!(error instanceof LockBusy)) throw error;
      await onWait(error.holder);
      release = await attempt(waitMs);
    }
  } else release = await attempt(waitMs);
  return {
    lost: () => lostWith,
    release: async () => {
      // A lost lock is someone else's now: proper-lockfile says ERELEASED and leaves it alone.
      await release().catch(() => undefined);
    },
  };
}

/** What a busy lock looks like on the way in: made by another (EEXIST), or taken over under us. */
const BUSY_CODES = new Set(['ELOCKED', 'EEXIST', 'ENOTEMPTY']);

const HOLDER_FILE = /^holder-([0-9a-f-]{36})\.json$/;

/** How long a busy lock with no record to read is read again: a takeover's rename lands within it. */
const HOLDER_READS = 10;
const HOLDER_READ_EVERY_MS = 20;

/**
 * The holder of a lock found busy. A lock being taken over from a stale holder
 * has no record for an instant (the old one unlinked and the folder removed, the
 * new holder's folder not yet renamed into place), and a process that lost the
 * race reads it then: it reads again for a moment, so that it can name the
 * winner. A lock left half made stays unnamed.
 */
async function busyHolder(lockPath: string): Promise<LockHolder | undefined> {
  for (let read = 1; ; read++) {
    const holder = readHolder(lockPath)?.holder;
    if (holder || read === HOLDER_READS) return holder;
    await new Promise((resolve) => setTimeout(resolve, HOLDER_READ_EVERY_MS));
  }
}

function readHolder(lockPath: string): { token: string; holder: LockHolder } | undefined {
  try {
    for (const name of fs.readdirSync(lockPath)) {
      const token = HOLDER_FILE.exec(name)?.[1];
      if (!token) continue;
      const record = JSON.parse(fs.readFileSync(path.join(lockPath, name), 'utf8')) as Partial<LockHolder>;
      if (typeof record.pid !== 'number' || typeof record.host !== 'string' || typeof record.since !== 'string') return undefined;
      return {
        token,
        holder: {
          pid: record.pid,
          host: record.host,
          bootId: typeof record.bootId === 'string' ? record.bootId : undefined,
          started: typeof record.started === 'string' ? record.started : undefined,
          since: record.since,
        },
      };
    }
  } catch {
    // Gone, or half made: no holder to name.
  }
  return undefined;
}

/** A fact of the running process or system, read when first asked for and then kept: it does not change. */
function keptOnceRead<T>(read: () => T): () => T {
  let kept: { value: T } | undefined;
  return () => (kept ??= { value: read() }).value;
}

const bootId = keptOnceRead((): string | undefined => {
  try {
    return fs.readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
});

/** This process's start, written into each lock it takes. */
const ownStart = keptOnceRead(() => processStart(process.pid));

const onThisSystem = (holder: LockHolder) => holder.host === os.hostname() && holder.bootId === bootId();

/**
 * When a process started, in clock ticks since boot (Linux: the 22nd field of /proc/PID/stat);
 * undefined where there is no /proc. With the pid it names one process: a crashed holder's pid
 * can belong to another process by the time its lock is found, which must not keep the lock.
 */
export function processStart(pid: number): string | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces and parentheses: fields are counted after the last.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

/** Whether the holder's process still runs: its pid in use, by the process that took the lock when both start times are known. */
function isRunning(holder: LockHolder): boolean {
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    // EPERM: it runs, as another user.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const started = holder.started === undefined ? undefined : processStart(holder.pid);
  return started === undefined || started === holder.started;
}

type Callback<T = void> = (error: NodeJS.ErrnoException | null, value?: T) => void;
const busy = () => Object.assign(new Error('the lock is held'), { code: 'ELOCKED' });

/** The file system proper-lockfile works through (see takeLock): its mkdir, stat, rmdir, utimes and rmdirSync. */
class LockDirectory {
  private readonly token = randomUUID();
  private held = false;
  /** The holder the last stat judged, whose record a stale removal unlinks. */
  private judged: string | undefined;

  constructor(private readonly lockPath: string) {}

  private recordPath(token: string): string {
    return path.join(this.lockPath, `holder-${token}.json`);
  }

  mkdir = (lockPath: string, callback: Callback): void => {
    const aside = `${lockPath}.${this.token}`;
    try {
      fs.mkdirSync(aside, { mode: 0o700 });
      const holder: LockHolder = {
        pid: process.pid,
        host: os.hostname(),
        bootId: bootId(),
        started: ownStart(),
        since: new Date().toISOString(),
      };
      fs.writeFileSync(path.join(aside, `holder-${this.token}.json`), `${JSON.stringify(holder)}\n`, { mode: 0o600, flag: 'wx' });
      fs.renameSync(aside, lockPath);
      this.held = true;
      callback(null);
    } catch (error) {
      fs.rmSync(aside, { recursive: true, force: true });
      const code = (error as NodeJS.ErrnoException).code;
      callback(code === 'ENOTEMPTY' || code === 'EEXIST' ? Object.assign(new Error('the lock exists'), { code: 'EEXIST' }) : (error as NodeJS.ErrnoException));
    }
  };

  /** Our own lock: its real time. Another's: fresh while its process runs, stale once it is gone (on this system), else its real time. */
  stat = (lockPath: string, callback: Callback<{ mtime: Date }>): void => {
    fs.stat(lockPath, (error, stat) => {
      if (error) return callback(error);
      const found = readHolder(lockPath);
      if (found?.token === this.token) return callback(null, stat);
      this.judged = found?.token;
      // No record: the lock was left half made or half removed by a process that died in between.
      if (!found) return callback(null, { mtime: new Date(0) });
      if (!onThisSystem(found.holder)) return callback(null, stat);
      callback(null, { mtime: isRunning(found.holder) ? new Date() : new Date(0) });
    });
  };

  rmdir = (lockPath: string, callback: Callback): void => {
    try {
      if (this.held) {
        this.releaseOwn();
      } else {
        if (this.judged) fs.unlinkSync(this.recordPath(this.judged));
        fs.rmdirSync(lockPath);
      }
      callback(null);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // The stale holder's record was gone, or the lock has a record again: another process took it over first.
      callback(code === 'ENOENT' || code === 'ENOTEMPTY' ? busy() : (error as NodeJS.ErrnoException));
    }
  };

  utimes = (file: string, atime: Date, mtime: Date, callback: Callback): void => fs.utimes(file, atime, mtime, callback);

  /** proper-lockfile's cleanup at exit. */
  rmdirSync = (): void => {
    if (this.held) this.releaseOwn();
  };

  /** Only while our record is still there: a lock taken over is the new holder's. */
  private releaseOwn(): void {
    this.held = false;
    try {
      fs.unlinkSync(this.recordPath(this.token));
    } catch {
      return;
    }
    try {
      fs.rmdirSync(this.lockPath);
    } catch {
      // Gone already, or another's by now.
    }
  }
}

/** Host names that all mean this machine: one API on it is one platform, however its URL spells it. */
const THIS_MACHINE = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * The platform account money leaves, as one text: the API's address normalised
 * (scheme and host lowercased, localhost, 127.0.0.1 and [::1] one host, default
 * ports and trailing `/` dropped) and the account (`main`, or the sub-account id).
 * Locks and the duplicate check are named after it, never after a profile's name,
 * its base URL's spelling or the config folder: two of those naming one account
 * must meet.
 */
export function platformAccount(baseUrl: string, subaccount: string | undefined): string {
  const url = new URL(baseUrl);
  const host = THIS_MACHINE.has(url.hostname) ? 'localhost' : url.hostname;
  const address = `${url.protocol}//${host}${url.port ? `:${url.port}` : ''}${url.pathname.replace(/\/+$/, '')}`;
  return `${address} ${subaccount ? subaccount.toLowerCase() : 'main'}`;
}

/**
 * The folder of locks every payctl of this user on this machine sees, whatever
 * its config folder or environment: /tmp/payctl-UID/locks (the OS temp folder
 * on Windows), made 0700 and refused when it is not the user's own. Not
 * $XDG_RUNTIME_DIR or $TMPDIR: a cron job, an ssh session and a desktop terminal
 * of one user may each have another, and then would not meet. Two users of one
 * machine cannot share it; a team shares a ledger instead.
 */
export function userLockFolder(): string {
  const uid = process.getuid?.();
  const base = uid === undefined ? path.join(os.tmpdir(), `payctl-${os.userInfo().username}`) : path.join('/tmp', `payctl-${uid}`);
  const folder = path.join(base, 'locks');
  for (const dir of [base, folder]) {
    try {
      fs.mkdirSync(dir, { mode: 0o700 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw usageError(`cannot make the lock folder ${dir}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}: nothing was sent`);
    }
    assertPrivate(dir, 'lock folder', 'directory');
  }
  return folder;
}
