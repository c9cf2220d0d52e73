import fs from 'node:fs';
import { usageError } from '../errors.js';

/**
 * Refuses a file payctl trusts with money (a batch journal, a lock) when it is a
 * symbolic link, belongs to another user, or others may write it: whoever can write
 * a journal can mark rows paid, and so make payctl skip them or pay them again.
 * A file that does not exist yet is fine (payctl makes it, private to its user).
 */
export function assertPrivate(file: string, what: string, kind: 'file' | 'directory'): void {
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw usageError(`${what} ${file} cannot be read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  const aWhat = `${/^[aeiou]/.test(what) ? 'an' : 'a'} ${what}`;
  const refuse = (problem: string, hint: string) => usageError(`${what} ${file} ${problem}: nothing was sent`, hint);
  if (stat.isSymbolicLink()) throw refuse(`is a symbolic link; payctl only trusts a ${kind} of its own`, `give the real path of the ${what}`);
  if (kind === 'file' ? !stat.isFile() : !stat.isDirectory()) throw refuse(`is not a ${kind}`, `give the path of the ${what}`);
  const uid = process.getuid?.();
  if (uid !== undefined && stat.uid !== uid) {
    throw refuse(
      `belongs to user ${stat.uid}, not to you (user ${uid}); payctl only trusts ${aWhat} you own`,
      `check who wrote it; if it is yours: chown ${uid} ${file}`,
    );
  }
  if ((stat.mode & 0o022) !== 0) {
    const who = [(stat.mode & 0o020) !== 0 ? 'group' : '', (stat.mode & 0o002) !== 0 ? 'others' : ''].filter(Boolean).join(' and ');
    throw refuse(
      `can be written by ${who} (mode ${(stat.mode & 0o777).toString(8).padStart(4, '0')}); payctl only trusts ${aWhat} that only you can write`,
      `check that nobody changed it, then: chmod go-w ${file}`,
    );
  }
}

/** A new or renamed file survives a crash only once its folder's entry is on disk too. */
export function syncFolder(folder: string): void {
  let fd: number | undefined;
  try {
    fd = fs.openSync(folder, 'r');
    fs.fsyncSync(fd);
  } catch {
    // Some file systems cannot sync a folder; the file's own fsync still holds its records.
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/**
 * fsync of `fd` off the event loop, shared by the rows sent at once: a call made
 * while one runs waits for the next, which covers every write made before it for
 * all who asked meanwhile. Resolves once what was written before the call is on disk.
 */
export function sharedFsync(fd: number): () => Promise<void> {
  let running: Promise<void> | undefined;
  let next: Promise<void> | undefined;
  const start = (): Promise<void> =>
    (running = new Promise<void>((resolve, reject) => fs.fsync(fd, (error) => (error ? reject(error) : resolve()))).finally(() => (running = undefined)));
  return () => {
    if (!running) return start();
    next ??= running.catch(() => {}).then(() => {
      next = undefined;
      return start();
    });
    return next;
  };
}
