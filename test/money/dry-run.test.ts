import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempConfigDir } from '../helpers/cli.js';
import { startSandboxSession, type SandboxSession } from '../helpers/sandbox.js';
import { csvFile, fundedMainAccount, PIX_HEADER, pixRows, withdrawalCount } from './helpers.js';

/**
 * `withdraw batch --dry-run` goes through the recording transport like every
 * other command: each row a run would send is printed as the request it would
 * be, nothing is sent (counted in the sandbox), and nothing is written beside the
 * file: no journal record, no lock.
 */
let s: SandboxSession;
let bank: string;

beforeAll(async () => {
  s = await startSandboxSession('acme');
  bank = await fundedMainAccount(s);
});
afterAll(() => s?.close());

const batch = (file: string, extra: string[] = [], env: Record<string, string> = {}) =>
  s.run(['withdraw', 'batch', file, '--method', 'pix', '--main-account', ...extra], { env });
/** The files in the CSV's folder. */
const filesBeside = (file: string) => readdirSync(path.dirname(file)).sort();

interface Recorded {
  dryRun: boolean;
  method: string;
  url: string;
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

/** The body of the PIX row `prefix-i` of `pixRows`. */
const bodyOf = (prefix: string, i: number) => ({
  withdrawalMethod: 'pix',
  amount: 10_000 + i,
  bankAccountId: Number(bank),
  pixKeyType: 'EMAIL',
  pixKey: `${prefix}-${i}@example.com`,
});

describe('withdraw batch --dry-run prints the requests it would send', () => {
  it('6 rows, 2 paid by an earlier run: the other 4 as POSTs in file order (json, ndjson, text), a plan on stderr; nothing sent, the journal unchanged', async () => {
    const rows = pixRows('plan', 6, bank);
    const file = csvFile('plan.csv', [PIX_HEADER, rows[4]!, rows[1]!]);
    const first = await batch(file, ['--yes']);
    expect(first.code, first.stderr).toBe(0);
    writeFileSync(file, `${[PIX_HEADER, ...rows].join('\n')}\n`);
    const journal = readFileSync(`${file}.journal`);
    const files = filesBeside(file);
    const before = await withdrawalCount(s);

    const json = await batch(file, ['--dry-run', '-o', 'json', '--concurrency', '16']);
    expect(json.code, json.stderr).toBe(0);
    const recorded = JSON.parse(json.stdout) as Recorded[];
    expect(recorded.map((r) => `${r.method} ${r.url}`)).toEqual(Array(4).fill(`POST ${s.sandbox.url}/withdrawals/withdraw`));
    expect(recorded.map((r) => r.body)).toEqual([0, 2, 3, 5].map((i) => bodyOf('plan', i)));
    expect(recorded.every((r) => r.dryRun && r.headers.authorization === 'Bearer ***')).toBe(true);
    expect(json.stderr).toContain('\nbatch: 6 rows: 4 to send, 2 already done\n');
    expect(json.stderr).toMatch(/\ndry run: nothing was sent \(4 requests recorded\)\n$/);

    const ndjson = await batch(file, ['--dry-run', '-o', 'ndjson']);
    expect(ndjson.code, ndjson.stderr).toBe(0);
    expect(ndjson.stdout.trimEnd().split('\n').map((line) => JSON.parse(line) as Recorded)).toEqual(recorded);

    const text = await batch(file, ['--dry-run']);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout.match(/^POST .*$/gm)).toEqual(Array(4).fill(`POST ${s.sandbox.url}/withdrawals/withdraw`));
    expect(text.stdout.match(/"pixKey": ".*"/g)).toEqual([0, 2, 3, 5].map((i) => `"pixKey": "plan-${i}@example.com"`));
    expect(text.stderr).toContain('skipped:      2 rows already done');

    expect(readFileSync(`${file}.journal`)).toEqual(journal);
    expect(filesBeside(file)).toEqual(files);
    expect(await withdrawalCount(s)).toBe(before);
  });

  it('a file never run: no journal and no lock are made; one row is still a JSON array, and none an empty one once paid', async () => {
    const file = csvFile('fresh.csv', [PIX_HEADER, ...pixRows('fresh', 1, bank)]);
    const before = await withdrawalCount(s);
    const dry = await batch(file, ['--dry-run', '-o', 'json']);
    expect(dry.code, dry.stderr).toBe(0);
    expect((JSON.parse(dry.stdout) as Recorded[]).map((r) => r.body)).toEqual([bodyOf('fresh', 0)]);
    expect(filesBeside(file)).toEqual(['fresh.csv']);
    expect(await withdrawalCount(s)).toBe(before);

    expect((await batch(file, ['--yes'])).code).toBe(0);
    const done = await batch(file, ['--dry-run', '-o', 'json']);
    expect(done.code, done.stderr).toBe(0);
    expect(JSON.parse(done.stdout)).toEqual([]);
    expect(done.stderr).toContain('batch: 1 row: 0 to send, 1 already done\n');
    expect(await withdrawalCount(s)).toBe(before + 1);
  });

  it('a row refused by validation, or a total above the profile limit: exit 2, nothing printed on stdout, nothing sent or written', async () => {
    const before = await withdrawalCount(s);
    const bad = csvFile('bad.csv', [PIX_HEADER, ...pixRows('bad', 2, bank), `12.50,${bank},email,bad-x@example.com`]);
    const refused = await batch(bad, ['--dry-run']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('line 4: amount "12.50" reads as reais');
    expect(refused.stdout).toBe('');
    expect(filesBeside(bad)).toEqual(['bad.csv']);

    const config = tempConfigDir();
    cpSync(s.configDir, config, { recursive: true });
    const limited = { PAYCTL_CONFIG_DIR: config };
    expect((await s.run(['profiles', 'set', 'default', '--max-batch-total', '20000'], { env: limited })).code).toBe(0);
    const over = csvFile('over.csv', [PIX_HEADER, ...pixRows('over', 2, bank)]);
    const above = await batch(over, ['--dry-run', '-o', 'json'], limited);
    expect(above.code).toBe(2);
    expect(above.stderr).toContain('is above the largest batch profile \\"default\\" allows');
    expect(above.stdout).toBe('');
    expect(filesBeside(over)).toEqual(['over.csv']);
    expect(await withdrawalCount(s)).toBe(before);
  });

  it('--fields, -o csv and -o tsv, which choose among the output a dry run does not print, are refused: exit 2, nothing sent or written', async () => {
    const before = await withdrawalCount(s);
    const file = csvFile('choices.csv', [PIX_HEADER, ...pixRows('choices', 2, bank)]);
    const single = ['withdraw', 'pix', '--main-account', '--bank-account', bank, '--amount', '500', '--pix-key-type', 'email', '--pix-key', 'choices@example.com', '--yes'];
    const cases: Array<[string[], string]> = [
      [['--fields', 'line,outcome'], '--fields cannot be used with --dry-run'],
      [['-o', 'csv'], '--output csv cannot be used with --dry-run'],
      [['--output', 'tsv'], '--output tsv cannot be used with --dry-run'],
    ];
    for (const [extra, message] of cases) {
      for (const [what, run] of [['batch', () => batch(file, ['--dry-run', ...extra])], ['single', () => s.run([...single, '--dry-run', ...extra])]] as const) {
        const result = await run();
        expect(result.code, `${what} ${extra.join(' ')}: ${result.stderr}`).toBe(2);
        expect(result.stderr).toContain(`error: ${message}: a dry run prints the requests it would send, as text or with --output json or ndjson`);
        expect(result.stdout).toBe('');
      }
    }
    expect(filesBeside(file)).toEqual(['choices.csv']);
    expect(await withdrawalCount(s)).toBe(before);
  });
});
