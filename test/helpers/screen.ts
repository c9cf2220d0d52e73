import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { BIN, cleanEnv, RUN_DEADLINE_MS } from './cli.js';

const run = promisify(execFile);

export interface ScreenStep {
  /** Text (or pattern) the screen must show before these keys are pressed. */
  after: RegExp | string;
  /** tmux key names, e.g. ['n', 'Enter'] or ['Down', 'Enter']. */
  keys: readonly string[];
}

export interface ScreenOptions {
  env?: Record<string, string | undefined>;
  steps?: readonly ScreenStep[];
  width?: number;
  height?: number;
  timeoutMs?: number;
  /**
   * Texts to find on the final screen, each on its row (0 is the top): `located` then says in
   * which column each starts, as the terminal itself places it (tmux's copy-mode cursor after a
   * search), so no width table of ours takes part. Given the screen, as `screen` will be.
   */
  locate?: (screen: string) => ReadonlyArray<{ row: number; text: string }>;
}

export interface ScreenRun {
  /** The exit code, or 128 + the number of the signal that ended payctl. */
  code: number;
  /** What a person sees once payctl has ended: the terminal's rendered screen, one string per row, trailing blanks trimmed. */
  screen: string;
  /** Every byte payctl wrote to the terminal (stdout and stderr), as the terminal received them. */
  bytes: string;
  /** The screen at the moment each step's text appeared, before its keys were pressed. */
  seen: string[];
  /** For each text `locate` named, the column (0 is the first) where it starts on its row; -1 when it is not on that row. */
  located: number[];
}

const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * What the shell writes once payctl has exited, after its last byte: a window title, invisible on
 * the screen. tmux hands the pane's output to the log's reader later, and later still on a busy
 * machine; the log is whole once this has reached it.
 */
const DONE = '\u001b]2;payctl-screen-done\u0007';
/** The tmux channel the pane's shell waits on until the recording of its output has begun. */
const GATE = 'payctl-recording';

async function wholeLog(file: string): Promise<string> {
  const giveUpAt = Date.now() + 10_000;
  for (;;) {
    const bytes = existsSync(file) ? readFileSync(file, 'utf8') : '';
    if (bytes.includes(DONE) || Date.now() > giveUpAt) return bytes.replace(DONE, '');
    await pause(50);
  }
}

/**
 * Runs the built payctl in a terminal emulator (tmux, on a server of its own), stdin,
 * stdout and stderr all on it, pressing each step's keys once its text is on the
 * screen. Unlike a byte log, the result's `screen` is the screen after the terminal
 * acted on every escape sequence: what a cursor move or a line erase did shows there.
 * payctl starts only once tmux records its output, so `bytes` holds all of it.
 */
export async function runCliOnScreen(args: readonly string[], options: ScreenOptions = {}): Promise<ScreenRun> {
  const dir = mkdtempSync(path.join(tmpdir(), 'payctl-screen-'));
  const socket = path.join(dir, 'tmux.sock');
  const log = path.join(dir, 'bytes');
  const exitFile = path.join(dir, 'exit-code');
  const env = Object.entries(cleanEnv(options.env)).map(([key, value]) => quote(`${key}=${value}`));
  writeFileSync(
    path.join(dir, 'run.sh'),
    // The shell records the exit code (128 + the signal's number when one ended payctl, 130 for Ctrl-C).
    [
      // Held until tmux records the pane's output: a wait in tmux itself (a loop of `sleep` started a
      // process every 20 ms, and each process costs this machine more than the command it runs).
      `tmux -S ${quote(socket)} wait-for ${GATE}`,
      `env -i TERM="$TERM" ${env.join(' ')} ${[process.execPath, BIN, ...args].map(quote).join(' ')}`,
      `echo $? > ${quote(exitFile)}`,
      `printf '\\033]2;payctl-screen-done\\007'`,
      // The pane stays as payctl left it until it is read (kill-server ends this): once its shell
      // ended, tmux would write "Pane is dead" under the last line, scrolling a full screen.
      'exec sleep 600',
      '',
    ].join('\n'),
  );
  const tmux = (...tmuxArgs: string[]) => run('tmux', ['-S', socket, '-f', '/dev/null', ...tmuxArgs], { env: cleanEnv() });
  const target = ['-t', 'payctl'];
  try {
    // One tmux client for the session, its options, the recording and the gate's opening.
    const size = ['-x', String(options.width ?? 100), '-y', String(options.height ?? 40)];
    await tmux(
      ...['new-session', '-d', '-s', 'payctl', ...size, `sh ${quote(path.join(dir, 'run.sh'))}`, ';'],
      ...['set-option', ...target, 'remain-on-exit', 'on', ';', 'pipe-pane', '-o', ...target, `cat > ${quote(log)}`, ';', 'wait-for', '-S', GATE],
    );
    const capture = async () => (await tmux('capture-pane', '-p', ...target)).stdout.split('\n').map((line) => line.trimEnd()).join('\n').trimEnd();
    const pending = [...(options.steps ?? [])];
    const seen: string[] = [];
    const deadline = Date.now() + (options.timeoutMs ?? RUN_DEADLINE_MS);
    // The log's size when the screen was last read. tmux draws what payctl writes before it passes it to
    // the log, so a screen that can show something new has a longer log: read again only then (or after keys).
    let readAt = -1;
    for (;;) {
      const exitCode = existsSync(exitFile) ? readFileSync(exitFile, 'utf8').trim() : '';
      if (exitCode !== '') {
        const bytes = await wholeLog(log);
        const finalScreen = await capture();
        const located: number[] = [];
        for (const { row, text } of options.locate?.(finalScreen) ?? []) {
          // From the end of its row backwards: the last place on that row where the text starts. One tmux call, its commands apart by `;`.
          const down = row > 0 ? ['send-keys', ...target, '-N', String(row), '-X', 'cursor-down', ';'] : [];
          const found = await tmux(
            ...['copy-mode', ...target, ';', 'send-keys', ...target, '-X', 'history-top', ';', ...down],
            ...['send-keys', ...target, '-X', 'end-of-line', ';', 'send-keys', ...target, '-X', 'search-backward-text', text, ';'],
            ...['display-message', '-p', ...target, '#{copy_cursor_x} #{copy_cursor_y}', ';', 'send-keys', ...target, '-X', 'cancel'],
          );
          const [x, y] = found.stdout.trim().split(' ').map(Number);
          located.push(y === row ? x! : -1);
        }
        return { code: Number(exitCode), screen: finalScreen, bytes, seen, located };
      }
      const step = pending[0];
      const logSize = existsSync(log) ? statSync(log).size : 0;
      if (step && logSize !== readAt) {
        readAt = logSize;
        const screen = await capture();
        if (typeof step.after === 'string' ? screen.includes(step.after) : step.after.test(screen)) {
          pending.shift();
          seen.push(screen);
          await tmux('send-keys', ...target, ...step.keys);
          // The next step may already be on this screen.
          readAt = -1;
        }
      }
      if (Date.now() > deadline) {
        throw new Error(
          `payctl ${args.join(' ')} (tmux) did not finish in time` +
            (step ? `; waiting for ${JSON.stringify(String(step.after))}` : '') +
            `\n--- screen ---\n${await capture()}`,
        );
      }
      await pause(50);
    }
  } finally {
    await tmux('kill-server').catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }
}

