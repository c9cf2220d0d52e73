import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, createReadStream, lchownSync, lstatSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workbookCellText } from '../../src/batch/workbook.js';
import { brlCents, centsIfReais } from '../../src/validation/flags.js';
import { runCliInTerminal, tempConfigDir } from '../helpers/cli.js';
import { sandboxWithdrawals, startSandboxSession, type SandboxSession } from '../helpers/sandbox.js';

/**
 * Workbooks both ways and CSV for pt-BR spreadsheets, as a finance analyst uses
 * them: what payctl writes is read back with ExcelJS, what the analyst's sheet
 * says is paid exactly, counted in the sandbox.
 */
let session: SandboxSession;
let bankAccountId: string;

beforeAll(async () => {
  session = await startSandboxSession('acme');
  const credit = await session.run(['api', 'POST', '/sandbox/balance', '--main-account', '--data', JSON.stringify({ pix: 500_000_000 })]);
  expect(credit.code, credit.stderr).toBe(0);
  bankAccountId = (await session.run(['bank-accounts', 'list', '--main-account', '--fields', 'id', '-o', 'tsv'])).stdout.split('\n')[0]!;
  expect(bankAccountId).toMatch(/^\d+$/);
});
afterAll(() => session?.close());

const fileIn = (name: string) => path.join(tempConfigDir(), name);

async function readWorkbook(file: string): Promise<ExcelJS.Workbook> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(file);
  return workbook;
}

/** The withdrawals a run made: those in the sandbox now that were not before. */
async function paidBy(run: () => Promise<{ code: number; stderr: string }>, code = 0) {
  const before = new Set((await sandboxWithdrawals(session)).map((w) => w.id));
  const result = await run();
  expect(result.code, result.stderr).toBe(code);
  return { result, paid: (await sandboxWithdrawals(session)).filter((w) => !before.has(w.id)) };
}

/** The workbook saved as NAME in a folder of its own; its path. */
async function saved(workbook: ExcelJS.Workbook, name: string): Promise<string> {
  const file = fileIn(name);
  await workbook.xlsx.writeFile(file);
  return file;
}

/** `withdraw batch FILE` of PIX rows from the main account, confirmed (`--yes`), with `extra` flags. */
const payBatch = (file: string, ...extra: string[]) => session.run(['withdraw', 'batch', file, ...extra, '--method', 'pix', '--yes', '--main-account']);

/**
 * A workbook whose sheet "Folha" has a PIX payout header (its amount column named `amountHeader`) and a
 * row for each [amount, e-mail key, the amount cell's number format], all to `bankAccountId`.
 */
function payoutWorkbook(amountHeader: string, rows: ReadonlyArray<readonly [amount: ExcelJS.CellValue, key: string, numFmt?: string]>) {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Folha');
  sheet.addRow([amountHeader, 'bank_account_id', 'pix_key_type', 'pix_key']);
  for (const [amount, key, numFmt] of rows) {
    const row = sheet.addRow([amount, bankAccountId, 'email', key]);
    if (numFmt !== undefined) row.getCell(1).numFmt = numFmt;
  }
  return { workbook, sheet };
}

describe('-o xlsx', () => {
  it('writes customers with documents as text, leading zeros kept, times as local date-times, and a bold frozen header', async () => {
    const file = fileIn('customers.xlsx');
    const fields = 'id,firstName,document,createdAt';
    const env = { TZ: 'America/Sao_Paulo' };
    const written = await session.runProcess(['customers', 'list', '--all', '-o', 'xlsx', '--out', file, '--fields', fields], { env });
    expect(written.code, written.stderr).toBe(0);
    expect(written.stdout).toBe('');
    const json = JSON.parse((await session.run(['customers', 'list', '--all', '--json', '--fields', fields])).stdout) as Array<Record<string, string>>;

    const sheet = (await readWorkbook(file)).worksheets[0]!;
    const header = sheet.getRow(1);
    expect(header.values).toEqual([undefined, 'id', 'firstName', 'document', 'createdAt']);
    expect(header.getCell(1).font?.bold).toBe(true);
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(sheet.rowCount).toBe(json.length + 1);
    json.forEach((customer, i) => {
      const row = sheet.getRow(i + 2);
      expect(row.getCell(1).value).toBe(customer.id);
      expect(row.getCell(3).value).toBe(customer.document);
      // São Paulo is UTC-3: the cell holds the local wall clock, which ExcelJS gives as UTC fields.
      expect((row.getCell(4).value as Date).getTime()).toBe(Date.parse(customer.createdAt!) - 3 * 3600_000);
      expect(row.getCell(4).numFmt).toMatch(/yyyy-mm-dd hh:mm/);
    });
    const leadingZeros = json.filter((customer) => customer.document!.startsWith('0'));
    expect(leadingZeros.length).toBeGreaterThan(0);
  });

  it('writes money as numbers in the BRL format, with the same --fields as the other formats, to stdout when it is not a terminal', async () => {
    const pay = await session.run(['withdraw', 'pix', '--amount', '123456', '--bank-account', bankAccountId, '--pix-key-type', 'email', '--pix-key', 'xlsx@example.com', '--yes', '--main-account']);
    expect(pay.code, pay.stderr).toBe(0);
    const file = fileIn('withdrawals.xlsx');
    // Into a pipe (a zip: runProcess decodes it as text, so only its start is checked), and into --out.
    const piped = await session.runProcess(['withdrawals', 'list', '--main-account', '-o', 'xlsx', '--fields', 'amount,bankAccountId,pixKey,status']);
    expect(piped.code, piped.stderr).toBe(0);
    expect(piped.stdout.startsWith('PK\u0003\u0004')).toBe(true);
    const written = await session.runProcess(['withdrawals', 'list', '--main-account', '-o', 'xlsx', '--out', file, '--fields', 'amount,bankAccountId,pixKey,status']);
    expect(written.code, written.stderr).toBe(0);

    const sheet = (await readWorkbook(file)).worksheets[0]!;
    expect(sheet.getRow(1).values).toEqual([undefined, 'amount', 'bankAccountId', 'pixKey', 'status']);
    const rows = sheet.getRows(2, sheet.rowCount - 1)!;
    const mine = rows.find((row) => row.getCell(3).value === 'xlsx@example.com')!;
    expect(mine.getCell(1).value).toBe(1234.56);
    expect(mine.getCell(1).numFmt).toContain('R$');
    expect(mine.getCell(1).numFmt).toContain('#,##0.00');
    expect(mine.getCell(2).value).toBe(bankAccountId);
    expect(mine.getCell(4).value).toBe('PENDING');

    const balance = fileIn('balance.xlsx');
    expect((await session.run(['balance', '--main-account', '-o', 'xlsx', '--out', balance])).code).toBe(0);
    const balanceJson = JSON.parse((await session.run(['balance', '--main-account', '--json'])).stdout) as Record<string, number>;
    const balanceRow = (await readWorkbook(balance)).worksheets[0]!.getRow(2);
    expect(balanceRow.getCell(1).value).toBe(balanceJson.disponiblePixBalance);
    expect(balanceRow.getCell(1).numFmt).toContain('R$');
  });

  it('is refused at a terminal without --out (exit 2), and --out with other formats', async () => {
    const atTerminal = await runCliInTerminal(['customers', 'list', '-o', 'xlsx'], { env: session.env });
    expect(atTerminal.code).toBe(2);
    expect(atTerminal.stderr).toContain('-o xlsx writes a workbook, which a terminal cannot show: give --out FILE.xlsx');
    expect(atTerminal.stdout).toBe('');
    const other = await session.run(['customers', 'list', '-o', 'csv', '--out', fileIn('x.csv')]);
    expect(other.code).toBe(2);
    expect(other.stderr).toContain('--out names the file of a workbook (-o xlsx)');
  });

  it('--out writes through a symbolic link to the file it names, into a pipe in place, and refuses a terminal', async () => {
    const folder = fileIn('out-kinds');
    mkdirSync(folder);
    const [target, link, fifo] = ['real.xlsx', 'link.xlsx', 'fifo'].map((name) => path.join(folder, name)) as [string, string, string];
    writeFileSync(target, 'an older export');
    symlinkSync('real.xlsx', link);
    const throughLink = await session.run(['balance', '-o', 'xlsx', '--out', link]);
    expect(throughLink.code, throughLink.stderr).toBe(0);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect((await readWorkbook(target)).worksheets[0]!.getRow(1).getCell(1).value).toBe('disponiblePixBalance');
    // A named pipe is written as `> fifo` would, not replaced by a file (which would leave its reader waiting).
    execFileSync('mkfifo', [fifo]);
    const received = new Promise<Buffer>((resolve, reject) => {
      const chunks: Buffer[] = [];
      createReadStream(fifo)
        .on('data', (chunk) => chunks.push(chunk as Buffer))
        .on('end', () => resolve(Buffer.concat(chunks)))
        .on('error', reject);
    });
    const intoPipe = await session.runProcess(['balance', '-o', 'xlsx', '--out', fifo]);
    expect(intoPipe.code, intoPipe.stderr).toBe(0);
    expect(lstatSync(fifo).isFIFO()).toBe(true);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load((await received) as unknown as ExcelJS.Buffer);
    expect(workbook.worksheets[0]!.getRow(1).getCell(1).value).toBe('disponiblePixBalance');
    // /dev/stdout at a terminal is the terminal: refused as a workbook without --out is.
    const atTerminal = await runCliInTerminal(['balance', '-o', 'xlsx', '--out', '/dev/stdout'], { env: session.env });
    expect(atTerminal.code).toBe(2);
    expect(atTerminal.stderr).toContain('--out /dev/stdout is a terminal');
  });

  // Another user's link or pipe needs a second user id, which only root can give a file.
  it.runIf(process.getuid?.() === 0)("--out never writes through another user's link or pipe in a shared folder like /tmp, and still through the user's own", async () => {
    const shared = fileIn('shared');
    const home = fileIn('home');
    mkdirSync(shared);
    mkdirSync(home);
    chmodSync(shared, 0o1777);
    const [notes, planted, ownLink, ownTarget, pipe] = [path.join(home, 'notes.txt'), path.join(shared, 'report.xlsx'), path.join(shared, 'mine.xlsx'), path.join(home, 'mine.xlsx'), path.join(shared, 'pipe.xlsx')];
    writeFileSync(notes, 'precious');
    symlinkSync(notes, planted);
    lchownSync(planted, 65534, 65534);
    const throughPlanted = await session.run(['balance', '-o', 'xlsx', '--out', planted]);
    expect(throughPlanted.code).toBe(2);
    expect(throughPlanted.stderr).toContain(`--out ${planted}: ${planted} is a symbolic link another user made in ${shared}, a folder anyone may write to`);
    expect(readFileSync(notes, 'utf8')).toBe('precious');
    // Through a folder that is such a link, as well.
    const plantedFolder = path.join(shared, 'reports');
    symlinkSync(home, plantedFolder);
    lchownSync(plantedFolder, 65534, 65534);
    const throughFolder = await session.run(['balance', '-o', 'xlsx', '--out', path.join(plantedFolder, 'notes.txt')]);
    expect(throughFolder.code).toBe(2);
    expect(readFileSync(notes, 'utf8')).toBe('precious');
    // A pipe another user reads would receive the workbook: refused before it is opened, so no reader is needed.
    execFileSync('mkfifo', [pipe]);
    chownSync(pipe, 65534, 65534);
    const intoPlantedPipe = await session.run(['balance', '-o', 'xlsx', '--out', pipe]);
    expect(intoPlantedPipe.code).toBe(2);
    expect(intoPlantedPipe.stderr).toContain(`${pipe} is a named pipe another user made in ${shared}`);
    writeFileSync(ownTarget, 'an older export');
    symlinkSync(ownTarget, ownLink);
    const throughOwn = await session.run(['balance', '-o', 'xlsx', '--out', ownLink]);
    expect(throughOwn.code, throughOwn.stderr).toBe(0);
    expect((await readWorkbook(ownTarget)).worksheets[0]!.getRow(1).getCell(1).value).toBe('disponiblePixBalance');
  });

  it('--out never writes its partial file through a link planted under its name', async () => {
    const folder = fileIn('planted-partial');
    mkdirSync(folder);
    const [notes, out] = [path.join(folder, 'notes.txt'), path.join(folder, 'report.xlsx')];
    writeFileSync(notes, 'precious');
    // session.run runs payctl in this process: its pid, and so the partial file's name, is this one's.
    symlinkSync(notes, `${out}.${process.pid}.partial`);
    const run = await session.run(['balance', '-o', 'xlsx', '--out', out]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`cannot write the workbook to ${out}: EEXIST`);
    expect(readFileSync(notes, 'utf8')).toBe('precious');
    expect(lstatSync(`${out}.${process.pid}.partial`).isSymbolicLink()).toBe(true);
  });

  it("refuses a batch whose report could not be written to --out's folder before any money moves", async () => {
    const file = fileIn('report-nowhere.csv');
    writeFileSync(file, `amount,bank_account_id,pix_key_type,pix_key\n1500,${bankAccountId},email,nowhere@example.com\n`);
    const out = path.join(fileIn('missing'), 'folder', 'report.xlsx');
    const { result, paid } = await paidBy(() => payBatch(file, '-o', 'xlsx', '--out', out), 2);
    expect(paid).toEqual([]);
    expect(result.stderr).toContain('cannot write in its folder (ENOENT)');
  });
});

describe('withdraw batch FILE.xlsx', () => {
  /** A valid CPF with a leading zero, which a spreadsheet drops from a number unless its format keeps it. */
  const CPF = '01234567890';

  it('pays the cells as the analyst sees them: text-typed numbers, a CPF kept by its format, amount_brl in reais, exactly', async () => {
    const workbook = new ExcelJS.Workbook();
    workbook.addWorksheet('Resumo').addRow(['nothing to pay here']);
    const sheet = workbook.addWorksheet('Pagamentos');
    sheet.addRow(['Amount_BRL', 'bank_account_id', 'pix_key_type', 'pix_key', 'reference']);
    // A number typed as text, reais written the Brazilian way.
    sheet.addRow(['1.234,56', bankAccountId, 'cpf', CPF, 'row as text']);
    // A CPF typed as a number: the sheet shows it with its leading zero through the format 00000000000.
    const cpfAsNumber = sheet.addRow(['R$ 4,35', Number(bankAccountId), 'DOCUMENT_CPF', Number(CPF), 'cpf as number']);
    cpfAsNumber.getCell(4).numFmt = '00000000000';
    cpfAsNumber.getCell(2).numFmt = '0';
    // Reais as a number cell in a money format, an e-mail made a link by the spreadsheet, a date as reference.
    const numberRow = sheet.addRow([1.15, bankAccountId, 'email', { text: 'sheet@example.com', hyperlink: 'mailto:sheet@example.com' }, new Date(Date.UTC(2026, 10, 26))]);
    numberRow.getCell(1).numFmt = '#,##0.00';
    const file = await saved(workbook, 'folha.xlsx');

    const { paid } = await paidBy(() => payBatch(file, '--sheet', 'Pagamentos', '-o', 'json'));
    expect(paid.map((w) => [w.amount, w.pixKey]).sort()).toEqual([
      [115, 'sheet@example.com'],
      [123456, CPF],
      [435, CPF],
    ].sort());
    // A rerun pays nothing again: the same rows by their content.
    const { paid: again } = await paidBy(() => payBatch(file, '--sheet', 'Pagamentos'));
    expect(again).toEqual([]);
  });

  it('pays a formula by the result the sheet shows (15 significant digits), and refuses one the file holds no result for', async () => {
    // Results as a spreadsheet saves them: doubles, which it shows as R$ 10,30 and R$ 16,50.
    const { workbook, sheet } = payoutWorkbook('amount_brl', [
      [{ formula: '10.1+0.2', result: 10.1 + 0.2 }, 'formula-a@example.com', '"R$" #,##0.00'],
      [{ formula: '15*1.1', result: 15 * 1.1 }, 'formula-b@example.com', '"R$" #,##0.00'],
    ]);
    const file = await saved(workbook, 'formulas.xlsx');
    const { paid } = await paidBy(() => payBatch(file));
    expect(paid.map((w) => [w.pixKey, w.amount]).sort()).toEqual([
      ['formula-a@example.com', 1030],
      ['formula-b@example.com', 1650],
    ]);
    // A formula written by a program, with no result: the sheet would show a value payctl cannot know.
    sheet.addRow([{ formula: 'A2*2' }, bankAccountId, 'email', 'formula-c@example.com']);
    await workbook.xlsx.writeFile(file);
    const { result, paid: none } = await paidBy(() => payBatch(file), 2);
    expect(none).toEqual([]);
    expect(result.stderr).toContain('row 4: A4 holds a formula with no saved result');
  });

  it('reads a number in a currency format as the reais it shows: refused as cents, paid as amount_brl', async () => {
    // The sheet shows R$ 1.500,00 and R$ 16,00: 1500 cents would pay R$ 15,00.
    const { workbook, sheet } = payoutWorkbook('amount', [
      [1500, 'currency-a@example.com', '"R$" #,##0.00'],
      [16, 'currency-b@example.com', '[$R$-416] #,##0.00'],
    ]);
    const cents = await saved(workbook, 'currency-cents.xlsx');
    const { result, paid } = await paidBy(() => payBatch(cents), 2);
    expect(paid).toEqual([]);
    expect(result.stderr).toContain('row 2: amount "R$ 1500,00" reads as reais');
    expect(result.stderr).toContain('as reais it is 150000 cents');
    expect(result.stderr).toContain('row 3: amount "R$ 16,00" reads as reais');
    sheet.getCell('A1').value = 'amount_brl';
    const reais = await saved(workbook, 'currency-reais.xlsx');
    const { paid: inReais } = await paidBy(() => payBatch(reais));
    expect(inReais.map((w) => [w.pixKey, w.amount]).sort()).toEqual([
      ['currency-a@example.com', 150_000],
      ['currency-b@example.com', 1600],
    ]);
  });

  it('reads a number in a percent format as the percentage it shows: refused as an amount, nothing paid', async () => {
    // The sheet shows 1250,00%, not R$ 12,50.
    const { workbook } = payoutWorkbook('amount_brl', [
      [12.5, 'percent-a@example.com', '0.00%'],
      [30, 'percent-b@example.com', '#,##0.00'],
    ]);
    const file = await saved(workbook, 'percent.xlsx');
    const { result, paid } = await paidBy(() => payBatch(file), 2);
    expect(paid).toEqual([]);
    expect(result.stderr).toContain('row 2: amount_brl "1250,00%" is invalid');
  });

  it('reads a value merged across columns once, in its first column, as the sheet shows it', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Folha');
    sheet.addRow(['amount', 'bank_account_id', 'pix_key_type', 'pix_key', 'postback_url']);
    // A long key widened over the empty postback_url cell: ExcelJS repeats it in E2.
    sheet.addRow([1500, bankAccountId, 'email', 'merged-across@example.com']);
    sheet.mergeCells('D2:E2');
    const file = await saved(workbook, 'merged.xlsx');
    const { paid } = await paidBy(() => payBatch(file));
    expect(paid.map((w) => [w.pixKey, w.amount, 'postbackUrl' in w])).toEqual([['merged-across@example.com', 1500, false]]);
  });

  it('refuses a sheet the workbook lacks, naming --sheet and the sheets there are, and sends nothing', async () => {
    const workbook = new ExcelJS.Workbook();
    workbook.addWorksheet('Janeiro').addRow(['amount', 'bank_account_id']);
    workbook.addWorksheet('Fevereiro').addRow(['amount', 'bank_account_id']);
    const file = await saved(workbook, 'meses.xlsx');
    const { result, paid } = await paidBy(() => session.run(['withdraw', 'batch', file, '--sheet', 'Março', '--method', 'card', '--yes', '--main-account']), 2);
    expect(paid).toEqual([]);
    expect(result.stderr).toContain('--sheet "Março"');
    expect(result.stderr).toContain('"Janeiro", "Fevereiro"');
  });
});

describe('amounts in a batch', () => {
  const csv = (name: string, lines: string[]) => {
    const file = fileIn(name);
    writeFileSync(file, `${lines.join('\n')}\n`);
    return file;
  };

  it('pays amount_brl in a ; CSV exactly, where floating point would lose a cent', async () => {
    const file = csv('reais.csv', [
      'amount_brl;bank_account_id;pix_key_type;pix_key',
      `4,35;${bankAccountId};email;brl-a@example.com`,
      `R$ 1.000.000,29;${bankAccountId};email;brl-b@example.com`,
      `1234,5;${bankAccountId};email;brl-c@example.com`,
    ]);
    const { paid } = await paidBy(() => payBatch(file));
    expect(paid.map((w) => [w.pixKey, w.amount]).sort()).toEqual([
      ['brl-a@example.com', 435],
      ['brl-b@example.com', 100_000_029],
      ['brl-c@example.com', 123_450],
    ]);
  });

  it('refuses a file with both amount and amount_brl, naming both, and sends nothing', async () => {
    const file = csv('both.csv', ['amount,amount_brl,bank_account_id,pix_key_type,pix_key', `1000,"10,00",${bankAccountId},email,both@example.com`]);
    const { result, paid } = await paidBy(() => payBatch(file), 2);
    expect(paid).toEqual([]);
    expect(result.stderr).toMatch(/columns amount and amount_brl are both in the header/);
  });

  it('refuses cents cells that read as reais, saying what each would be in cents and naming amount_brl', async () => {
    const file = csv('cents.csv', [
      'amount;bank_account_id;pix_key_type;pix_key',
      `1.234,56;${bankAccountId};email;cents-a@example.com`,
      `12,50;${bankAccountId};email;cents-b@example.com`,
    ]);
    const { result, paid } = await paidBy(() => payBatch(file), 2);
    expect(paid).toEqual([]);
    expect(result.stderr).toMatch(/line 2: amount "1\.234,56" reads as reais.*123456 cents.*amount_brl/);
    expect(result.stderr).toMatch(/line 3: amount "12,50" reads as reais.*1250 cents.*amount_brl/);
  });

  it("refuses amounts outside the API document's range for a withdrawal, in reais and in cents, and sends nothing", async () => {
    const reais = csv('range-brl.csv', [
      'amount_brl;bank_account_id;pix_key_type;pix_key',
      `"0,99";${bankAccountId};email;range-a@example.com`,
      `"10.000.000.000,01";${bankAccountId};email;range-b@example.com`,
    ]);
    const cents = csv('range-cents.csv', ['amount;bank_account_id;pix_key_type;pix_key', `1000000000001;${bankAccountId};email;range-c@example.com`]);
    const { result, paid } = await paidBy(() => payBatch(reais), 2);
    expect(paid).toEqual([]);
    expect(result.stderr).toMatch(/line 2: amount_brl "0,99" is invalid: must be at least R\$ 1,00/);
    expect(result.stderr).toMatch(/line 3: amount_brl "10\.000\.000\.000,01" is invalid: must be at most R\$ 10\.000\.000\.000,00/);
    const inCents = await paidBy(() => payBatch(cents), 2);
    expect(inCents.paid).toEqual([]);
    expect(inCents.result.stderr).toMatch(/line 2: amount "1000000000001" is invalid: must be at most 1000000000000 cents/);
  });
});

describe('-o csv for pt-BR spreadsheets', () => {
  it("starts with a UTF-8 BOM with --csv-separator ';', and not with ','", async () => {
    const semicolon = fileIn('semicolon.csv');
    const run = await session.runProcess(['customers', 'list', '-o', 'csv', '--csv-separator', ';', '--fields', 'firstName,lastName']);
    expect(run.code, run.stderr).toBe(0);
    writeFileSync(semicolon, run.stdout);
    expect([...readFileSync(semicolon).subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(run.stdout.slice(1).split('\n')[0]).toBe('firstName;lastName');
    const comma = await session.runProcess(['customers', 'list', '-o', 'csv', '--fields', 'firstName']);
    expect(comma.stdout.startsWith('firstName\n')).toBe(true);
  });
});

describe('reading reais and cells', () => {
  it('takes reais only as written in Brazil, to the cent, and refuses what is ambiguous', () => {
    expect(['1.234,56', 'R$ 1.234,56', 'r$1234,56', '1234,56', '12,5', '12', '0,29', '9.007.199.254.740,99'].map(brlCents)).toEqual([
      123456, 123456, 123456, 123456, 1250, 1200, 29, 900719925474099,
    ]);
    expect(['1,234.56', '12,345', '1.23,45', '1234.56', '12,', ',5', '-12,50', '1e3', '90.071.992.547.409,93'].map(brlCents)).toEqual(Array(9).fill(undefined));
    // What a cents cell would be, read as reais: plain digits are cents already.
    expect(['12.34', '12,50', 'R$ 12', '1.234', '1234', 'abc'].map(centsIfReais)).toEqual([1234, 1250, 1200, 123400, undefined, undefined]);
  });

  it('reads a number cell as a person sees it: through a format of zeros, with a decimal comma, a date without its zone', () => {
    expect(workbookCellText(1234567890, '00000000000')).toBe('01234567890');
    expect(workbookCellText(1234567890, '000"."000"."000"-"00')).toBe('012.345.678-90');
    expect(workbookCellText(1234567890, '000\\.000\\.000\\-00')).toBe('012.345.678-90');
    expect(workbookCellText(123456789012, '00000000000')).toBe('123456789012');
    expect(workbookCellText(1234.56, '#,##0.00')).toBe('1234,56');
    expect(workbookCellText(1234, undefined)).toBe('1234');
    expect(workbookCellText(new Date(Date.UTC(2026, 10, 26)), 'dd/mm/yyyy')).toBe('2026-11-26');
    expect(workbookCellText(new Date(Date.UTC(2026, 10, 26, 9, 30)), undefined)).toBe('2026-11-26 09:30');
    expect(workbookCellText({ formula: 'A1*100', result: 435 }, undefined)).toBe('435');
    expect(workbookCellText(0.1 + 0.2, '#,##0.00')).toBe('0,30');
    expect(workbookCellText(0.1 + 0.2, undefined)).toBe('0,3');
    expect(workbookCellText(1500 * 1.1, undefined)).toBe('1650');
    expect(workbookCellText(1234.5, '_-"R$"* #,##0.00_-;-"R$"* #,##0.00_-')).toBe('R$ 1234,50');
    expect(workbookCellText(12, '[$-416]0')).toBe('12');
    // A format's decimals are shown, so 1500 cents formatted #,##0.00 reads as reais; more are kept, never rounded.
    expect(workbookCellText(1500, '#,##0.00')).toBe('1500,00');
    expect(workbookCellText(12.345, '0.00')).toBe('12,345');
    expect(workbookCellText(7, '0.0" un."')).toBe('7,0');
    expect(workbookCellText({ richText: [{ text: 'R$ ' }, { text: '4,35' }] }, undefined)).toBe('R$ 4,35');
  });
});
