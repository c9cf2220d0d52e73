import ExcelJS from 'exceljs';
import { usageError } from '../errors.js';
import type { CsvRow, CsvTable } from './csv.js';

/** Which sheet of a workbook to read: `--sheet NAME`, else the first; `flag` names the flag in messages. */
export interface SheetChoice {
  flag: string;
  name?: string | undefined;
}

/**
 * A batch's table from a workbook's sheet (the first one shown, or the one named),
 * its cells read as a person sees them (`workbookCellText`; cells merged across columns
 * as the one value they show, in the first): the first non-empty row is
 * the header, blank rows are skipped, and a row's place is its row number. A value
 * under no header is a problem naming its cell. A sheet the workbook lacks is a
 * usage error naming the flag and the sheets there are; a file that is no
 * workbook throws with the reason.
 */
export async function readSheet(bytes: Buffer, choice: SheetChoice): Promise<CsvTable> {
  const workbook = new ExcelJS.Workbook();
  try {
    // ExcelJS's types name an ArrayBuffer; it reads a Node Buffer as such.
    await workbook.xlsx.load(bytes as unknown as ExcelJS.Buffer);
  } catch (error) {
    throw new Error(`the workbook cannot be read (${(error as Error).message}): save it again as .xlsx, or as CSV`);
  }
  const sheets = workbook.worksheets;
  const names = sheets.map((sheet) => JSON.stringify(sheet.name)).join(', ');
  const sheet = choice.name === undefined ? (sheets.find((s) => s.state === 'visible') ?? sheets[0]) : sheets.find((s) => s.name === choice.name);
  if (!sheet) {
    throw usageError(
      choice.name === undefined ? 'the workbook has no sheet' : `${choice.flag} ${JSON.stringify(choice.name)}: the workbook has no such sheet; its sheets are ${names}`,
    );
  }
  let header: string[] | undefined;
  const rows: CsvRow[] = [];
  const problems: string[] = [];
  sheet.eachRow({ includeEmpty: false }, (row, line) => {
    const texts: Array<{ column: number; address: string; text: string }> = [];
    const uncomputed: string[] = [];
    row.eachCell({ includeEmpty: false }, (cell, column) => {
      // A value merged across columns shows once, in its first cell (ExcelJS repeats it in each);
      // merged down rows, it shows beside each of them, and so is read in each.
      if (cell.type === ExcelJS.ValueType.Merge && cell.master.row === cell.row) return;
      if (isUncomputedFormula(cell.value)) uncomputed.push(cell.address);
      const text = workbookCellText(cell.value, cell.numFmt).trim();
      if (text !== '') texts.push({ column, address: cell.address, text });
    });
    if (uncomputed.length > 0) {
      const cells = `${uncomputed.join(', ')} ${uncomputed.length > 1 ? 'hold formulas' : 'holds a formula'}`;
      problems.push(`row ${line}: ${cells} with no saved result (the program that wrote the workbook did not compute it): open it in a spreadsheet and save it`);
      return;
    }
    if (texts.length === 0) return;
    if (!header) {
      header = [];
      for (const { column, text } of texts) header[column - 1] = text.toLowerCase();
      return;
    }
    const names = header;
    const stray = texts.filter(({ column }) => !names[column - 1]);
    if (stray.length > 0) {
      problems.push(`row ${line}: ${stray.map(({ address }) => address).join(', ')} ${stray.length > 1 ? 'hold values' : 'holds a value'} under no header`);
      return;
    }
    const cells: Record<string, string> = Object.fromEntries(names.flatMap((name) => (name ? [[name, '']] : [])));
    for (const { column, text } of texts) {
      const name = names[column - 1];
      if (name) cells[name] = text;
    }
    rows.push({ line, cells });
  });
  if (!header) throw new Error(`sheet ${JSON.stringify(sheet.name)} is empty: its first row must name the columns`);
  return { header: header.filter((name) => name !== undefined), rows, source: `sheet ${JSON.stringify(sheet.name)}`, rowWord: 'row', problems };
}

/**
 * A cell's value as a person sees it in the sheet: text as typed, a number as a
 * Brazilian reads it (`1234,56`; with a format of zeros such as `00000000000`
 * or `000"."000"."000"-"00`, its leading zeros shown; with its format's decimals
 * and currency symbol: 1500 in `"R$" #,##0.00` is `R$ 1500,00`; a percentage with its sign:
 * 12.5 in `0.00%` is `1250,00%`), a date as `2026-11-26`
 * (and its time when it has one), a formula by its result, a link by its text.
 */
export function workbookCellText(value: ExcelJS.CellValue, numFmt: string | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return numberText(value, numFmt);
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (value instanceof Date) return dateText(value);
  if ('richText' in value) return value.richText.map((part) => part.text).join('');
  if ('hyperlink' in value) return workbookCellText(value.text as ExcelJS.CellValue, undefined);
  if ('formula' in value || 'sharedFormula' in value) return workbookCellText(value.result, numFmt);
  if ('error' in value) return value.error;
  return '';
}

/**
 * A formula whose result the file does not hold: a spreadsheet computes it on
 * opening and shows a value, which payctl cannot read (programs such as openpyxl
 * write formulas without results).
 */
const isUncomputedFormula = (value: ExcelJS.CellValue) =>
  value !== null && typeof value === 'object' && ('formula' in value || 'sharedFormula' in value) && (value.result === undefined || value.result === null);

const two = (n: number) => String(n).padStart(2, '0');

/** A spreadsheet's date-time has no zone: ExcelJS gives its fields as UTC. */
function dateText(date: Date): string {
  const day = `${date.getUTCFullYear()}-${two(date.getUTCMonth() + 1)}-${two(date.getUTCDate())}`;
  const [h, m, s] = [date.getUTCHours(), date.getUTCMinutes(), date.getUTCSeconds()];
  if (h === 0 && m === 0 && s === 0) return day;
  return `${day} ${two(h)}:${two(m)}${s ? `:${two(s)}` : ''}`;
}

function numberText(value: number, numFmt: string | undefined): string {
  const masked = Number.isSafeInteger(value) && value >= 0 && numFmt ? maskedDigits(value, numFmt) : undefined;
  if (masked !== undefined) return masked;
  // Spreadsheets show at most 15 significant digits, so =0.1+0.2 shows 0,3 (the double is
  // 0.30000000000000004): the shortest text of that number (JavaScript's own), with Brazil's decimal comma.
  // A percent format shows the number a hundred times over, with its sign: 12.5 in 0.00% is 1250,00%.
  const percent = numFmt !== undefined && sectionShown(numFmt).includes('%');
  const [whole = '', decimals = ''] = String(Number((percent ? value * 100 : value).toPrecision(15))).split('.');
  if (numFmt === undefined) return decimals ? `${whole},${decimals}` : whole;
  // The decimals and symbol the sheet shows: 1500 formatted as "R$" #,##0.00 or #,##0.00 reads as
  // reais (refused as cents), never as 1500 cents. Padded, never rounded: 12.345 is not 12,35.
  const shown = decimals.padEnd(decimalsOf(numFmt), '0');
  const text = `${shown ? `${whole},${shown}` : whole}${percent ? '%' : ''}`;
  const currency = currencyOf(numFmt);
  return currency === undefined ? text : `${currency} ${text}`;
}

/** A number format's part for positive numbers without its literal text and bracketed codes: what shapes the number. */
const sectionShown = (numFmt: string) => (numFmt.split(';')[0] ?? '').replace(/"[^"]*"|\\.|\[[^\]]*\]/g, '');

/** How many decimals a number format shows (`#,##0.00`: 2), read from its part for positive numbers. */
function decimalsOf(numFmt: string): number {
  return /\.([0#?]+)/.exec(sectionShown(numFmt))?.[1]?.length ?? 0;
}

/**
 * The currency symbol a number format shows: `R$` in `"R$" #,##0.00` or
 * `[$R$-416] #,##0.00`, else `$`, `€`, `£` or `¥`; a locale tag such as
 * `[$-416]` shows none.
 */
function currencyOf(numFmt: string): string | undefined {
  const shown = numFmt.replace(/\[\$-[0-9A-Fa-f]+\]/g, '');
  if (shown.includes('R$')) return 'R$';
  return /[$\u20ac\u00a3\u00a5]/.exec(shown)?.[0];
}

/**
 * An integer through a format made of `0` placeholders and literal text (`\-`,
 * `"."`, or one of `-+/():$` and space), as spreadsheets show it: leading zeros
 * filled in, extra digits in the first placeholder. Undefined for any other format.
 */
function maskedDigits(value: number, numFmt: string): string | undefined {
  const tokens = numFmt.match(/\\.|"[^"]*"|./g) ?? [];
  const zeros = tokens.filter((token) => token === '0').length;
  if (zeros === 0 || !tokens.every((token) => token === '0' || /^(\\.|"[^"]*"|[-+/():$ ])$/.test(token))) return undefined;
  const digits = String(value).padStart(zeros, '0');
  // Where the next placeholder's digit is: the first one takes the extra digits too.
  let next = 0;
  return tokens
    .map((token) => {
      if (token !== '0') return token.startsWith('\\') ? token.slice(1) : token.replace(/^"|"$/g, '');
      const end = next === 0 ? digits.length - zeros + 1 : next + 1;
      const taken = digits.slice(next, end);
      next = end;
      return taken;
    })
    .join('');
}
