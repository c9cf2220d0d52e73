import type { Balances, WithdrawalMethod } from '../api/types.js';
import type { Environment } from '../config/store.js';
import { readsAtOnce } from '../http/reads-at-once.js';
import { formatCents, formatCentsExact, formatReais, reaisToCents } from '../money.js';
import { PAYMENT_TYPE_OF, withdrawalFeeCents } from './fees.js';

/**
 * Lines a withdrawal's confirmation shows before the question, single or batch:
 * the balance it draws on against what it takes, and its fee and what arrives.
 */

const BALANCE_OF: Record<WithdrawalMethod, keyof Balances> = {
  pix: 'disponiblePixBalance',
  card: 'disponibleCardBalance',
  boleto: 'disponibleBilletBalance',
};

/** The balance `method` draws on against `cents`, with the warning when it is short; `what` names `cents` (amount, total). */
export function drawsOnLines(method: WithdrawalMethod, balances: Balances, cents: number, what: 'amount' | 'total', where = ''): string[] {
  const available = balances[BALANCE_OF[method]];
  const short = reaisToCents(available) < cents;
  if (what === 'amount') return [`  draws on:     ${method} balance available ${formatReais(available)}${short ? '  ← less than the amount: the API will refuse it' : ''}`];
  return [
    `  draws on:     ${method} balance${where} available ${formatReais(available)}, batch total ${formatCents(cents)}`,
    ...(short ? ['                ← less than the total: the API will refuse what it cannot cover'] : []),
  ];
}

/**
 * A batch's balances against its totals, one account at a time (a row may name its
 * sub-account): each account's balance is read once, through `balanceOf`, all at once; one
 * that fails gives up the others; `signal` gives up all.
 */
export async function batchDrawsOnLines(
  method: WithdrawalMethod,
  rows: ReadonlyArray<{ account: string | null; amount: number }>,
  balanceOf: (account: string | null, signal: AbortSignal) => Promise<Balances>,
  signal?: AbortSignal,
): Promise<string[]> {
  const totals = new Map<string | null, number>();
  for (const { account, amount } of rows) totals.set(account, (totals.get(account) ?? 0) + amount);
  const read = await readsAtOnce(
    [...totals].map(([account, total]) => async (balanceSignal: AbortSignal) => ({ account, total, balances: await balanceOf(account, balanceSignal) })),
    signal,
  );
  // One account is the one the context lines name; several are named each.
  const where = (account: string | null) => (totals.size === 1 ? '' : ` of the ${account ? `sub-account ${account}` : 'main account'}`);
  return read.flatMap(({ account, total, balances }) => drawsOnLines(method, balances, total, 'total', where(account)));
}

/**
 * The fee of withdrawals of `amounts` and what arrives. payctl knows the fees of its
 * own sandbox only (local and sandbox profiles); the platform's are not in its API
 * reference, so a production profile says when they are known: after sending, in the
 * withdrawal's liquidAmount.
 */
export function feeLines(env: Environment, method: WithdrawalMethod, amounts: readonly number[]): string[] {
  if (env === 'production') return ["  fee:          set by the platform: what arrives (liquidAmount) is shown after sending"];
  const total = amounts.reduce((sum, amount) => sum + amount, 0);
  const fee = amounts.reduce((sum, amount) => sum + withdrawalFeeCents(PAYMENT_TYPE_OF[method], amount), 0);
  return [`  fee:          ${formatCentsExact(fee)}, the sandbox's fee schedule`, `  arrives:      ${formatCentsExact(total - fee)}`];
}
