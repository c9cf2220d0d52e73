import { listWithdrawals } from '../../api/withdrawals.js';
import type { Withdrawal } from '../../api/types.js';
import { sameWithdrawal, type WithdrawalIdentity } from '../../batch/match.js';
import type { Context } from '../../context.js';
import { usageError } from '../../errors.js';
import { formatCents } from '../../output/money.js';

const WINDOW_MS = 10 * 60 * 1000;
/** Enough for any real pace of withdrawals in 10 minutes, and a bound on a slow list. */
const MAX_PAGES = 20;

/**
 * The withdrawals list comes newest first: pages are read until one holds
 * nothing from the window, so a busy account (a batch just ran) is still covered.
 */
async function findRecentTwin(ctx: Context, identity: WithdrawalIdentity): Promise<Withdrawal | undefined> {
  const api = await ctx.api();
  const since = Date.now() - WINDOW_MS;
  for (let page = 1; page <= MAX_PAGES; page++) {
    const { items, total } = await listWithdrawals(api, { page, limit: 100 });
    const recent = items.filter((w) => Date.parse(w.createdAt) >= since);
    const twin = recent.find((w) => sameWithdrawal(w, identity));
    if (twin) return twin;
    if (recent.length === 0 || page * 100 >= total) return undefined;
  }
  return undefined;
}

/**
 * A withdrawal with the same amount, method and key (PIX key; for card and
 * boleto the bank account) made in the last 10 minutes in this account is most
 * likely a repeat: say so on stderr and ask again (default No); without a
 * terminal refuse with exit 2, unless --allow-duplicate.
 */
export async function guardAgainstDuplicate(ctx: Context, identity: WithdrawalIdentity, allowDuplicate: boolean): Promise<void> {
  if (allowDuplicate) return;
  const twin = await findRecentTwin(ctx, identity);
  if (!twin) return;
  const what =
    `a ${identity.method} withdrawal of ${formatCents(identity.amount)} to the same ${identity.method === 'pix' ? 'PIX key' : 'bank account'} ` +
    `was made at ${twin.createdAt} in the ${ctx.accountLabel()} (${twin.id}, ${twin.status})`;
  if (ctx.flags.dryRun) {
    await ctx.output.note(`warning: possible duplicate: ${what}`);
    return;
  }
  if (!ctx.canPrompt) {
    throw usageError(`possible duplicate: ${what}; nothing was sent`, `check it with payctl withdrawals get ${twin.id}; pass --allow-duplicate to send it anyway`);
  }
  ctx.io.stderr.write(`warning: possible duplicate: ${what}\n`);
  if (!(await (await ctx.prompter()).confirm('Make another withdrawal anyway?'))) throw usageError('not confirmed: nothing was sent');
}
