import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Context } from '../context.js';
import type { Services } from '../services.js';
import { usageError } from '../errors.js';
import { formatCents } from '../output/money.js';
import { findRecentTwin } from './duplicates.js';
import type { WithdrawalIdentity } from './identity.js';
import { describeHolder, LockBusy, takeLock } from './lock.js';

/** How long a withdrawal waits for another one in the same account to finish its check and send. */
const LOCK_WAIT_MS = 30_000;

/** Whether the command's flag that sends a duplicate anyway was given, and that flag, for messages. */
export interface DuplicateOverride {
  readonly given: boolean;
  readonly flag: string;
}

/**
 * Checks for a duplicate and sends, as one step across processes: a lock per
 * profile, base URL and account (in the config folder) is held around both, so of
 * two identical withdrawals started at the same moment the second finds the first.
 *
 * A withdrawal with the same amount, method and destination made in the last 10
 * minutes (on the API's clock) is most likely a repeat: at a terminal payctl says
 * so and asks again (default No); without one it refuses with exit 2, unless
 * the override's flag was given. A dry run only warns.
 */
export async function sendUnlessDuplicate<T>(ctx: Context, identity: WithdrawalIdentity, override: DuplicateOverride, send: () => Promise<T>): Promise<T> {
  if (ctx.services.flags.dryRun) {
    if (!override.given) {
      const what = await describeTwin(ctx, identity);
      if (what) await ctx.io.output.note(`warning: possible duplicate: ${what.text}`);
    }
    return send();
  }
  const lock = await takeWithdrawalLock(ctx.services);
  try {
    if (!override.given) await refuseDuplicate(ctx, identity, override.flag);
    return await send();
  } finally {
    await lock.release();
  }
}

async function refuseDuplicate(ctx: Context, identity: WithdrawalIdentity, allowFlag: string): Promise<void> {
  const { io, services } = ctx;
  const what = await describeTwin(ctx, identity);
  if (!what) return;
  if (!io.canPrompt) throw usageError(`possible duplicate: ${what.text}; nothing was sent`, `check it with payctl withdrawals get ${what.id}; pass ${allowFlag} to send it anyway`);
  io.stderr.write(`warning: possible duplicate: ${what.text}\n`);
  if (!(await (await services.prompter()).confirm('Make another withdrawal anyway?'))) throw usageError('not confirmed: nothing was sent');
}

async function describeTwin({ services }: Context, identity: WithdrawalIdentity) {
  const twin = await findRecentTwin(await services.api(), identity);
  if (!twin) return undefined;
  const text =
    `a ${identity.method} withdrawal of ${formatCents(identity.amount)} to the same ${identity.method === 'pix' ? 'PIX key' : 'bank account'} ` +
    `was made at ${twin.createdAt} in the ${services.accountLabel()} (${twin.id}, ${twin.status})`;
  return { id: twin.id, text };
}

async function takeWithdrawalLock(services: Services) {
  const { profileName, baseUrl, subaccount } = services.settings();
  const name = createHash('sha256').update(JSON.stringify([profileName, baseUrl, subaccount ?? null])).digest('hex').slice(0, 32);
  const folder = path.join(services.configDir, 'locks');
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  try {
    return await takeLock(path.join(folder, `withdraw-${name}.lock`), 'withdrawal lock', LOCK_WAIT_MS);
  } catch (error) {
    if (!(error instanceof LockBusy)) throw error;
    throw usageError(
      `another payctl has been making a withdrawal in the ${services.accountLabel()} for over ${LOCK_WAIT_MS / 1000} s` +
        `${error.holder ? ` (${describeHolder(error.holder)})` : ''}: nothing was sent`,
      'run it again once that one has finished; it may be waiting at a question',
    );
  }
}
