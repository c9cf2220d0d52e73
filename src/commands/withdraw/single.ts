import { getBankAccount } from '../../api/bank-accounts.js';
import { getBalance, withdraw } from '../../api/withdrawals.js';
import type { Balances, WithdrawalMethod } from '../../api/types.js';
import type { Context } from '../../context.js';
import { usageError } from '../../errors.js';
import { formatCents, formatCentsExact, formatReais, reaisToCents } from '../../output/money.js';
import { withdrawalView } from '../../output/views.js';
import { resolveRequired, type Prompter } from '../../prompt.js';
import { PIX_KEY_TYPES, type PixKeyType } from '../../api/types.js';
import { asPromptCheck, parsePixKey, parseWithdrawalAmount } from '../../validate.js';
import { confirmChange } from '../shared/confirm.js';
import { describeBankAccount, pickBankAccount } from '../shared/pickers.js';
import { optString, type CommandInput } from '../spec.js';
import { identityOf } from '../../withdrawal/identity.js';
import { parseGivenWithdrawFields, parseWithdrawRequest, WITHDRAW_FLAGS } from '../../withdrawal/request.js';
import { BATCH_ONLY_FLAGS } from './batch-flags.js';
import { sendUnlessDuplicate } from './duplicate-guard.js';

const BALANCE_OF: Record<WithdrawalMethod, keyof Balances> = {
  pix: 'disponiblePixBalance',
  card: 'disponibleCardBalance',
  boleto: 'disponibleBilletBalance',
};

const PIX_KEY_TYPE_CHOICES = PIX_KEY_TYPES.map((value) => ({ name: value, value }));

/**
 * One withdrawal: every given flag is checked first, missing values are asked
 * (bank account from the account's list), then the balance, amount, destination,
 * account and profile are shown and confirmed before anything moves.
 */
export async function runWithdraw(ctx: Context, method: WithdrawalMethod, { opts }: CommandInput): Promise<void> {
  if (opts.fromCsv !== undefined) return (await import('./batch.js')).runBatch(ctx, method, String(opts.fromCsv), opts);
  const batchOnly = Object.entries(BATCH_ONLY_FLAGS).filter(([key]) => opts[key] !== undefined).map(([, flag]) => flag);
  if (batchOnly.length > 0) {
    throw usageError(`${batchOnly.join(', ')} only apply to a batch: add --from-csv FILE, or use payctl withdraw batch FILE --method ${method}`);
  }
  ctx.output.fieldsFor(withdrawalView);
  const flag = (key: string) => optString(opts, key);
  const amountText = flag('amount');
  const bankAccountText = flag('bankAccount');
  const pixKeyText = flag('pixKey');
  const postbackText = flag('postbackUrl');
  // Every given value is checked before any prompt or request.
  const { pixKeyType: givenType } = parseGivenWithdrawFields(method, {
    amount: amountText,
    bankAccount: bankAccountText,
    pixKeyType: flag('pixKeyType'),
    pixKey: pixKeyText,
    postbackUrl: postbackText,
  });

  // resolveRequired asks in order, so a prompted key is checked against the type picked just before.
  let keyType = givenType;
  const amountPrompt = (p: Prompter) => p.text('Amount in cents (R$ 12,34 is 1234)', { validate: asPromptCheck(parseWithdrawalAmount, '--amount') });
  const fields =
    method === 'pix'
      ? await resolveRequired(ctx, {
          bankAccount: { flag: WITHDRAW_FLAGS.bankAccount, value: bankAccountText, ask: () => pickBankAccount(ctx) },
          amount: { flag: WITHDRAW_FLAGS.amount, value: amountText, ask: amountPrompt },
          pixKeyType: { flag: WITHDRAW_FLAGS.pixKeyType, value: givenType as string | undefined, ask: async (p) => (keyType = await p.select<PixKeyType>('PIX key type', PIX_KEY_TYPE_CHOICES)) },
          pixKey: { flag: WITHDRAW_FLAGS.pixKey, value: pixKeyText, ask: (p) => p.text('PIX key', { validate: asPromptCheck((f, raw) => parsePixKey(f, raw, keyType!), '--pix-key') }) },
        })
      : await resolveRequired(ctx, {
          bankAccount: { flag: WITHDRAW_FLAGS.bankAccount, value: bankAccountText, ask: () => pickBankAccount(ctx) },
          amount: { flag: WITHDRAW_FLAGS.amount, value: amountText, ask: amountPrompt },
        });
  const request = parseWithdrawRequest(method, { ...fields, postbackUrl: postbackText });

  const api = await ctx.api();
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
  await confirmChange(ctx, summary, `Withdraw ${formatCents(request.amount)} now?`);
  const created = await sendUnlessDuplicate(ctx, identityOf(request), opts.allowDuplicate === true, () => withdraw(api, request));
  await ctx.output.item(withdrawalView, created);
  await ctx.output.note(`withdrawal ${created.id} is ${created.status} in the ${ctx.accountLabel()}; follow it with: payctl withdrawals get ${created.id}`);
}
