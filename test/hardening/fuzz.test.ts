import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, turnOfTheEventLoop } from '../helpers/cli.js';
import { sendJson, startFakeApi, type FakeApi } from '../helpers/fake-api.js';
import { loadCommandTree } from '../../src/commands/top-level.js';
import { main } from '../../src/main.js';
import { optionsOf } from '../../src/commands/spec.js';
import { GLOBAL_OPTIONS } from '../../src/flags.js';
import { everyCommand, type PlacedCommand, type OptionSpec } from '../../src/commands/spec.js';
import type { IO } from '../../src/process-io.js';
import { STACK_LINE, inPool, liveToken } from './commands.js';
import { tally, trackFailures } from './tally.js';

/**
 * Random and boundary argv through the real parser and commands. Every case
 * that would reach the API carries one "poison" (an unknown flag, an extra
 * argument, a bad choice, a bad global value) that must stop it before
 * anything is sent; the rest of its argv is random. The API behind it answers
 * every request with an error, so a case that wrongly proceeds ends in exit 1,
 * 4 or 5 and fails. Each case must end in exit 0 or 2, with no stack trace, no
 * uncaught exception, and nothing sent.
 */

const SEED = Number(process.env.PAYCTL_FUZZ_SEED ?? 20_251_122);
const IN_PROCESS_CASES = Number(process.env.PAYCTL_FUZZ_CASES ?? 3040);
// A process each: what they add to the in-process cases is the built binary's launcher and code cache, and its own reading of argv (--debug, exports, help).
const BINARY_CASES = 20;

/** mulberry32: small, seeded, good enough to pick argv. */
function random(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  return { next, int, pick: <T>(items: readonly T[]): T => items[int(items.length)]! };
}
type Random = ReturnType<typeof random>;

const HUGE = 'x'.repeat(100_000);
const VALUES = [
  '', ' ', '0', '-1', '1', '100', '1.5', '-0', '1e3', '1e309', 'NaN', 'Infinity', '99999999999999999999999', '0x10', '١٢٣',
  '12,34', 'R$ 12', '12.34', 'ç', 'Ação', '😀', '\u202eevil', 'a\nb', '\t', HUGE, '-', '--', '--yes', '-y', '../../etc/passwd',
  '%00', "'; DROP TABLE customers; --", '$(id)', '`id`', 'null', 'true', '{"__proto__":{"polluted":1}}', '__proto__', 'constructor',
  '3f2b8c1e-0d4a-4b6e-9a7c-2e5d1f0a9b3c', '3F2B8C1E-0D4A-4B6E-9A7C-2E5D1F0A9B3C', 'not-a-uuid', '2024-02-30', '2030-01-01',
  'EMAIL', 'email', 'PIX', 'COMPLETED', 'json', 'table', 'xml', '529.982.247-25', '11111111111', 'ana@example.com', '+55 11 91234-5678',
  '@-', '@/nonexistent/file.json', 'default', 'prod', 'GET', 'DELETE', '/customers', 'k=v', '=', 'a'.repeat(300),
];
const UNKNOWN_FLAGS = ['--no-such-flag', '--amount-cents', '-z', '--DEBUG', '--yes=please', '---', '--json=false'];

/** Commands that never call the API: valid argv for them is allowed to run. */
const LOCAL_ONLY = new Set([
  'profiles list',
  'profiles show',
  'profiles add',
  'profiles use',
  'profiles remove',
  'subaccounts clear',
  'auth status',
  'auth logout',
  'completion',
]);
/** Commands that do not resolve profile settings, so only parser-level poisons apply. */
const NO_SETTINGS = new Set(['sandbox start']);

const takesValue = (option: OptionSpec) => /[<[]/.test(option.flags);
const longName = (option: OptionSpec) => option.flags.split(/[ ,]+/).find((part) => part.startsWith('--'))!;
const shortName = (option: OptionSpec) => option.flags.split(/[ ,]+/).find((part) => /^-[a-zA-Z]$/.test(part));

function poisonFor(leaf: PlacedCommand, r: Random): string[] {
  const parserPoisons: Array<() => string[]> = [
    () => [r.pick(UNKNOWN_FLAGS)],
    () => ['--output', r.pick(['xml', 'yaml', '', 'JSON', 'table,json'])],
    () => [`--output=${r.pick(['xml', 'html'])}`],
    () => [...(leaf.spec.args ?? []).map(() => 'arg'), 'one-too-many', 'and-more'],
  ];
  const settingsPoisons: Array<() => string[]> = [
    () => ['--timeout', r.pick(['0', '-1', 'abc', '1e3', '', '3601', 'NaN'])],
    () => ['--profile', `no-such-profile-${r.int(1000)}`],
    () => ['--base-url', r.pick(['ftp://example.com', 'not a url', '', 'http://user:pass@127.0.0.1:1', 'javascript:alert(1)'])],
  ];
  const pool = NO_SETTINGS.has(leaf.path.join(' ')) ? parserPoisons : [...parserPoisons, ...settingsPoisons];
  return r.pick(pool)();
}

/** One case: the command path, its arguments and random flags, and (unless the command is local) a poison somewhere in it. */
function generate(leaf: PlacedCommand, r: Random): string[] {
  // --out writes a workbook where it names, and a local command may succeed: its values (../../etc/passwd) must not be written.
  const options = [...optionsOf(leaf.spec), ...GLOBAL_OPTIONS].filter((option) => longName(option) !== '--base-url' && longName(option) !== '--out');
  const parts: string[][] = [];
  for (const arg of leaf.spec.args ?? []) if (!arg.optional || r.next() < 0.5) parts.push([r.pick(arg.choices ?? VALUES)]);
  const flagCount = r.int(6);
  for (let i = 0; i < flagCount; i++) {
    const option = r.pick(options);
    const name = r.next() < 0.2 && shortName(option) ? shortName(option)! : longName(option);
    if (!takesValue(option)) parts.push([name]);
    else if (r.next() < 0.15) parts.push([`${name}=${r.pick(option.choices ?? VALUES)}`]);
    else parts.push([name, r.next() < 0.3 && option.choices ? r.pick(option.choices) : r.pick(VALUES)]);
    if (r.next() < 0.1) parts.push(parts[parts.length - 1]!); // the same flag again
  }
  if (!LOCAL_ONLY.has(leaf.path.join(' ')) && !LOCAL_ONLY.has(leaf.path[0]!)) {
    const poison = poisonFor(leaf, r);
    // A repeated flag's last value wins, so the poison's flag appears only once.
    const flagOf = (part: string[]) => part[0]!.split('=')[0]!;
    const rest = parts.filter((part) => flagOf(part) !== flagOf(poison) || !poison[0]!.startsWith('--'));
    parts.splice(0, parts.length, ...rest);
    parts.splice(r.int(parts.length + 1), 0, poison);
  }
  // Shuffle the pieces (keeping each flag with its value): order must not matter to safety.
  for (let i = parts.length - 1; i > 0; i--) {
    const j = r.int(i + 1);
    [parts[i], parts[j]] = [parts[j]!, parts[i]!];
  }
  return [...leaf.path, ...parts.flat()];
}

function collect(): { stream: PassThrough; text: () => string } {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

let api: FakeApi;
let configDir: string;
const token = liveToken();
trackFailures();

beforeAll(async () => {
  // Every request is refused: a case that reaches the API cannot end in 0 or 2.
  api = await startFakeApi((_, res) => sendJson(res, 500, { data: { message: 'the fuzz API refuses everything', returnCode: -1 } }));
  configDir = mkdtempSync(path.join(tmpdir(), 'payctl-fuzz-'));
});
afterAll(() => api?.close());

const fuzzEnv = () => ({ PAYCTL_CONFIG_DIR: configDir, PAYCTL_BASE_URL: api.url, PAYCTL_TOKEN: token, PAYCTL_NO_INPUT: '1', LANG: 'C.UTF-8' });
const show = (argv: string[]) => JSON.stringify(argv.map((arg) => (arg.length > 80 ? `${arg.slice(0, 20)}…(${arg.length} chars)` : arg)));

function judge(argv: string[], code: number, stdout: string, stderr: string, sentBefore: number): string | undefined {
  const problems: string[] = [];
  if (code !== 0 && code !== 2) problems.push(`exit ${code}`);
  if (api.requests.length !== sentBefore) problems.push(`${api.requests.length - sentBefore} request(s) sent`);
  if (STACK_LINE.test(stderr) || /this is a bug|unexpected failure/.test(stderr)) problems.push('stack trace or internal error');
  // In json modes the error is the JSON document alone on stderr.
  if (code === 2 && !/^(error: |\{"error":\{"message":"[^"])/m.test(stderr)) problems.push('exit 2 without an "error:" line');
  if (code === 2 && stdout !== '') problems.push(`exit 2 with output on stdout: ${stdout.slice(0, 100)}`);
  return problems.length ? `${show(argv)}: ${problems.join('; ')}\n  stderr: ${stderr.slice(0, 400)}` : undefined;
}

const COMMANDS = await loadCommandTree();

describe('argv fuzzing', () => {
  const all = everyCommand(COMMANDS).filter((command) => command.spec.load);

  it(`${IN_PROCESS_CASES} random argv through main() in-process (seed ${SEED}): exit 0 or 2, nothing sent, no stack trace`, async () => {
    const r = random(SEED);
    const failures: string[] = [];
    const uncaught: unknown[] = [];
    const onUncaught = (error: unknown) => uncaught.push(error);
    process.on('unhandledRejection', onUncaught);
    process.on('uncaughtException', onUncaught);
    const exits = new Map<number, number>();
    try {
      for (let i = 0; i < IN_PROCESS_CASES; i++) {
        const argv = generate(r.pick(all), r);
        const stdout = collect();
        const stderr = collect();
        const io: IO = { stdin: Readable.from([]), stdout: stdout.stream, stderr: stderr.stream, stdinIsTTY: false, stdoutIsTTY: false, stderrIsTTY: false };
        const before = api.requests.length;
        let code: number;
        try {
          await turnOfTheEventLoop();
          code = await main(argv, io, fuzzEnv());
        } catch (error) {
          failures.push(`${show(argv)}: main() threw ${(error as Error)?.stack ?? String(error)}`);
          continue;
        }
        exits.set(code, (exits.get(code) ?? 0) + 1);
        const problem = judge(argv, code, stdout.text(), stderr.text(), before);
        if (problem) failures.push(problem);
        if (failures.length >= 20) break;
      }
    } finally {
      process.off('unhandledRejection', onUncaught);
      process.off('uncaughtException', onUncaught);
    }
    expect(failures, failures.join('\n')).toEqual([]);
    expect(uncaught.map(String)).toEqual([]);
    expect(api.requests).toEqual([]);
    // Both outcomes occur: the generator reaches valid local commands as well as refusals.
    expect(exits.get(2)).toBeGreaterThan(IN_PROCESS_CASES / 2);
    expect(exits.get(0)).toBeGreaterThan(0);
    tally('fuzz', IN_PROCESS_CASES);
  });

  it(`${BINARY_CASES} random argv through the built binary: the same, as a separate process`, async () => {
    const r = random(SEED + 1);
    const cases = Array.from({ length: BINARY_CASES }, () => generate(r.pick(all), r).map((arg) => arg.replace(/\0/g, '')));
    const failures = (
      await inPool(cases, 4, async (argv) => {
        const before = api.requests.length;
        const result = await runCli(argv, { env: fuzzEnv() });
        return judge(argv, result.code, result.stdout, result.stderr, before);
      })
    ).filter(Boolean);
    expect(failures, failures.join('\n')).toEqual([]);
    expect(api.requests).toEqual([]);
    tally('fuzz', BINARY_CASES);
  });
});
