import { createHash } from 'node:crypto';
import path from 'node:path';
import type { BatchRow } from '../batch/rows.js';
import type { ApiClient } from '../http/client.js';
import type { IOStreams } from '../iostreams.js';
import { LISTED_ABOVE, usageError } from '../errors.js';
import { formatCents } from '../money.js';
import { visible } from '../output/sanitize.js';
import { formatLocalTime } from '../output/time.js';
import { duplicateWindowOf, recentWithdrawals, twinFinder } from './duplicates.js';
import { identityOf, idOf, type WithdrawalIdentity } from './identity.js';
import { describeHolder, LockBusy, platformAccount, takeLock, userLockFolder, type HeldLock, type LockHolder } from './lock.js';
import { hasTeamLedger, makersOfTwins, rowClaimKey, singleClaimKey, type LedgerRun } from '../ledger/index.js';

/** What the guard takes of a run: its streams, its settings and API client, and its account as a person reads it. */
interface GuardRun {
  readonly io: IOStreams;
  readonly services: LedgerRun & { api(): Promise<ApiClient>; accountLabel(subaccount?: string | null): string };
}

/** How long a withdrawal waits for another one in the same account to finish its check and send. */
const LOCK_WAIT_MS = 30_000;

/** Whether the command's flag that sends a duplicate anyway was given, and that flag, for messages. */
export interface DuplicateOverride {
  readonly given: boolean;
  readonly flag: string;
}

/**
 * Before the confirmation: a single withdrawal with a twin on the platform (same
 * method, amount, bank account and key, made within the profile's duplicate
 * window, by anyone) is refused, exit 2, each twin named, unless the override's
 * flag was given. A dry run only warns.
 */
export async function checkTwins(ctx: GuardRun, identity: WithdrawalIdentity, override: DuplicateOverride): Promise<void> {
  if (override.given) return;
  const twins = await findTwins(ctx, identity);
  if (twins.length === 0) return;
  const refusal = await twinsRefusal(ctx, identity, twins, override.flag);
  if (ctx.services.flags.dryRun) await ctx.io.output.note(`warning: ${refusal.message.replace(/: nothing was sent$/, '')}`);
  else throw refusal;
}

/**
 * Checks for twins again and sends, as one step across processes: a lock named
 * after the platform account (see platformAccount), in a folder every payctl of
 * this user sees, is held around both, so of two identical withdrawals started
 * at the same moment, through any profile, config folder or spelling of the
 * base URL, the second finds the first.
 */
export async function sendUnlessDuplicate<T>(ctx: GuardRun, identity: WithdrawalIdentity, override: DuplicateOverride, send: () => Promise<T>): Promise<T> {
  if (ctx.services.flags.dryRun) return send();
  const lock = await takeWithdrawalLock(ctx, ctx.services.settings().subaccount ?? null);
  try {
    if (!override.given) {
      const twins = await findTwins(ctx, identity);
      if (twins.length > 0) throw await twinsRefusal(ctx, identity, twins, override.flag);
    }
    return await send();
  } finally {
    await lock.release();
  }
}

/**
 * Before a batch's confirmation: each row to send compared with the withdrawals
 * its account made within the duplicate window, read once per account for the
 * whole file. Withdrawals the batch's own journal holds (`paidByJournal`) are
 * its rows, not twins. Rows with twins are refused (exit 2, each row and twin
 * named) unless the override's flag was given; a dry run only warns. Returns
 * the confirmation's line about duplicates, if any.
 */
export async function checkBatchTwins(
  ctx: GuardRun,
  rows: readonly BatchRow[],
  paidByJournal: ReadonlySet<string>,
  clientFor: (account: string | null) => Promise<ApiClient>,
  override: DuplicateOverride,
): Promise<string[]> {
  const window = duplicateWindowOf(ctx.services.settings());
  const recent = new Map<string | null, Promise<(identity: WithdrawalIdentity) => unknown[]>>();
  const readOnce = (account: string | null) => {
    let read = recent.get(account);
    if (!read) recent.set(account, (read = clientFor(account).then(async (client) => twinFinder(await recentWithdrawals(client, window), paidByJournal))));
    return read;
  };
  const found: Array<{ row: BatchRow; twins: unknown[] }> = [];
  for (const row of rows) {
    const twins = (await readOnce(row.account))(identityOf(row.request));
    if (twins.length > 0) found.push({ row, twins });
  }
  if (found.length === 0) return [];
  const what = `${found.length} of ${rows.length} rows match withdrawals already on the platform, made in the last ${window.text}`;
  if (override.given) return [`  duplicates:   ${what}: sent anyway (${override.flag})`];
  const makers = await makersOfTwins(ctx.services, found.map(({ row, twins }) => ({ key: rowClaimKey(ctx.services, row), twins })));
  const lines = found.flatMap(({ row, twins }, i) => [
    `  line ${row.line}: ${formatCents(row.request.amount)} by ${row.request.withdrawalMethod.toUpperCase()} to ${destinationOf(identityOf(row.request))}`,
    ...twins.map((twin, j) => `    twin: ${describeTwin(twin, makers[i]?.[j])}`),
  ]);
  listTwins(ctx, lines);
  if (ctx.services.flags.dryRun) {
    await ctx.io.output.note(`warning: ${what} ${LISTED_ABOVE}`);
    return [];
  }
  throw usageError(`${what} ${LISTED_ABOVE}: nothing was sent`, `check them with payctl withdrawals list; pass ${override.flag} to send every row anyway`, lines);
}

/**
 * After a batch's confirmation, without a team ledger: its twin check again and
 * its sending as one step across processes on this machine, as a single
 * withdrawal's are (sendUnlessDuplicate). The withdrawal lock of each account
 * its rows draw on is held, taken in one order (by lock name) so that two runs
 * never wait for each other in a circle, from the check until `send` ends; so a
 * copy of the file, or a single withdrawal of one of its rows, started at the
 * same moment waits and then finds these withdrawals as twins. With a team
 * ledger each row's claim already does this across machines, and a dry run
 * sends nothing: neither takes these locks.
 */
export async function sendBatchUnlessDuplicate<T>(
  ctx: GuardRun,
  rows: readonly BatchRow[],
  paidByJournal: ReadonlySet<string>,
  clientFor: (account: string | null) => Promise<ApiClient>,
  override: DuplicateOverride,
  send: () => Promise<T>,
): Promise<T> {
  if (ctx.services.flags.dryRun || hasTeamLedger(ctx.services)) return send();
  const accounts = new Map(rows.map((row) => [withdrawalLockName(ctx.services, row.account), row.account]));
  const locks: HeldLock[] = [];
  try {
    for (const [, account] of [...accounts].sort(([a], [b]) => (a < b ? -1 : 1))) locks.push(await takeWithdrawalLock(ctx, account));
    if (!override.given) await checkBatchTwins(ctx, rows, paidByJournal, clientFor, override);
    return await send();
  } finally {
    for (const lock of locks.reverse()) await lock.release();
  }
}

/** The twins found, a line each, on stderr, before the error or warning that counts them: their text is the server's, made visible. */
const listTwins = ({ io }: GuardRun, lines: readonly string[]) => io.stderr.write(`${lines.map(visible).join('\n')}\n`);

async function findTwins({ services }: GuardRun, identity: WithdrawalIdentity): Promise<unknown[]> {
  const items = await recentWithdrawals(await services.api(), duplicateWindowOf(services.settings()));
  return twinFinder(items)(identity);
}

/** Lists the twins and says what they are; the error is thrown, or under --dry-run its message warned. */
async function twinsRefusal(ctx: GuardRun, identity: WithdrawalIdentity, twins: readonly unknown[], allowFlag: string) {
  const { services } = ctx;
  const [makers] = await makersOfTwins(services, [{ key: singleClaimKey(services, identity), twins }]);
  const lines = twins.map((twin, i) => `  ${describeTwin(twin, makers?.[i])}`);
  listTwins(ctx, lines);
  const id = idOf(twins[0]);
  const check = id === undefined ? 'payctl withdrawals list' : `payctl withdrawals get ${id}`;
  return usageError(
    `possible duplicate: the same withdrawal was made ${twins.length > 1 ? `${twins.length} times ` : ''}in the last ${duplicateWindowOf(services.settings()).text} ` +
      `in the ${services.accountLabel()} ${LISTED_ABOVE}: nothing was sent`,
    `check it with ${check}; pass ${allowFlag} to send it anyway`,
    lines,
  );
}

const destinationOf = ({ bankAccountId, pixKey }: { bankAccountId: unknown; pixKey?: unknown }) =>
  `bank account ${String(bankAccountId ?? 'unknown')}${pixKey !== undefined && pixKey !== null ? `, PIX key ${String(pixKey)}` : ''}`;

/**
 * A listed withdrawal as a person checks it: when (local time), amount, method and destination,
 * status, id, and who made it where the team's ledger knows; what it lacks is said unknown.
 */
function describeTwin(item: unknown, maker: string | undefined): string {
  const fields = (item && typeof item === 'object' ? item : {}) as Record<string, unknown>;
  const text = (value: unknown) => (typeof value === 'string' || typeof value === 'number' ? String(value) : 'unknown');
  const when = typeof fields.createdAt === 'string' ? formatLocalTime(fields.createdAt) : 'unknown';
  const amount = typeof fields.amount === 'number' ? formatCents(fields.amount) : 'amount unknown';
  return (
    `made ${when} (local time), ${amount} by ${text(fields.withdrawalPaymentType)} to ${destinationOf(fields as { bankAccountId: unknown; pixKey?: unknown })}, ` +
    `${text(fields.status)}, id ${text(fields.id)}${maker ? `, ${maker}` : ''}`
  );
}

/** The name of an account's withdrawal lock (see platformAccount): one per platform account, whatever names or spells it. */
function withdrawalLockName(services: GuardRun['services'], subaccount: string | null): string {
  const account = platformAccount(services.settings().baseUrl, subaccount ?? undefined);
  return `withdraw-${createHash('sha256').update(account).digest('hex').slice(0, 32)}.lock`;
}

/**
 * The withdrawal lock of the main account (`null`) or a sub-account. Held by another payctl, it is waited
 * for up to LOCK_WAIT_MS, saying so (a person sees why nothing happens yet), else refused naming its holder.
 */
async function takeWithdrawalLock({ io, services }: GuardRun, subaccount: string | null): Promise<HeldLock> {
  const heldBy = (holder: LockHolder | undefined) => (holder ? ` (${describeHolder(holder)})` : '');
  const account = services.accountLabel(subaccount);
  try {
    return await takeLock(path.join(userLockFolder(), withdrawalLockName(services, subaccount)), 'withdrawal lock', LOCK_WAIT_MS, (holder) =>
      io.output.note(`waiting up to ${LOCK_WAIT_MS / 1000} s for another payctl making a withdrawal in the ${account}${heldBy(holder)}`),
    );
  } catch (error) {
    if (!(error instanceof LockBusy)) throw error;
    throw usageError(
      `another payctl has been making a withdrawal in the ${account} for over ${LOCK_WAIT_MS / 1000} s${heldBy(error.holder)}: nothing was sent`,
      'run it again once that one has finished',
    );
  }
}
