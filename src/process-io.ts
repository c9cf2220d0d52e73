import { EventEmitter } from 'node:events';
import { fstatSync, openSync, statSync, writeSync } from 'node:fs';
import type { Readable, Writable } from 'node:stream';
import { loadBuiltin } from './builtin.js';
import { ExitCode, PayctlError } from './errors.js';

/** The streams a run is given (main's second argument), with whether each is a terminal. */
export interface IO {
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
  stdinIsTTY: boolean;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  /** The terminal's size, when stdout is one and says. */
  stdoutColumns?: number;
  stdoutRows?: number;
  /**
   * The process's controlling terminal, opened for writing on first call; undefined when there is none.
   * Questions are drawn there when stderr is not a terminal: prompts never go to stdout.
   */
  terminal?: () => Writable | undefined;
}

/** How a lower layer says what the user should know: on the run's stderr, through its IOStreams. */
export interface Notices {
  /** A one-line warning. */
  warn(text: string): void;
  /** A line of --debug output; nothing without --debug. */
  debug(line: string): void;
}

const pause = new Int32Array(new SharedArrayBuffer(4));

/**
 * Stands in for process.stdout or process.stderr when they are a pipe or a file.
 * Node writes those synchronously on Linux anyway; creating the stream objects
 * loads the net and stream modules, a sixth of a short run. Writes block until the
 * reader takes them (backpressure), and a reader that has gone away (EPIPE, as
 * in `payctl customers list | head`) is told to `onReaderGone`, which ends the
 * run quietly when it is stdout; later writes are dropped.
 */
class FdWriter extends EventEmitter {
  private readerGone = false;
  /** Read by streams piped here (inquirer's output is one): without it they write nothing. */
  readonly writable = true;

  constructor(
    private readonly fd: number,
    private readonly onReaderGone?: () => void,
  ) {
    super();
  }

  write(chunk: string | Uint8Array): boolean {
    if (this.readerGone) return true;
    let data = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    while (data.length > 0) {
      try {
        data = data.subarray(writeSync(this.fd, data));
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        // A descriptor left non-blocking by the parent: wait for the reader.
        if (code === 'EAGAIN') Atomics.wait(pause, 0, 0, 2);
        else if (code === 'EPIPE') {
          this.readerGone = true;
          this.onReaderGone?.();
          return true;
        } else {
          throw new PayctlError(`cannot write to ${this.fd === 1 ? 'stdout' : 'stderr'}: ${(error as Error).message}`, ExitCode.localFailure, {
            hint: 'check the file or disk the output goes to',
          });
        }
      }
    }
    return true;
  }

  /** A stream piped here ends it when it ends (a prompt answered): the descriptor is the run's and stays open. */
  end(chunk?: string | Uint8Array): this {
    if (chunk !== undefined) this.write(chunk);
    return this;
  }
}

/** A descriptor writer where a Writable is expected: it has the members payctl and its libraries use (write, events). */
const asWritable = (writer: EventEmitter): Writable => writer as Writable;

/**
 * Whether a descriptor is a terminal. Pipes, files and /dev/null (what scripts
 * give) are told apart by fstat, without loading node:tty, which loads node:net
 * and the streams stack: a fifth of a short run.
 */
export function isTerminal(fd: number): boolean {
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

/** A size as a terminal or the environment gives it: a positive whole number, else unknown. */
function size(value: number | string | undefined): number | undefined {
  const number = typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : value;
  return typeof number === 'number' && Number.isSafeInteger(number) && number > 0 ? number : undefined;
}

/** Tables are fitted to this many columns when stdout's width is not known (a terminal that does not say, or `-o table` into a pipe). */
export const DEFAULT_TABLE_WIDTH = 80;

/**
 * The width tables are fitted to: `COLUMNS` when it is set to a number (set on
 * purpose, since shells do not export it), else the terminal's width, else 80.
 */
export function tableWidth(env: NodeJS.ProcessEnv, io: Pick<IO, 'stdoutColumns'>): number {
  return size(env.COLUMNS) ?? size(io.stdoutColumns) ?? DEFAULT_TABLE_WIDTH;
}

/** The terminal's height (`LINES`, else as the terminal says), or undefined when unknown. */
export function tableHeight(env: NodeJS.ProcessEnv, io: Pick<IO, 'stdoutRows'>): number | undefined {
  return size(env.LINES) ?? size(io.stdoutRows);
}

/** The process's streams; `onStdoutClosed` is told when the reader of stdout has gone away. */
export function processIO(onStdoutClosed?: () => void): IO {
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
    stdout: stdoutIsTTY ? process.stdout : asWritable(new FdWriter(1, onStdoutClosed)),
    stderr: stderrIsTTY ? process.stderr : asWritable(new FdWriter(2)),
    stdoutIsTTY,
    stderrIsTTY,
    stdoutColumns: stdoutIsTTY ? process.stdout.columns : undefined,
    stdoutRows: stdoutIsTTY ? process.stdout.rows : undefined,
    terminal: controllingTerminal,
  };
}

let openedTerminal: Writable | undefined;

/** The controlling terminal (/dev/tty; the console on Windows) as a terminal stream, opened once; undefined without one. */
function controllingTerminal(): Writable | undefined {
  if (openedTerminal) return openedTerminal;
  try {
    const fd = openSync(process.platform === 'win32' ? 'CONOUT$' : '/dev/tty', 'w');
    openedTerminal = new (loadBuiltin<typeof import('node:tty')>('node:tty').WriteStream)(fd);
    return openedTerminal;
  } catch {
    return undefined;
  }
}

/** Who runs payctl, as the system knows them (audit records, the team ledger's claims). */
export function userName(env: NodeJS.ProcessEnv): string {
  try {
    return loadBuiltin<typeof import('node:os')>('node:os').userInfo().username;
  } catch {
    return env.USER ?? env.USERNAME ?? 'unknown';
  }
}
