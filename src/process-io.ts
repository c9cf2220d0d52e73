import { EventEmitter } from 'node:events';
import { fstatSync, statSync, writeSync } from 'node:fs';
import type { Writable } from 'node:stream';
import { loadBuiltin } from './builtin.js';
import type { IO } from './context.js';
import { ExitCode, PayctlError } from './errors.js';

const pause = new Int32Array(new SharedArrayBuffer(4));

/**
 * Stands in for process.stdout or process.stderr when they are a pipe or a file.
 * Node writes those synchronously on Linux anyway; creating the stream objects
 * loads the net and stream modules, a sixth of a short run. Writes block until the
 * reader takes them (backpressure), and a reader that has gone away (EPIPE, as
 * in `payctl customers list | head`) ends the run quietly when it is stdout.
 */
class FdWriter extends EventEmitter {
  constructor(private readonly fd: number) {
    super();
  }

  write(chunk: string | Uint8Array): boolean {
    let data = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    while (data.length > 0) {
      try {
        data = data.subarray(writeSync(this.fd, data));
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        // A descriptor left non-blocking by the parent: wait for the reader.
        if (code === 'EAGAIN') Atomics.wait(pause, 0, 0, 2);
        else if (code === 'EPIPE') return this.readerGone();
        else
          throw new PayctlError(`cannot write to ${this.fd === 1 ? 'stdout' : 'stderr'}: ${(error as Error).message}`, ExitCode.apiRefused, {
            hint: 'check the file or disk the output goes to',
          });
      }
    }
    return true;
  }

  private readerGone(): boolean {
    if (this.fd === 1) process.exit(process.exitCode ?? 0);
    return true;
  }
}

/**
 * Whether a descriptor is a terminal. Pipes, files and /dev/null (what scripts
 * give) are told apart by fstat, without loading node:tty, which loads node:net
 * and the streams stack: a fifth of a short run.
 */
function isTerminal(fd: number): boolean {
  try {
    const stat = fstatSync(fd);
    if (!stat.isCharacterDevice()) return false;
    // /dev/null is a character device too, and where scripts often send output.
    if (stat.rdev === devNullDevice()) return false;
  } catch {
    return false;
  }
  return loadBuiltin<typeof import('node:tty')>('node:tty').isatty(fd);
}

let devNull: number | undefined;
function devNullDevice(): number {
  try {
    devNull ??= statSync('/dev/null').rdev;
  } catch {
    devNull = -1;
  }
  return devNull;
}

export function processIO(): IO {
  const [stdoutIsTTY, stderrIsTTY] = [isTerminal(1), isTerminal(2)];
  let stdinIsTTY: boolean | undefined;
  return {
    // process.stdin, and whether it is a terminal, are found out on first use:
    // most commands never read it.
    get stdin() {
      return process.stdin;
    },
    get stdinIsTTY() {
      return (stdinIsTTY ??= isTerminal(0));
    },
    // Terminals get Node's streams (prompts and tables need them); pipes and files a plain writer.
    stdout: stdoutIsTTY ? process.stdout : (new FdWriter(1) as unknown as Writable),
    stderr: stderrIsTTY ? process.stderr : (new FdWriter(2) as unknown as Writable),
    stdoutIsTTY,
    stderrIsTTY,
  };
}
