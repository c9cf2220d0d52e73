import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxSession, type SandboxSession } from '../helpers/sandbox.js';
import { csvFile, expectPaidOnce, fundedMainAccount, paidByKey, PIX_HEADER, pixKeys, pixRows, withdrawalCount } from './helpers.js';

/** A batch row is known by its content, never by its line. */
let s: SandboxSession;
let bank: string;

beforeAll(async () => {
  s = await startSandboxSession('acme');
  bank = await fundedMainAccount(s);
});
afterAll(() => s?.close());

const batch = (file: string, extra: string[] = []) => s.run(['withdraw', 'batch', file, '--method', 'pix', '--yes', '--main-account', ...extra]);
const rewrite = (file: string, change: (lines: string[]) => string[]) =>
  writeFileSync(file, `${change(readFileSync(file, 'utf8').trimEnd().split('\n')).join('\n')}\n`);

describe('editing a paid file never pays a paid row again', () => {
  it('a blank line after the header, a refused row deleted, rows reordered: 0 new withdrawals on each rerun; a new row pays only itself', async () => {
    const file = csvFile('payroll.csv', [PIX_HEADER, ...pixRows('edit', 8, bank), `1000,999999,email,edit-refused@example.com`]);
    const first = await batch(file);
    expect(first.code).toBe(1);
    expect(first.stderr).toMatch(/failed\s+line 10: .*returnCode -7100/);
    await expectPaidOnce(s, 'edit-', pixKeys('edit', 8));
    const paid = await withdrawalCount(s);

    rewrite(file, ([header, ...rows]) => [header!, '', ...rows]);
    expect((await batch(file)).code).toBe(1);
    expect(await withdrawalCount(s)).toBe(paid);

    rewrite(file, (lines) => lines.filter((line) => !line.includes('edit-refused')));
    const deleted = await batch(file, ['-o', 'json']);
    expect(deleted.code, deleted.stderr).toBe(0);
    const report = JSON.parse(deleted.stdout) as Array<{ outcome: string }>;
    expect(report.map((r) => r.outcome)).toEqual(Array(8).fill('already-done'));
    expect(await withdrawalCount(s)).toBe(paid);

    rewrite(file, ([header, ...rows]) => [header!, ...rows.filter(Boolean).reverse()]);
    expect((await batch(file)).code).toBe(0);
    expect(await withdrawalCount(s)).toBe(paid);

    rewrite(file, (lines) => [...lines.slice(0, 3), `7777,${bank},email,edit-new@example.com`, ...lines.slice(3)]);
    const added = await batch(file);
    expect(added.code, added.stderr).toBe(0);
    expect(added.stderr).toContain('9 done (1 now, 8 before');
    await expectPaidOnce(s, 'edit-', [...pixKeys('edit', 8), 'edit-new@example.com']);
  });

  it('the same key written another way (a CPF with or without punctuation, a key type in any case) is the same row', async () => {
    const file = csvFile('cpf.csv', [PIX_HEADER, `4321,${bank},cpf,529.982.247-25`]);
    expect((await batch(file)).code).toBe(0);
    const paid = await withdrawalCount(s);
    rewrite(file, ([header]) => [header!, `4321,${bank},DOCUMENT_CPF,52998224725`]);
    const again = await batch(file);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain('1 done (0 now, 1 before');
    expect(await withdrawalCount(s)).toBe(paid);
  });
});

describe('identical rows', () => {
  it('are refused before anything is sent, both lines named', async () => {
    const before = await withdrawalCount(s);
    const file = csvFile('twins.csv', [
      PIX_HEADER,
      `3000,${bank},email,twin@example.com`,
      `3100,${bank},email,other@example.com`,
      `3000,${bank},email,twin@example.com`,
    ]);
    const result = await batch(file);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/lines 2 and 4 are the same withdrawal \(R\$ 30,00 \(3000 cents\) to PIX key twin@example.com\)/);
    expect(result.stderr).toContain('--allow-duplicate-rows');
    expect(result.stderr).toContain('nothing was sent');
    expect(await withdrawalCount(s)).toBe(before);
  });

  it('with different references are different rows, each paid once, and stay so on rerun', async () => {
    const file = csvFile('refs.csv', [
      `${PIX_HEADER},reference`,
      `3200,${bank},email,ref-twin@example.com,março`,
      `3200,${bank},email,ref-twin@example.com,abril`,
    ]);
    const first = await batch(file, ['-o', 'json']);
    expect(first.code, first.stderr).toBe(0);
    expect((JSON.parse(first.stdout) as Array<{ reference: string }>).map((r) => r.reference)).toEqual(['março', 'abril']);
    expect((await batch(file)).code).toBe(0);
    expect((await paidByKey(s, 'ref-twin')).get('ref-twin@example.com')).toBe(2);
  });

  it('with --allow-duplicate-rows are paid once each; removing one pays nothing, adding one pays one more', async () => {
    const twin = `3300,${bank},email,dup-twin@example.com`;
    const file = csvFile('dups.csv', [PIX_HEADER, twin, `3400,${bank},email,dup-other@example.com`, twin]);
    const first = await batch(file, ['--allow-duplicate-rows']);
    expect(first.code, first.stderr).toBe(0);
    const count = async () => (await paidByKey(s, 'dup-twin')).get('dup-twin@example.com');
    expect(await count()).toBe(2);

    rewrite(file, (lines) => lines.slice(0, -1));
    expect((await batch(file, ['--allow-duplicate-rows'])).code).toBe(0);
    expect(await count()).toBe(2);

    rewrite(file, (lines) => [...lines, twin, twin]);
    const more = await batch(file, ['--allow-duplicate-rows']);
    expect(more.code, more.stderr).toBe(0);
    expect(more.stderr).toContain('4 done (1 now, 3 before');
    expect(await count()).toBe(3);
  });
});

describe('CSV as spreadsheets save it', () => {
  it('semicolons, a UTF-8 BOM and CRLF line ends (the pt-BR default) are read; a rerun with commas is the same batch', async () => {
    const file = csvFile('folha.csv', []);
    const rows = pixRows('semi', 3, bank).map((row) => row.replaceAll(',', ';'));
    writeFileSync(file, `\uFEFF${[PIX_HEADER.replaceAll(',', ';'), ...rows].join('\r\n')}\r\n`);
    const result = await batch(file);
    expect(result.code, result.stderr).toBe(0);
    await expectPaidOnce(s, 'semi-', pixKeys('semi', 3));

    writeFileSync(file, `${[PIX_HEADER, ...pixRows('semi', 3, bank)].join('\n')}\n`);
    const commas = await batch(file, ['--csv-separator', ',']);
    expect(commas.code, commas.stderr).toBe(0);
    expect(commas.stderr).toContain('3 done (0 now, 3 before');
    await expectPaidOnce(s, 'semi-', pixKeys('semi', 3));
  });

  it('a wrong --csv-separator or a broken quote is a usage error naming it, and nothing is sent', async () => {
    const before = await withdrawalCount(s);
    const file = csvFile('quotes.csv', [PIX_HEADER, `1000,${bank},email,"q@example.com`]);
    const quote = await batch(file);
    expect(quote.code).toBe(2);
    expect(quote.stderr).toMatch(/the CSV cannot be read: Quote Not Closed.*line 2/);
    const separator = await batch(file, ['--csv-separator', '|']);
    expect(separator.code).toBe(2);
    expect(separator.stderr).toContain('error: --csv-separator "|" cannot split a batch file: a batch file is split by "," or ";"; nothing was sent\n');
    expect(separator.stderr).toContain("hint: give --csv-separator ',' or ';', or leave it out");
    const wrongCount = csvFile('cells.csv', [PIX_HEADER, `1000;${bank};email;x@example.com`]);
    const cells = await batch(wrongCount, ['--csv-separator', ',']);
    expect(cells.code).toBe(2);
    expect(cells.stderr).toContain('line 2 has 1 cells, the header has 4');
    expect(await withdrawalCount(s)).toBe(before);
  });
});

describe('flags that do not apply are usage errors', () => {
  it('batch flags on a single withdrawal, and single flags on a batch: unknown options (exit 2 naming them), nothing sent', async () => {
    const before = await withdrawalCount(s);
    const single = await s.run([
      'withdraw',
      'pix',
      '--main-account',
      '--amount',
      '1000',
      '--bank-account',
      bank,
      '--pix-key-type',
      'email',
      '--pix-key',
      'flags@example.com',
      '--yes',
      '--journal',
      '/nonexistent/x',
      '--concurrency',
      'abc',
      '--reconcile',
    ]);
    expect(single.code).toBe(2);
    expect(single.stderr).toContain("unknown option '--journal'");

    const file = csvFile('flags.csv', [PIX_HEADER, `1000,${bank},email,flags@example.com`]);
    const spelling = await s.run(['withdraw', 'pix', '--from-csv', file, '--main-account', '--yes', '--postback-url', 'https://hooks.example.com/x']);
    expect(spelling.code).toBe(2);
    expect(spelling.stderr).toContain("unknown option '--postback-url'");
    const unknown = await s.run(['withdraw', 'batch', file, '--method', 'pix', '--main-account', '--yes', '--amount', '1000']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("unknown option '--amount'");
    const noMethod = await s.run(['withdraw', 'batch', file, '--main-account', '--yes']);
    expect(noMethod.code).toBe(2);
    expect(noMethod.stderr).toContain('missing required flag: --method');
    const badMethod = await s.run(['withdraw', 'batch', file, '--method', 'ted', '--main-account', '--yes']);
    expect(badMethod.code).toBe(2);
    expect(badMethod.stderr).toMatch(/--method/);
    expect(await withdrawalCount(s)).toBe(before);

    // The documented spelling is the same batch, on the same journal.
    const viaSpelling = await s.run(['withdraw', 'pix', '--from-csv', file, '--main-account', '--yes']);
    expect(viaSpelling.code, viaSpelling.stderr).toBe(0);
    const viaBatch = await batch(file);
    expect(viaBatch.code).toBe(0);
    expect(viaBatch.stderr).toContain('1 done (0 now, 1 before');
    expect(await withdrawalCount(s)).toBe(before + 1);
  });

  it('--method with withdraw pix|card --from-csv is a usage error in every spelling: the method is the command\'s word, nothing is sent', async () => {
    const before = await withdrawalCount(s);
    const pixFile = csvFile('method.csv', [PIX_HEADER, `1000,${bank},email,method-pix@example.com`]);
    const cardFile = csvFile('method-card.csv', ['amount,bank_account_id', `1000,${bank}`]);
    // Each file is one the command's own method pays: had the last --method (the respelling's) won, it would have been paid.
    const lines = [
      ['withdraw', 'pix', '--from-csv', pixFile, '--method', 'card'],
      ['withdraw', 'pix', '--method=card', '--from-csv', pixFile],
      ['withdraw', 'pix', `--from-csv=${pixFile}`, '--method', 'pix'],
      ['withdraw', 'card', '--method', 'pix', `--from-csv=${cardFile}`],
    ];
    for (const line of lines) {
      const result = await s.run([...line, '--main-account', '--yes']);
      expect(result.code, line.join(' ')).toBe(2);
      expect(result.stderr).toMatch(/^error: --from-csv and --method cannot be used together: with --from-csv the method is the command's word /);
      const file = line[1] === 'pix' ? pixFile : cardFile;
      expect(result.stderr).toContain(`is withdraw batch ${file} --method ${line[1]}); nothing was sent`);
      expect(result.stderr).toContain(`hint: to choose the method with --method, run payctl withdraw batch ${file} --method METHOD`);
    }
    expect(existsSync(`${pixFile}.journal`) || existsSync(`${cardFile}.journal`)).toBe(false);
    expect(await withdrawalCount(s)).toBe(before);
  });
});
