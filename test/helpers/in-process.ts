import { Readable, Writable } from 'node:stream';
import { main } from '../../src/main.js';
import type { IO } from '../../src/process-io.js';
import { writesOnTheWire } from '../../src/http/writes.js';
import { resetConnections } from '../../src/http/node-fetch.js';
import { cleanEnv, RUN_DEADLINE_MS, turnOfTheEventLoop, type RunOptions, type RunResult } from './cli.js';

// proper-lockfile (signal-exit) and conf (when-exit) add their exit listeners to the process once,
// when first loaded: loaded here, they are in place before the first run, and any listener a run
// adds is that run's leak.
await Promise.all([import('proper-lockfile'), import('conf')]);

interface ActiveRun {
  /** Another run shared the process with this one for a while. */
  overlapped: boolean;
  /** Text written around the given streams, straight to the process's own (or the console). */
  strayWrites: string[];
}

/** The runs under way in this process. */
const active = new Set<ActiveRun>();

/**
 * payctl writes only to the streams it is given. Text that reaches the process's own stdout,
 * stderr or the console while a run is under way went around them (in a real run it would
 * reach the terminal unchecked): every run under way then fails, naming it.
 */
function watchStrayWrites(): void {
  const record = (where: string, chunk: unknown) => {
    for (const run of active) run.strayWrites.push(`${where}: ${String(chunk).slice(0, 200)}`);
  };
  for (const [name, stream] of [['process.stdout', process.stdout], ['process.stderr', process.stderr]] as const) {
    const write = stream.write.bind(stream) as (...args: unknown[]) => boolean;
    stream.write = ((chunk: unknown, ...rest: unknown[]) => {
      record(name, chunk);
      return write(chunk, ...rest);
    }) as typeof stream.write;
  }
  for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
    const original = console[method].bind(console);
    console[method] = (...args: unknown[]) => {
      record(`console.${method}`, args.map(String).join(' '));
      original(...args);
    };
  }
}
watchStrayWrites();

/**
 * Runs payctl's `main(argv, io, env)` in the test process: the same commands,
 * parser, config and HTTP client as the built binary, minus Node's start-up, so a
 * run costs milliseconds instead of a process. stdin is the given input, stdout
 * and stderr collect text, and none of them is a terminal. The environment is the
 * one runCli gives a child process (cleanEnv), never the test process's own.
 *
 * What needs a real process stays with runCli: the launcher and its code cache,
 * terminals, signals, processes killed or racing each other, NODE_OPTIONS shims.
 */
export async function runInProcess(args: readonly string[], options: RunOptions = {}): Promise<RunResult> {
  if (options.bin !== undefined || options.stdoutToDevNull) throw new Error('runInProcess runs the source, not a launcher or a descriptor: use runCli');
  if (options.env?.NODE_OPTIONS !== undefined) throw new Error('NODE_OPTIONS takes effect only in a new process: use runCli');
  const stdout = collector();
  const stderr = collector();
  const io: IO = {
    stdin: Readable.from(options.input === undefined ? [] : [Buffer.from(options.input, 'utf8')]),
    stdout: stdout.stream,
    stderr: stderr.stream,
    stdinIsTTY: false,
    stdoutIsTTY: false,
    stderrIsTTY: false,
  };
  const before = processState();
  const run: ActiveRun = { overlapped: active.size > 0, strayWrites: [] };
  for (const other of active) other.overlapped = true;
  active.add(run);
  const timeoutMs = options.timeoutMs ?? RUN_DEADLINE_MS;
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`payctl ${args.join(' ')} did not finish within ${timeoutMs} ms\nstdout: ${stdout.text()}\nstderr: ${stderr.text()}`)),
      timeoutMs,
    );
  });
  try {
    await turnOfTheEventLoop();
    const code = await Promise.race([main(args, io, cleanEnv(options.env)), timedOut]);
    active.delete(run);
    if (run.strayWrites.length > 0) throw new Error(`payctl ${args.join(' ')} wrote around its streams:\n${run.strayWrites.join('\n')}`);
    // Runs that overlapped share the process: what one left cannot be told from what another holds.
    if (!run.overlapped) assertNothingLeaked(args, before);
    return { code, stdout: stdout.text(), stderr: stderr.text() };
  } finally {
    active.delete(run);
    clearTimeout(timer);
    // Each process starts with no open connection; so does each run here.
    resetConnections();
  }
}

function collector(): { stream: Writable; text: () => string } {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer | string, encoding, done) {
      chunks.push(typeof chunk === 'string' ? Buffer.from(chunk, encoding) : chunk);
      done();
    },
  });
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

const WATCHED_EVENTS = ['SIGINT', 'SIGTERM', 'exit', 'uncaughtException', 'unhandledRejection'] as const;

interface ProcessState {
  exitCode: typeof process.exitCode;
  listeners: Record<string, number>;
}

function processState(): ProcessState {
  return {
    exitCode: process.exitCode,
    listeners: Object.fromEntries(WATCHED_EVENTS.map((event) => [event, process.listenerCount(event)])),
  };
}

/**
 * A run must leave the process as it found it, or the next run in it would not
 * be a fresh start: no exit code set, no listener added, no write or Ctrl-C
 * handler still registered.
 */
function assertNothingLeaked(args: readonly string[], before: ProcessState): void {
  const after = processState();
  const leaks: string[] = [];
  if (after.exitCode !== before.exitCode) leaks.push(`process.exitCode set to ${String(after.exitCode)}`);
  for (const event of WATCHED_EVENTS) {
    const added = after.listeners[event]! - before.listeners[event]!;
    if (added > 0) leaks.push(`${added} '${event}' listener(s) left on process`);
  }
  if (writesOnTheWire().length > 0) leaks.push(`writes still registered as on the wire: ${JSON.stringify(writesOnTheWire())}`);
  if (leaks.length > 0) throw new Error(`payctl ${args.join(' ')} leaked state into the process: ${leaks.join('; ')}`);
}
