import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** The built payctl; PAYCTL_TEST_BIN points the tests at another build (a copy that a concurrent `npm run build` cannot remove mid-run). */
export const BIN = process.env.PAYCTL_TEST_BIN ?? path.join(ROOT, 'bin/payctl.js');

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  /** Extra environment; the run starts from a clean one (no PAYCTL_*, no CI, no colour settings). */
  env?: Record<string, string | undefined>;
  /** Written to stdin, which is then closed. */
  input?: string;
  timeoutMs?: number;
  /** Another launcher than BIN, e.g. of a changed copy of the package. */
  bin?: string;
  /** Send stdout to /dev/null instead of a pipe (`stdout` of the result is then empty). */
  stdoutToDevNull?: boolean;
}

/**
 * How long a run may take before it is taken for hung and killed, unless a test says otherwise. It
 * is a deadline, not a measure: on the 2-core machine with two suites at once a batch of a few
 * hundred rows took over 20 s, and a slow run must make a test slower, never make it fail.
 */
export const RUN_DEADLINE_MS = 120_000;

/**
 * A run that is refused before any I/O resolves in microtasks alone, so a loop of such runs never
 * lets the event loop turn: on a busy machine the worker then answers no message of vitest's for
 * over 60 s, and vitest fails the run ("Timeout calling onTaskUpdate"). Each run starts with a turn.
 */
export const turnOfTheEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A fresh, empty config folder for one test. */
export function tempConfigDir(): string {
  return mkdtempSync(path.join(tmpdir(), 'payctl-test-'));
}

/**
 * The audit log's folder (XDG_STATE_HOME) of this test file's runs, unless a test names its own.
 * Without it every run of every worker would append to one log under HOME, behind one lock, and
 * rotate it: slow, and one test's writes would be another's.
 */
const STATE_HOME = mkdtempSync(path.join(tmpdir(), 'payctl-state-'));
process.once('exit', () => rmSync(STATE_HOME, { recursive: true, force: true }));

/** The environment payctl sees in tests: nothing from the developer's or CI's shell leaks in. */
export function cleanEnv(extra: Record<string, string | undefined> = {}): Record<string, string> {
  const env: Record<string, string | undefined> = { PATH: process.env.PATH, HOME: tmpdir(), LANG: 'C.UTF-8', XDG_STATE_HOME: STATE_HOME, ...extra };
  return Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined));
}

/** Runs the built bin/payctl.js as a child process with pipes for stdin, stdout and stderr. */
export function runCli(args: readonly string[], options: RunOptions = {}): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const devNull = options.stdoutToDevNull ? openSync('/dev/null', 'w') : undefined;
    const child = spawn(process.execPath, [options.bin ?? BIN, ...args], { env: cleanEnv(options.env), stdio: ['pipe', devNull ?? 'pipe', 'pipe'] });
    if (devNull !== undefined) closeSync(devNull);
    let stdout = '';
    let stderr = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`payctl ${args.join(' ')} did not finish within ${options.timeoutMs ?? RUN_DEADLINE_MS} ms\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, options.timeoutMs ?? RUN_DEADLINE_MS);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? (signal === 'SIGINT' ? 130 : -1), stdout, stderr });
    });
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(options.input ?? '');
  });
}

export interface TerminalOptions extends RunOptions {
  /** Keep stderr on the terminal too (prompts are drawn there); `stderr` of the result is then empty. */
  stderrOnTerminal?: boolean;
  /** Keys to type, each once the screen so far matches `after`. */
  steps?: ReadonlyArray<{ after: RegExp | string; send: string }>;
}

/**
 * Runs payctl with stdin and stdout on a pseudo-terminal (util-linux `script`),
 * stderr kept apart in a file unless asked otherwise. Terminal output uses CRLF
 * line ends; they are turned back into LF. `script` exits with the command's exit code (-e).
 */
export function runCliInTerminal(args: readonly string[], options: TerminalOptions = {}): Promise<RunResult> {
  const stderrPath = path.join(mkdtempSync(path.join(tmpdir(), 'payctl-tty-')), 'stderr');
  const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;
  const command = `exec ${[process.execPath, BIN, ...args].map(quote).join(' ')}${options.stderrOnTerminal ? '' : ` 2>${quote(stderrPath)}`}`;
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qfec', command, '/dev/null'], {
      env: cleanEnv({ TERM: 'xterm-256color', ...options.env }),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    const pending = [...(options.steps ?? [])];
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      const next = pending[0];
      if (next && (typeof next.after === 'string' ? stdout.includes(next.after) : next.after.test(stdout))) {
        pending.shift();
        child.stdin.write(next.send);
      }
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`payctl ${args.join(' ')} (terminal) did not finish in time\n${stdout}`));
    }, options.timeoutMs ?? RUN_DEADLINE_MS);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      const stderr = existsSync(stderrPath) ? readFileSync(stderrPath, 'utf8') : '';
      resolve({ code: code ?? -1, stdout: stdout.replace(/\r\n/g, '\n'), stderr });
    });
    child.stdin.on('error', () => undefined);
    if (options.input !== undefined) child.stdin.write(options.input);
  });
}

/** payctl running as a child process, for a test to signal it: `done` once it has exited. */
export interface RunningCli {
  child: ChildProcessWithoutNullStreams;
  done: Promise<RunResult & { signal: NodeJS.Signals | null }>;
  /** Resolves once stdout or stderr shows `text` (failing after RUN_DEADLINE_MS). */
  waitFor(text: RegExp): Promise<void>;
  /** What it has written so far. */
  output(): { stdout: string; stderr: string };
}

/** Starts the built payctl with stdin closed, to signal it while it runs. */
export function startCli(args: readonly string[], env: Record<string, string>): RunningCli {
  const child = spawn(process.execPath, [BIN, ...args], { env: cleanEnv(env), stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  child.stdin.end();
  const done = new Promise<RunResult & { signal: NodeJS.Signals | null }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code: code ?? -1, signal, stdout, stderr })),
  );
  const waitFor = async (text: RegExp) => {
    for (let waited = 0; !text.test(stderr) && !text.test(stdout); waited += 20) {
      if (waited > RUN_DEADLINE_MS) throw new Error(`never printed ${text}: ${stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  return { child, done, waitFor, output: () => ({ stdout, stderr }) };
}
