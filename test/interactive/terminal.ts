import { spawn } from 'node:child_process';
import { BIN, cleanEnv, type RunResult } from '../helpers/cli.js';

/** How inquirer draws a question's message (bold): matching it whole tells one prompt from another. */
export const bold = (text: string) => `\u001b[1m${text}\u001b[22m`;

export const KEY = { down: '\u001b[B', up: '\u001b[A', enter: '\r' } as const;

/** `n` presses of an arrow key, then Enter: picks the item that many places from the first. */
export const pick = (arrow: string, times: number) => arrow.repeat(times) + KEY.enter;

export interface Step {
  /** Text (or pattern) the screen must show, after the previous step's keys were typed, before these are. */
  after: RegExp | string;
  send: string;
}

export interface TypistOptions {
  env?: Record<string, string | undefined>;
  steps: readonly Step[];
  timeoutMs?: number;
}

export interface TerminalRun extends RunResult {
  /** How many steps were typed: all of them unless payctl ended early. */
  stepsTyped: number;
}

/**
 * Runs the built payctl on a pseudo-terminal (util-linux `script`), stdin, stdout and
 * stderr all on it, typing each step's keys once its text is on the screen.
 *
 * Unlike a match on the whole screen so far, each step looks only at what was drawn
 * after the previous step's keys were sent, so a prompt that is redrawn (an answered
 * question, a label that also appears in a summary) cannot trigger the next step early,
 * and every step waits for its own prompt however slow the machine is. A run that
 * stalls fails naming the step it was waiting for, with the screen so far.
 * The result's `stdout` is the whole screen with CRLF turned into LF; `stderr` is empty.
 */
export function typeAtTerminal(args: readonly string[], options: TypistOptions): Promise<TerminalRun> {
  const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;
  const command = `exec ${[process.execPath, BIN, ...args].map(quote).join(' ')}`;
  const timeoutMs = options.timeoutMs ?? 50_000;
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qfec', command, '/dev/null'], {
      env: cleanEnv({ TERM: 'xterm-256color', ...options.env }),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let screen = '';
    let from = 0; // where the current step starts looking
    let next = 0;
    const advance = () => {
      const step = options.steps[next];
      if (!step) return;
      const seen = screen.slice(from);
      const found = typeof step.after === 'string' ? seen.includes(step.after) : step.after.test(seen);
      if (!found) return;
      next++;
      from = screen.length;
      child.stdin.write(step.send);
    };
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      screen += chunk;
      advance();
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      const waiting = options.steps[next];
      reject(
        new Error(
          `payctl ${args.join(' ')} (terminal) did not finish within ${timeoutMs} ms; ` +
            (waiting ? `step ${next + 1} of ${options.steps.length} was waiting for ${JSON.stringify(String(waiting.after))}` : 'every step was typed') +
            `\n--- screen ---\n${screen.replace(/\r\n/g, '\n')}`,
        ),
      );
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      const text = screen.replace(/\r\n/g, '\n');
      const missed = options.steps[next];
      // A command that ended before a prompt we meant to answer says so at the end of the screen.
      const note = missed ? `\n[payctl exited before step ${next + 1} of ${options.steps.length}: ${JSON.stringify(String(missed.after))}]` : '';
      resolve({ code: code ?? -1, stdout: text + note, stderr: '', stepsTyped: next });
    });
    child.stdin.on('error', () => undefined);
  });
}
