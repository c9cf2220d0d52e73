import { closeSync, lstatSync, openSync, readlinkSync, statSync, type Stats } from 'node:fs';
import path from 'node:path';
import { isTerminal } from '../process-io.js';

/**
 * Where `--out FILE` writes: a regular file (or none yet) is replaced whole, through
 * a file beside it renamed into place; through a symbolic link, the file it names,
 * so the link stays. A device, pipe or socket (`/dev/stdout`, `/dev/null`, a FIFO) is
 * written in place, as `> FILE` would: a rename would put a file where it was.
 */
export interface OutTarget {
  path: string;
  inPlace: boolean;
  /** Whether it is a terminal (`/dev/tty`, or `/dev/stdout` at one), which cannot show a workbook. */
  terminal: boolean;
}

/** `--out` names, or reaches through, a symbolic link or a named pipe another user planted in a folder anyone may write to. */
export class PlantedByAnother extends Error {}

export function outTarget(file: string): OutTarget {
  // Followed by stat, not by its resolved path: /dev/stdout into a pipe is /proc/self/fd/1, a link to no path.
  const stats = statSync(file, { throwIfNoEntry: false });
  const resolved = linksFollowed(file);
  if (stats?.isFIFO()) checkOwned(resolved, stats.uid, 'a named pipe');
  if (stats && !stats.isFile()) return { path: file, inPlace: true, terminal: stats.isCharacterDevice() && isTerminalDevice(file) };
  return { path: stats ? resolved : path.resolve(file), inPlace: false, terminal: false };
}

/** Links followed at most, as Linux's path lookup (ELOOP past it). */
const MAX_LINKS = 40;

/**
 * `file` as an absolute path without symbolic links (realpath's), each link on the way checked as
 * Linux's fs.protected_symlinks checks it: realpath reads links without the kernel's check, and the
 * rename that replaces the file it finds would not follow one. So a link another user left in /tmp
 * (`report.xlsx` → the user's ~/.bashrc) never has payctl replace the file it names.
 */
function linksFollowed(file: string): string {
  const absolute = path.resolve(file);
  const { root } = path.parse(absolute);
  let resolved = root;
  const pending = absolute.slice(root.length).split(path.sep).filter(Boolean);
  let links = 0;
  for (let part = pending.shift(); part !== undefined; part = pending.shift()) {
    const next = path.join(resolved, part);
    const stats = lstatOrNone(next);
    if (!stats?.isSymbolicLink()) {
      resolved = next;
      continue;
    }
    if (++links > MAX_LINKS) return absolute; // a loop: the write fails on it, as `> FILE` would
    checkOwned(next, stats.uid, 'a symbolic link');
    const target = readlinkSync(next);
    if (path.isAbsolute(target)) resolved = path.parse(target).root;
    pending.unshift(...target.slice(path.isAbsolute(target) ? path.parse(target).root.length : 0).split(path.sep).filter(Boolean));
  }
  return resolved;
}

/** A path's own stats; none where it cannot be read (a folder not searchable, a file on the way): the write then fails on it. */
function lstatOrNone(file: string): Stats | undefined {
  try {
    return lstatSync(file, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

/**
 * The kernel's rule for links (fs/namei.c, may_follow_link) and, as fs.protected_fifos has it, for named
 * pipes: one in a sticky folder anyone may write to (/tmp) is used only when this user or the folder's owner
 * made it; another user's pipe there would read the workbook. Applied where the kernel does not
 * (fs.protected_symlinks=0, macOS); where users have no ids (Windows) there is no such folder.
 */
function checkOwned(file: string, owner: number, what: string): void {
  const uid = process.getuid?.();
  if (uid === undefined || owner === uid) return;
  const folder = statSync(path.dirname(file));
  const STICKY = 0o1000;
  const WORLD_WRITABLE = 0o002;
  if ((folder.mode & STICKY) === 0 || (folder.mode & WORLD_WRITABLE) === 0 || folder.uid === owner) return;
  throw new PlantedByAnother(`${file} is ${what} another user made in ${path.dirname(file)}, a folder anyone may write to: payctl does not write through it`);
}

/** Whether a device is a terminal: opened for writing and closed at once, nothing written. */
function isTerminalDevice(device: string): boolean {
  try {
    const fd = openSync(device, 'w');
    try {
      return isTerminal(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    return false;
  }
}
