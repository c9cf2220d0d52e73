import type { Settings } from '../config/settings.js';
import { usageError } from '../errors.js';
import { formatCentsExact } from '../money.js';

/**
 * A profile's limits (`profiles set NAME --max-withdrawal C --max-batch-total C`):
 * a withdrawal above the one, or a batch whose total is above the other, is
 * refused before anything is sent, with --yes or without, and under --dry-run
 * too (a dry run that passes promises a run that passes).
 */

const fix = (profileName: string, flag: string) => `the limit is the profile's: payctl profiles set ${profileName} ${flag} CENTS (or --clear-${flag.slice(2)})`;

/** Refuses one withdrawal above the profile's --max-withdrawal. */
export function refuseAboveWithdrawalLimit({ profile, profileName }: Settings, amount: number): void {
  const limit = profile?.maxWithdrawal;
  if (limit === undefined || amount <= limit) return;
  throw usageError(
    `${formatCentsExact(amount)} is above the largest withdrawal profile "${profileName}" allows (--max-withdrawal ${formatCentsExact(limit)}): nothing was sent`,
    fix(profileName, '--max-withdrawal'),
  );
}

/**
 * Refuses a batch with a row above the profile's --max-withdrawal (each named by
 * line), or whose total, every row of the file counted, is above --max-batch-total.
 */
export function refuseAboveBatchLimits({ profile, profileName }: Settings, rows: ReadonlyArray<{ line: number; amount: number }>, file: string): void {
  const single = profile?.maxWithdrawal;
  const over = single === undefined ? [] : rows.filter((row) => row.amount > single);
  if (single !== undefined && over.length > 0) {
    throw usageError(
      `${file}: line${over.length > 1 ? 's' : ''} ${over.map((row) => row.line).join(', ')} ${over.length > 1 ? 'are' : 'is'} above the largest withdrawal profile "${profileName}" allows ` +
        `(--max-withdrawal ${formatCentsExact(single)}): nothing was sent`,
      fix(profileName, '--max-withdrawal'),
    );
  }
  const limit = profile?.maxBatchTotal;
  const total = rows.reduce((sum, row) => sum + row.amount, 0);
  if (limit === undefined || total <= limit) return;
  throw usageError(
    `${file}: the batch's total ${formatCentsExact(total)} is above the largest batch profile "${profileName}" allows (--max-batch-total ${formatCentsExact(limit)}): nothing was sent`,
    fix(profileName, '--max-batch-total'),
  );
}

/** `api` routes that are the withdrawal's, however the path is spelled (`%77ithdraw`, `//`, a trailing `/`, any case). */
function isWithdrawalRoute(path: string): boolean {
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    // A malformed escape: the route as written.
  }
  return decoded.toLowerCase().replace(/\/+/g, '/').replace(/\/$/, '') === '/withdrawals/withdraw';
}

/** Whether an `api` call writes to the withdrawal route: money may move. */
export const isApiWithdrawal = (method: string, path: string): boolean => method !== 'GET' && method !== 'DELETE' && isWithdrawalRoute(path);

/**
 * `api` writing to the withdrawal route is held to --max-withdrawal as `withdraw` is. A
 * body whose amount payctl cannot read as a number could still pay any sum, so under a
 * limit it is refused rather than sent unchecked.
 */
export function refuseApiWithdrawalAboveLimit(settings: Settings, method: string, path: string, body: unknown): void {
  if (!isApiWithdrawal(method, path) || settings.profile?.maxWithdrawal === undefined) return;
  const amount: unknown = body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as { amount?: unknown }).amount : undefined;
  if (typeof amount !== 'number' || !Number.isFinite(amount)) {
    throw usageError(
      `the body's amount is not a number, so the withdrawal cannot be checked against profile "${settings.profileName}"'s --max-withdrawal: nothing was sent`,
      'give the amount as integer cents, e.g. {"amount": 1234, …}',
    );
  }
  refuseAboveWithdrawalLimit(settings, amount);
}
