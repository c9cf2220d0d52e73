import { closeSync, openSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { loadBuiltin } from '../builtin.js';

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

export function outTarget(file: string): OutTarget {
  // Followed by stat, not realpath: /dev/stdout into a pipe is /proc/self/fd/1, a link to no path.
  const stats = statSync(file, { throwIfNoEntry: false });
  if (stats && !stats.isFile()) return { path: file, inPlace: true, terminal: stats.isCharacterDevice() && isTerminal(file) };
  return { path: stats ? realpathSync(file) : path.resolve(file), inPlace: false, terminal: false };
}

/** Opened for writing and closed at once, nothing written: only a terminal answers isatty. */
function isTerminal(device: string): boolean {
  try {
    const fd = openSync(device, 'w');
    try {
      // node:tty loaded only here: a run that writes no workbook to a device never loads it.
      return loadBuiltin<typeof import('node:tty')>('node:tty').isatty(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    return false;
  }
}
