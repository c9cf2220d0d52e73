import type { View } from '../output/views.js';
import { counted } from '../output/footer.js';
import { formatCentsExact } from '../money.js';
import type { BatchRow } from './rows.js';

/**
 * What happened to each row. `sent`, `already-done` (an earlier run) and
 * `reconciled` (found by --reconcile) are paid; `failed` was refused by the API
 * (nothing moved; a rerun tries it again); `unknown` was sent and got no answer
 * (settle it with --reconcile); `not-sent` never reached the API (connection
 * refused, DNS) or was left after a stop (an interruption, an authentication
 * failure, an earlier row that never reached it): a rerun sends it; `planned`
 * would be sent (--dry-run).
 */
export type RowOutcome = 'sent' | 'already-done' | 'reconciled' | 'failed' | 'unknown' | 'not-sent' | 'planned';

export interface ReportRow {
  line: number;
  outcome: RowOutcome;
  withdrawalId: string | null;
  status: string | null;
  amount: number;
  bankAccountId: number;
  pixKey: string | null;
  account: string | null;
  reference: string | null;
  error: string | null;
  key: string;
}

export const PAID: readonly RowOutcome[] = ['sent', 'already-done', 'reconciled'];

export const batchReportView: View = {
  noun: 'rows',
  fields: ['line', 'outcome', 'withdrawalId', 'status', 'amount', 'bankAccountId', 'pixKey', 'account', 'reference', 'error', 'key'],
  columns: [
    { field: 'line' },
    { field: 'outcome', hide: 2 },
    { field: 'withdrawalId', header: 'withdrawal', hide: 1 },
    { field: 'amount', hide: 3 },
    { field: 'bankAccountId', header: 'bank account', hide: 5 },
    { field: 'pixKey', header: 'pix key', hide: 6 },
    { field: 'error', hide: 4 },
  ],
  kinds: { line: 'id', amount: 'cents', outcome: 'status', withdrawalId: 'id', bankAccountId: 'id', pixKey: 'pixKey', key: 'id' },
};

export const reportRow = (
  row: Pick<BatchRow, 'line' | 'key' | 'account' | 'request' | 'reference'>,
  outcome: RowOutcome,
  extra: Partial<ReportRow> = {},
): ReportRow => ({
  line: row.line,
  outcome,
  withdrawalId: null,
  status: null,
  amount: row.request.amount,
  bankAccountId: row.request.bankAccountId,
  pixKey: row.request.withdrawalMethod === 'pix' ? row.request.pixKey : null,
  account: row.account,
  reference: row.reference,
  error: null,
  key: row.key,
  ...extra,
});

const accountName = (account: string | null) => (account ? `sub-account ${account}` : 'main account');

/** Count, total and totals per account and bank account: what the confirmation shows before anything moves. */
export function batchTotals(rows: readonly BatchRow[]): string[] {
  const total = rows.reduce((sum, row) => sum + row.request.amount, 0);
  const groups = new Map<string, { count: number; cents: number }>();
  for (const row of rows) {
    const name = `${accountName(row.account)} → bank account ${row.request.bankAccountId}`;
    const group = groups.get(name) ?? { count: 0, cents: 0 };
    group.count++;
    group.cents += row.request.amount;
    groups.set(name, group);
  }
  return [
    `  withdrawals:  ${rows.length}`,
    `  total:        ${formatCentsExact(total)}`,
    '  per account:',
    ...[...groups].map(([name, g]) => `    ${name}: ${g.count} withdrawal${g.count === 1 ? '' : 's'}, ${formatCentsExact(g.cents)}`),
  ];
}

/** The end-of-run summary on stderr: counts, then each failure with its reason, then each unknown row. */
export function batchSummary(report: readonly ReportRow[]): string[] {
  const count = (outcomes: readonly RowOutcome[]) => report.filter((r) => outcomes.includes(r.outcome)).length;
  // Two lines, each within 80 columns.
  const lines = [
    `batch: ${counted(report.length, 'rows')}: ${count(PAID)} done ` +
      `(${count(['sent'])} now, ${count(['already-done'])} before, ${count(['reconciled'])} reconciled)`,
    `       ${count(['failed'])} failed, ${count(['unknown'])} unknown, ${count(['not-sent'])} not sent`,
  ];
  return [...lines, ...failedLines(report), ...unknownLines(report)];
}

/** Each failed row with its reason, as the summary lists it. */
export const failedLines = (report: readonly ReportRow[]): string[] =>
  report.filter((r) => r.outcome === 'failed').map((row) => `  failed   line ${row.line}: ${row.error}`);

/**
 * Under --dry-run, the plan on stderr (stdout has the recorded requests): how many
 * rows a run would send and how many it would skip as done, then each row of
 * unknown outcome, which it would refuse.
 */
export function planSummary(report: readonly ReportRow[]): string[] {
  const count = (outcomes: readonly RowOutcome[]) => report.filter((r) => outcomes.includes(r.outcome)).length;
  const unknown = count(['unknown']);
  return [
    `batch: ${counted(report.length, 'rows')}: ${count(['planned'])} to send, ${count(PAID)} already done${unknown ? `, ${unknown} unknown` : ''}`,
    ...unknownLines(report),
  ];
}

const unknownLines = (report: readonly ReportRow[]): string[] =>
  report.filter((r) => r.outcome === 'unknown').map((row) => `  unknown  line ${row.line}: ${row.error ?? 'sent, no answer recorded'}`);
