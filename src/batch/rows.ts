import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { WithdrawalMethod, WithdrawRequest } from '../api/types.js';
import { PayctlError, usageError } from '../errors.js';
import { formatCentsExact } from '../money.js';
import { centsIfReais, parseUuid, parseWithdrawalReais } from '../validation/flags.js';
import { parseWithdrawRequest, requiredWithdrawFields, withdrawFieldsOf, type WithdrawField } from '../withdrawal/request.js';
import { parseCsv, type BatchFileSeparator, type CsvTable } from './csv.js';
import type { SheetChoice } from './workbook.js';

/** The CSV column of each field of a withdrawal's request. */
const FIELD_COLUMN: Readonly<Record<WithdrawField, string>> = {
  amount: 'amount',
  bankAccount: 'bank_account_id',
  pixKeyType: 'pix_key_type',
  pixKey: 'pix_key',
  postbackUrl: 'postback_url',
};
/** The column of amounts in reais as written in Brazil (`1.234,56`), in place of `amount` (cents). */
const AMOUNT_BRL = 'amount_brl';
/** The columns of a row that are no field of its request: the account it runs in, and the user's reference. */
const ROW_COLUMNS = ['subaccount', 'reference'] as const;
const columnsOf = (fields: readonly WithdrawField[]) => fields.map((field) => FIELD_COLUMN[field]);
const KNOWN_COLUMNS = [...Object.values(FIELD_COLUMN), AMOUNT_BRL, ...ROW_COLUMNS];
const MAX_REFERENCE = 200;

export interface BatchRow {
  line: number;
  /**
   * Identifies the row in the journal: a hash of what it pays (method, account,
   * amount, bank account, PIX key type and key, postback URL, reference) and of
   * its occurrence among identical rows, never of its line.
   */
  key: string;
  /** Sub-account the row runs in; null for the main account. */
  account: string | null;
  request: WithdrawRequest;
  reference: string | null;
  /** 1 for a row, 2 for the second identical one (with --allow-duplicate-rows), and so on, in file order. */
  occurrence: number;
}

export interface BatchOptions {
  separator?: BatchFileSeparator;
  allowDuplicateRows: boolean;
}

export interface BatchFileOptions extends BatchOptions {
  /** `--sheet`: the sheet of a workbook to read (default its first), and the flag's name for messages. */
  sheet: SheetChoice;
}

/** A workbook is a zip: known by its first bytes, whatever its name, or by its `.xlsx` name. */
const isWorkbook = (file: string, bytes: Buffer) => /\.xlsx$/i.test(file) || bytes.subarray(0, 4).equals(Buffer.from('PK\x03\x04', 'latin1'));

/**
 * Reads a batch file, a CSV file or a workbook's sheet (ExcelJS is loaded only
 * for a workbook), and its rows as parseBatch does. An unreadable file, a sheet
 * the workbook lacks, or `--sheet` with a CSV file is a usage error.
 */
export async function readBatchFile(
  file: string,
  method: WithdrawalMethod,
  defaultAccount: string | null,
  options: BatchFileOptions,
): Promise<{ rows: BatchRow[]; problems: string[] }> {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    throw usageError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  if (!isWorkbook(file, bytes)) {
    if (options.sheet.name !== undefined) throw usageError(`${options.sheet.flag} picks a sheet of a workbook (.xlsx), and ${file} is a CSV file: leave it out`);
    return parseBatch(bytes.toString('utf8'), method, defaultAccount, options);
  }
  const { readSheet } = await import('./workbook.js');
  let table;
  try {
    table = await readSheet(bytes, options.sheet);
  } catch (error) {
    if (error instanceof PayctlError) throw error;
    return { rows: [], problems: [(error as Error).message] };
  }
  return batchOf(table, method, defaultAccount, options.allowDuplicateRows);
}

/**
 * Reads and validates every row before anything is sent; returns the rows, or
 * every problem found with its line number. `defaultAccount` is the command's
 * account context, used by rows without a `subaccount` cell. Identical rows are a
 * problem (both lines named) unless allowed: then the file asks for one payment
 * per occurrence, so a rerun after removing one never pays it again.
 */
export function parseBatch(
  text: string,
  method: WithdrawalMethod,
  defaultAccount: string | null,
  options: BatchOptions,
): { rows: BatchRow[]; problems: string[] } {
  let table;
  try {
    table = parseCsv(text, KNOWN_COLUMNS, options.separator);
  } catch (error) {
    return { rows: [], problems: [(error as Error).message] };
  }
  return batchOf(table, method, defaultAccount, options.allowDuplicateRows);
}

/**
 * A `amount` cell (cents) that reads as reais (`1.234,56`, `12,50`, `R$ 12`) is
 * refused saying what it would be in cents: which of the two was meant cannot be known.
 */
function refuseReaisAsCents(raw: string | undefined): void {
  if (raw === undefined) return;
  const cents = centsIfReais(raw);
  if (cents === undefined) return;
  throw usageError(
    `amount ${JSON.stringify(raw.trim())} reads as reais, and the amount column is in cents: as reais it is ${cents} cents; ` +
      `write ${cents}, or name the column ${AMOUNT_BRL} to give every amount in reais`,
  );
}

/** A batch's rows from the table of its file (CSV or sheet), as parseBatch describes. */
function batchOf(
  table: CsvTable,
  method: WithdrawalMethod,
  defaultAccount: string | null,
  allowDuplicateRows: boolean,
): { rows: BatchRow[]; problems: string[] } {
  const columns: readonly string[] = [...columnsOf(withdrawFieldsOf(method)), AMOUNT_BRL, ...ROW_COLUMNS];
  const inReais = table.header.includes(AMOUNT_BRL);
  const amountColumn = inReais ? AMOUNT_BRL : FIELD_COLUMN.amount;
  const label = (field: WithdrawField) => (field === 'amount' ? amountColumn : FIELD_COLUMN[field]);
  const unknown = table.header.filter((name) => !columns.includes(name));
  const missing = requiredWithdrawFields(method)
    .filter((field) => !table.header.includes(label(field)))
    .map((field) => (field === 'amount' ? `${FIELD_COLUMN.amount} (cents) or ${AMOUNT_BRL} (reais)` : label(field)));
  // A second column of one name would silently win over the first: which amount was meant cannot be known.
  const repeated = [...new Set(table.header.filter((name, i) => table.header.indexOf(name) !== i))];
  const problems: string[] = [];
  if (repeated.length) problems.push(`column${repeated.length > 1 ? 's' : ''} ${repeated.join(', ')} named more than once in the header`);
  if (inReais && table.header.includes(FIELD_COLUMN.amount)) {
    problems.push(`columns ${FIELD_COLUMN.amount} and ${AMOUNT_BRL} are both in the header: give every amount one way, in cents (${FIELD_COLUMN.amount}) or in reais (${AMOUNT_BRL})`);
  }
  if (unknown.length)
    problems.push(`unknown column${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}; a ${method} batch takes ${columns.join(', ')} (${table.source})`);
  if (missing.length) problems.push(`missing column${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`);
  if (table.rows.length === 0 && table.problems.length === 0) problems.push('no rows under the header');
  if (problems.length) return { rows: [], problems };
  problems.push(...table.problems);

  const parsed: Array<Omit<BatchRow, 'key' | 'occurrence'>> = [];
  for (const { line, cells } of table.rows) {
    try {
      const fields: Partial<Record<WithdrawField, string>> = Object.fromEntries(withdrawFieldsOf(method).map((field) => [field, cells[label(field)]]));
      if (!inReais) refuseReaisAsCents(fields.amount);
      // Reais become the cents every other check and the journal know; the range is said in reais.
      else if (fields.amount?.trim()) fields.amount = String(parseWithdrawalReais(AMOUNT_BRL, fields.amount));
      const request = parseWithdrawRequest(method, fields, label);
      const account = cells.subaccount ? parseUuid('subaccount', cells.subaccount) : defaultAccount;
      const reference = cells.reference || null;
      if (reference && reference.length > MAX_REFERENCE) throw new Error(`reference is longer than ${MAX_REFERENCE} characters`);
      parsed.push({ line, account, request, reference });
    } catch (error) {
      problems.push(`${table.rowWord} ${line}: ${(error as Error).message}`);
    }
  }

  const seen = new Map<string, number[]>();
  const rows = parsed.map((row) => {
    const content = contentOf(method, row);
    const lines = seen.get(content) ?? [];
    lines.push(row.line);
    seen.set(content, lines);
    const occurrence = lines.length;
    return {
      ...row,
      occurrence,
      key: createHash('sha256')
        .update(JSON.stringify([content, occurrence]))
        .digest('hex')
        .slice(0, 32),
    };
  });
  if (!allowDuplicateRows) {
    for (const [content, lines] of seen) {
      if (lines.length < 2) continue;
      const row = rows.find((r) => contentOf(method, r) === content)!;
      problems.push(
        `${table.rowWord}s ${lines.slice(0, -1).join(', ')} and ${lines.at(-1)} are the same withdrawal (${describeRow(row)}): ` +
          'give each a different reference (a reference column), or pass --allow-duplicate-rows to pay each of them',
      );
    }
  }
  return { rows, problems };
}

/** What a row pays, as one string: rows with the same are the same withdrawal. */
const contentOf = (method: WithdrawalMethod, row: Pick<BatchRow, 'account' | 'request' | 'reference'>): string => {
  const { request } = row;
  return JSON.stringify([
    method,
    row.account,
    request.amount,
    request.bankAccountId,
    request.withdrawalMethod === 'pix' ? request.pixKeyType : null,
    request.withdrawalMethod === 'pix' ? request.pixKey : null,
    request.postbackUrl ?? null,
    row.reference,
  ]);
};

const describeRow = ({ request }: Pick<BatchRow, 'request'>) =>
  `${formatCentsExact(request.amount)} to ${request.withdrawalMethod === 'pix' ? `PIX key ${request.pixKey}` : `bank account ${request.bankAccountId}`}`;
