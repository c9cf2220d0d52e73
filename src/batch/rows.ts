import { createHash } from 'node:crypto';
import type { WithdrawalMethod, WithdrawRequest } from '../api/types.js';
import { parseWithdrawRequest, type WithdrawField, type WithdrawFields } from '../commands/withdraw/request.js';
import { parseUuid } from '../validate.js';
import { parseCsv } from './csv.js';

/** The CSV columns a batch reads, and the request field each one fills. */
export const BATCH_COLUMNS: Readonly<Record<string, WithdrawField | 'subaccount'>> = {
  amount: 'amount',
  bank_account_id: 'bankAccount',
  pix_key_type: 'pixKeyType',
  pix_key: 'pixKey',
  postback_url: 'postbackUrl',
  subaccount: 'subaccount',
};
const COLUMN_OF = Object.fromEntries(Object.entries(BATCH_COLUMNS).map(([column, field]) => [field, column]));
const PIX_ONLY = ['pix_key_type', 'pix_key'];

export interface BatchRow {
  line: number;
  /** Identifies the row in the journal: its line number and content, so an edited row is a new row. */
  key: string;
  /** Sub-account the row runs in; null for the main account. */
  account: string | null;
  request: WithdrawRequest;
}

/**
 * Reads and validates every row before anything is sent; returns the rows, or
 * every problem found with its line number. `defaultAccount` is the command's
 * account context, used by rows without a `subaccount` cell.
 */
export function parseBatch(text: string, method: WithdrawalMethod, defaultAccount: string | null): { rows: BatchRow[]; problems: string[] } {
  let table;
  try {
    table = parseCsv(text);
  } catch (error) {
    return { rows: [], problems: [(error as Error).message] };
  }
  const columns = Object.keys(BATCH_COLUMNS).filter((column) => method === 'pix' || !PIX_ONLY.includes(column));
  const unknown = table.header.filter((name) => !columns.includes(name));
  const required = method === 'pix' ? ['amount', 'bank_account_id', 'pix_key_type', 'pix_key'] : ['amount', 'bank_account_id'];
  const missing = required.filter((name) => !table.header.includes(name));
  const problems: string[] = [];
  if (unknown.length) problems.push(`unknown column${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}; a ${method} batch takes ${columns.join(', ')}`);
  if (missing.length) problems.push(`missing column${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`);
  if (table.rows.length === 0) problems.push('no rows under the header');
  if (problems.length) return { rows: [], problems };

  const rows: BatchRow[] = [];
  for (const { line, cells } of table.rows) {
    const label = (field: WithdrawField | 'subaccount') => COLUMN_OF[field]!;
    try {
      const fields: WithdrawFields = { amount: cells.amount, bankAccount: cells.bank_account_id, pixKeyType: cells.pix_key_type, pixKey: cells.pix_key, postbackUrl: cells.postback_url };
      const request = parseWithdrawRequest(method, fields, label);
      const account = cells.subaccount ? parseUuid(label('subaccount'), cells.subaccount) : defaultAccount;
      rows.push({ line, key: rowKey(line, method, account, request), account, request });
    } catch (error) {
      problems.push(`line ${line}: ${(error as Error).message}`);
    }
  }
  return { rows, problems };
}

const rowKey = (line: number, method: string, account: string | null, request: WithdrawRequest) =>
  createHash('sha256').update(JSON.stringify([line, method, account, request])).digest('hex').slice(0, 24);

