import { getBankAccount } from '../../api/bank-accounts.js';
import { getBalance, withdraw } from '../../api/withdrawals.js';
import { PIX_KEY_TYPES, type Balances, type PixKeyType, type WithdrawalMethod, type WithdrawRequest } from '../../api/types.js';
import { formatCents, formatCentsExact, formatReais, reaisToCents } from '../../output/money.js';
import { resolveRequired, type FieldPrompt } from '../../prompt.js';
import { parsePixKey } from '../../validate.js';
import { sendUnlessDuplicate } from '../../withdrawal/duplicate-guard.js';
import { identityOf } from '../../withdrawal/identity.js';
import { refuseAboveWithdrawalLimit } from '../../withdrawal/limits.js';
import { waitForSettlement } from '../../withdrawal/wait.js';
import { ExitCode, PayctlError } from '../../errors.js';
import { confirmChange } from '../shared/confirm.js';
import { describeBankAccount, pickBankAccount } from '../shared/pickers.js';
import type { Invocation } from '../spec.js';
import { DEFAULT_WAIT_SECONDS, type withdrawBoleto, type withdrawCard, type withdrawPix } from './index.js';

type PixWithdrawal = Invocation<typeof withdrawPix>;
type SingleWithdrawal = PixWithdrawal | Invocation<typeof withdrawCard> | Invocation<typeof withdrawBoleto>;

const BALANCE_OF: Record<WithdrawalMethod, keyof Balances> = {
  pix: 'disponiblePixBalance',
  card: 'disponibleCardBalance',
  boleto: 'disponibleBilletBalance',
};

const PIX_KEY_TYPE_CHOICES = PIX_KEY_TYPES.map((value) => ({ name: value, value }));

const askAmount = (field: FieldPrompt) => field.text('Amount in cents (R$ 12,34 is 1234)');

/**
 * One withdrawal: every given flag is checked first, missing values are asked
 * (bank account from the account's list), then the balance, amount, destination,
 * account and profile are shown and confirmed before anything moves.
 */
export async function run(invocation: SingleWithdrawal): Promise<void> {
  const { io, services, opts, print } = invocation;
  const request = invocation.name === 'pix' ? await pixRequest(invocation) : await bankRequest(invocation);
  const method = request.withdrawalMethod;
  refuseAboveWithdrawalLimit(services.settings(), request.amount);
  const api = await services.api();
  const [balances, account] = await Promise.all([getBalance(api), getBankAccount(api, request.bankAccountId)]);
  const available = balances[BALANCE_OF[method]];
  const summary = [
    `About to withdraw by ${method.toUpperCase()}:`,
    `  amount:       ${formatCentsExact(request.amount)}`,
    `  draws on:     ${method} balance available ${formatReais(available)}` +
      (reaisToCents(available) < request.amount ? '  ← less than the amount: the API will refuse it' : ''),
    `  to:           bank account ${account.id}: ${describeBankAccount(account)}`,
    ...(request.withdrawalMethod === 'pix' ? [`  PIX key:      ${request.pixKeyType} ${request.pixKey}`] : []),
    ...(request.postbackUrl ? [`  postback:     ${request.postbackUrl}`] : []),
  ];
  await confirmChange(invocation, summary, `Withdraw ${formatCents(request.amount)} now?`);
  const created = await sendUnlessDuplicate(invocation, identityOf(request), opts.allowDuplicate, () => withdraw(api, request));
  if (!created) return;
  const follow = `payctl withdrawals get ${created.id}${services.settings().subaccount ? ` --subaccount ${services.settings().subaccount}` : ''}`;
  if (!opts.wait) {
    await print(created);
    await io.output.note(`withdrawal ${created.id} is ${created.status} in the ${services.accountLabel()}; follow it with: ${follow}`);
    return;
  }
  const seconds = opts.waitTimeout ?? DEFAULT_WAIT_SECONDS;
  await io.output.note(`withdrawal ${created.id} is ${created.status} in the ${services.accountLabel()}; waiting up to ${seconds} s for it to settle (Ctrl-C stops waiting, not the withdrawal)`);
  const { withdrawal, final } = await waitForSettlement(invocation, api, created, seconds * 1000);
  await print(withdrawal);
  if (!final) {
    throw new PayctlError(`withdrawal ${created.id} was made and is still ${String(withdrawal.status)} after ${seconds} s`, ExitCode.stillPending, {
      hint: `do not send it again; follow it with: ${follow}`,
    });
  }
  if (withdrawal.status === 'FAILED') {
    throw new PayctlError(`withdrawal ${created.id} FAILED: the platform did not pay it, and its amount is back in the balance`, ExitCode.withdrawalFailed, {
      hint: `see it with: ${follow}`,
    });
  }
  await io.output.note(`withdrawal ${created.id} is COMPLETED`);
}

/** A card or boleto withdrawal: the amount and the bank account it goes to. */
async function bankRequest(invocation: Exclude<SingleWithdrawal, PixWithdrawal>): Promise<WithdrawRequest> {
  const { name, opts, need } = invocation;
  const { amount, bankAccountId } = await resolveRequired(invocation, {
    bankAccountId: need('bankAccount', (field) => pickBankAccount(invocation, field)),
    amount: need('amount', askAmount),
  });
  return { withdrawalMethod: name, amount, bankAccountId, ...(opts.postbackUrl ? { postbackUrl: opts.postbackUrl } : {}) };
}

/** A PIX withdrawal: also the key and its type; a key is checked against its type as soon as both are known. */
async function pixRequest(invocation: PixWithdrawal): Promise<WithdrawRequest> {
  const { opts, flag, need } = invocation;
  if (opts.pixKeyType !== undefined && opts.pixKey !== undefined) parsePixKey(flag('pixKey'), opts.pixKey, opts.pixKeyType);
  // Asked in order, so a prompted key is checked against the type picked just before.
  let keyType = opts.pixKeyType;
  const { amount, bankAccountId, pixKeyType, pixKey } = await resolveRequired(invocation, {
    bankAccountId: need('bankAccount', (field) => pickBankAccount(invocation, field)),
    amount: need('amount', askAmount),
    pixKeyType: need('pixKeyType', async (field) => (keyType = await field.select<PixKeyType>('PIX key type', PIX_KEY_TYPE_CHOICES))),
    pixKey: need('pixKey', (field) => field.text('PIX key', (label, raw) => parsePixKey(label, raw, keyType!))),
  });
  return {
    withdrawalMethod: 'pix',
    amount,
    bankAccountId,
    pixKeyType,
    pixKey: parsePixKey(flag('pixKey'), pixKey, pixKeyType),
    ...(opts.postbackUrl ? { postbackUrl: opts.postbackUrl } : {}),
  };
}
