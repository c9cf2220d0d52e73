import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';
import { loadBuiltin } from '../builtin.js';

export interface PagerChoice {
  /** Whether stdout is a terminal. */
  terminal: boolean;
  /** `--no-pager` makes this false. */
  pagerFlag: boolean | undefined;
  /** `--no-input` makes this false. */
  inputFlag: boolean | undefined;
}

/**
 * The pager long tables at a terminal go through: `PAYCTL_PAGER`, then `PAGER`,
 * else `less -FRX`; none (undefined) when stdout is not a terminal, with
 * `--no-pager`, when nothing may wait for keys (`--no-input`, `PAYCTL_NO_INPUT=1`,
 * `CI=true`), at a dumb terminal, or when the pager is set to `` or `cat`.
 */
export function choosePager(env: NodeJS.ProcessEnv, { terminal, pagerFlag, inputFlag }: PagerChoice): string | undefined {
  if (!terminal || pagerFlag === false || inputFlag === false) return undefined;
  if (env.PAYCTL_NO_INPUT === '1' || env.CI === 'true' || env.TERM === 'dumb') return undefined;
  const command = (env.PAYCTL_PAGER ?? env.PAGER ?? 'less -FRX').trim();
  return command === '' || command === 'cat' ? undefined : command;
}

/** The program a pager command runs: its first word after any `NAME=value` settings, unquoted. */
function programOf(command: string): string | undefined {
  const words = command.match(/"[^"]*"|'[^']*'|\S+/g) ?? [];
  const program = words.find((word) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(word));
  return program?.replace(/^(["'])(.*)\1$/, '$2');
}

function isExecutable(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Whether a program can be run: a path to an executable file, or a name found on PATH (with PATHEXT on Windows). */
function canRun(program: string, env: NodeJS.ProcessEnv): boolean {
  const windows = process.platform === 'win32';
  const extensions = windows ? ['', ...(env.PATHEXT ?? '.COM;.EXE;.BAT;.CMD').split(';')] : [''];
  const candidates = program.includes('/') || (windows && program.includes('\\'))
    ? [program]
    : (env.PATH ?? '').split(path.delimiter).filter(Boolean).map((dir) => path.join(dir, program));
  return candidates.some((candidate) => extensions.some((extension) => isExecutable(candidate + extension)));
}

/**
 * Writes `text` through the pager, its output on payctl's own stdout, and waits
 * for it to exit (the user may read for a while). Returns false, having written
 * nothing, when the pager's program cannot be found or started: the caller then
 * writes the text itself, with no error. While the pager runs, Ctrl-C is the
 * pager's (less uses it to stop a search), as git does.
 */
export async function writeThroughPager(command: string, text: string, env: NodeJS.ProcessEnv, holdCtrlC: () => () => void): Promise<boolean> {
  const program = programOf(command);
  if (program === undefined || !canRun(program, env)) return false;
  const { spawn } = loadBuiltin<typeof import('node:child_process')>('node:child_process');
  const release = holdCtrlC();
  try {
    // A shell runs it, as git runs its pager: PAGER may hold arguments and quotes. LESS as git sets it, when unset.
    const child = spawn(command, { shell: true, stdio: ['pipe', 'inherit', 'inherit'], env: { ...env, LESS: env.LESS ?? 'FRX', LV: env.LV ?? '-c' } });
    const ran = new Promise<boolean>((resolve) => {
      child.once('error', () => resolve(false));
      child.once('close', () => resolve(true));
    });
    // A pager quit before reading everything (q in less) closes its end: what is left is not wanted.
    child.stdin.on('error', () => undefined);
    child.stdin.end(text);
    return await ran;
  } finally {
    release();
  }
}
