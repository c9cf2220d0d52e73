import { createHash } from 'node:crypto';
import type { WithdrawalMethod, WithdrawRequest } from '../api/types.js';
import { formatCentsExact } from '../output/money.js';
import { parseUuid } from '../validate.js';
import { parseWithdrawRequest, requiredWithdrawFields, withdrawFieldsOf, type WithdrawField, type WithdrawFields } from '../withdrawal/request.js';
import { parseCsv, type CsvSeparator } from './csv.js';

/** The CSV column of each field of a withdrawal's request. */
const FIELD_COLUMN: Readonly<Record<WithdrawField, string>> = {
  amount: 'amount',
  bankAccount: 'bank_account_id',
  pixKeyType: 'pix_key_type',
  pixKey: 'pix_key',
  postbackUrl: 'postback_url',
};
/** The columns of a row that are no field of its request: the account it runs in, and the user's reference. */
const ROW_COLUMNS = ['subaccount', 'reference'] as const;
const columnsOf = (fields: readonly WithdrawField[]) => fields.map((field) => FIELD_COLUMN[field]);
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
  separator?: CsvSeparator;
  allowDuplicateRows: boolean;
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
    table = parseCsv(text, [...Object.values(FIELD_COLUMN), ...ROW_COLUMNS], options.separator);
  } catch (error) {
    return { rows: [], problems: [(error as Error).message] };
  }
  const columns: readonly string[] = [...columnsOf(withdrawFieldsOf(method)), ...ROW_COLUMNS];
  const unknown = table.header.filter((name) => !columns.includes(name));
  const missing = columnsOf(requiredWithdrawFields(method)).filter((name) => !table.header.includes(name));
  // A second column of one name would silently win over the first: which amount was meant cannot be known.
  const repeated = [...new Set(table.header.filter((name, i) => table.header.indexOf(name) !== i))];
  const problems: string[] = [];
  if (repeated.length) problems.push(`column${repeated.length > 1 ? 's' : ''} ${repeated.join(', ')} named more than once in the header`);
  if (unknown.length)
    problems.push(
      `unknown column${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}; a ${method} batch takes ${columns.join(', ')} (separator "${table.separator}")`,
    );
  if (missing.length) problems.push(`missing column${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`);
  if (table.rows.length === 0 && table.problems.length === 0) problems.push('no rows under the header');
  if (problems.length) return { rows: [], problems };
  problems.push(...table.problems);

  const parsed: Array<Omit<BatchRow, 'key' | 'occurrence'>> = [];
  for (const { line, cells } of table.rows) {
    try {
      const fields: WithdrawFields = Object.fromEntries(withdrawFieldsOf(method).map((field) => [field, cells[FIELD_COLUMN[field]]]));
      const request = parseWithdrawRequest(method, fields, (field) => FIELD_COLUMN[field]);
      const account = cells.subaccount ? parseUuid('subaccount', cells.subaccount) : defaultAccount;
      const reference = cells.reference || null;
      if (reference && reference.length > MAX_REFERENCE) throw new Error(`reference is longer than ${MAX_REFERENCE} characters`);
      parsed.push({ line, account, request, reference });
    } catch (error) {
      problems.push(`line ${line}: ${(error as Error).message}`);
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
  if (!options.allowDuplicateRows) {
    for (const [content, lines] of seen) {
      if (lines.length < 2) continue;
      const row = rows.find((r) => contentOf(method, r) === content)!;
      problems.push(
        `lines ${lines.slice(0, -1).join(', ')} and ${lines.at(-1)} are the same withdrawal (${describeRow(row)}): ` +
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
