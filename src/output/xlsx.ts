import { rename, rm, writeFile } from 'node:fs/promises';
import ExcelJS from 'exceljs';
import { parseApiTime } from '../api/time.js';
import { ExitCode, PayctlError } from '../errors.js';
import { isCalendarDate } from '../validation/rules.js';
import { outTarget, PlantedByAnother, type OutTarget } from './out-file.js';
import { rawText } from './cells.js';
import type { ColumnKind } from './views.js';

/** A column of a sheet: the field it reads (its header) and how its cells are typed. */
export interface SheetColumn {
  field: string;
  kind: ColumnKind | undefined;
}

/** Money in reais with the BRL symbol; the locale tag makes Excel show it as a Brazilian reads it. */
export const BRL_FORMAT = '[$R$-416] #,##0.00;-[$R$-416] #,##0.00';
export const DATE_TIME_FORMAT = 'yyyy-mm-dd hh:mm:ss';
export const DATE_FORMAT = 'yyyy-mm-dd';

/** Kinds kept as text whatever they hold: a spreadsheet would drop a document's or an id's leading zeros. */
const TEXT_KINDS: ReadonlySet<ColumnKind> = new Set(['id', 'status', 'cpf', 'cnpj', 'document', 'phone', 'pixKey']);

interface TypedCell {
  value: ExcelJS.CellValue;
  numFmt?: string;
}

/**
 * A date-time as a spreadsheet cell in the local time zone (`TZ` honoured): a
 * spreadsheet's date-times have no zone, and ExcelJS writes a Date's UTC fields.
 */
const localDateTime = (ms: number): TypedCell => ({ value: new Date(ms - new Date(ms).getTimezoneOffset() * 60_000), numFmt: DATE_TIME_FORMAT });

/** A value without a kind, by what it holds: numbers and yes/no typed as such, times and dates as dates, the rest as text. */
function cellByValue(value: unknown): TypedCell {
  if (typeof value === 'number' || typeof value === 'boolean') return { value };
  if (typeof value !== 'string') return { value: rawText(value) };
  const ms = parseApiTime(value);
  if (ms !== undefined) return localDateTime(ms);
  if (isCalendarDate(value)) return { value: new Date(`${value}T00:00:00Z`), numFmt: DATE_FORMAT };
  return { value };
}

/**
 * A value of the API as a spreadsheet cell: money (cents and reais) as a number of
 * reais in the BRL format, times as local date-times, documents, CEPs and ids as
 * text (leading zeros kept), lists and objects as their JSON. Text is never a
 * formula in a workbook, so it needs no escaping.
 */
export function sheetCell(value: unknown, kind: ColumnKind | undefined): TypedCell {
  if (value === null || value === undefined) return { value: null };
  if (kind === 'cents' && typeof value === 'number') return { value: value / 100, numFmt: BRL_FORMAT };
  if (kind === 'reais' && typeof value === 'number') return { value, numFmt: BRL_FORMAT };
  if (kind === 'cep') return { value: typeof value === 'number' && Number.isSafeInteger(value) ? String(value).padStart(8, '0') : rawText(value) };
  if (kind && TEXT_KINDS.has(kind)) return { value: rawText(value) };
  if (kind === 'list') return { value: rawText(value) };
  return cellByValue(value);
}

const MAX_WIDTH = 60;

/**
 * A workbook of one sheet named `name`: a bold, frozen header row of the fields,
 * then one row per item, each cell typed by its column's kind.
 */
export async function workbookOf(name: string, columns: readonly SheetColumn[], rows: ReadonlyArray<readonly unknown[]>): Promise<Uint8Array> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet(sheetName(name), { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.addRow(columns.map((column) => column.field)).font = { bold: true };
  const sized = columns.map((column) => ({ kind: column.kind, width: column.field.length }));
  for (const values of rows) {
    const row = sheet.addRow([]);
    values.forEach((value, i) => {
      const column = sized[i];
      if (!column) return;
      const { value: typed, numFmt } = sheetCell(value, column.kind);
      const cell = row.getCell(i + 1);
      cell.value = typed;
      if (numFmt) cell.numFmt = numFmt;
      column.width = Math.max(column.width, numFmt ? 19 : rawText(typed).length);
    });
  }
  sized.forEach(({ width }, i) => (sheet.getColumn(i + 1).width = Math.min(MAX_WIDTH, width + 2)));
  return new Uint8Array(await workbook.xlsx.writeBuffer());
}

/** A sheet's name as spreadsheets take it: at most 31 characters, none of `[]:*?/\`. */
const sheetName = (name: string) => name.replace(/[[\]:*?/\\]/g, ' ').slice(0, 31) || 'payctl';

/**
 * Writes a workbook to `file` whole or not at all (a run that fails midway leaves
 * no half workbook behind, nor a half-replaced one): to a file beside it, then renamed.
 * A device or pipe (`/dev/stdout`) is written in place (`outTarget`).
 */
export async function saveWorkbook(file: string, bytes: Uint8Array): Promise<void> {
  const failed = (why: string) => new PayctlError(`cannot write the workbook to ${file}: ${why}`, ExitCode.localFailure);
  let target: OutTarget;
  try {
    target = outTarget(file);
  } catch (error) {
    // A link planted since the run checked --out.
    throw error instanceof PlantedByAnother ? failed(error.message) : error;
  }
  const partial = `${target.path}.${process.pid}.partial`;
  try {
    if (target.inPlace) {
      await writeFile(target.path, bytes);
      return;
    }
    // Made new, never opened through what is there: its name is guessable, and a link planted under it
    // in a shared folder would have the workbook written into the file the link names.
    await writeFile(partial, bytes, { flag: 'wx' });
    await rename(partial, target.path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // EEXIST: the partial file is not this run's to remove.
    if (!target.inPlace && code !== 'EEXIST') await rm(partial, { force: true });
    throw failed(code ?? (error as Error).message);
  }
}
