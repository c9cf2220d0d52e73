import { getBankAccount } from '../../api/bank-accounts.js';
import { getBalance, withdraw } from '../../api/withdrawals.js';
import { PIX_KEY_TYPES, type PixKeyType } from '../../api/types.js';
import { formatCents, formatCentsExact } from '../../money.js';
import { drawsOnLines, feeLines } from '../../withdrawal/confirmation.js';
import { resolveRequired, type FieldPrompt } from '../../prompt.js';
import { checkTwins, sendUnlessDuplicate } from '../../withdrawal/duplicate-guard.js';
import { identityOf } from '../../withdrawal/identity.js';
import { readsAtOnce } from '../../http/reads-at-once.js';
import { sendClaimed, singleClaim } from '../../ledger/index.js';
import { refuseAboveWithdrawalLimit } from '../../withdrawal/limits.js';
import { WITHDRAW_PARSERS, withdrawRequestOf, type WithdrawValues } from '../../withdrawal/request.js';
import { followToTheEnd } from '../../withdrawal/wait.js';
import { confirmChange } from '../shared/confirm.js';
import { describeBankAccount, pickBankAccount } from '../shared/pickers.js';
import { TRAIT_FLAGS } from '../../flags.js';
import { flagOf, type Invocation } from '../spec.js';
import { DEFAULT_WAIT_SECONDS } from '../shared/wait.js';
import type { withdrawBoleto, withdrawCard, withdrawPix } from './index.js';

type PixWithdrawal = Invocation<typeof withdrawPix>;
type SingleWithdrawal = PixWithdrawal | Invocation<typeof withdrawCard> | Invocation<typeof withdrawBoleto>;

const PIX_KEY_TYPE_CHOICES = PIX_KEY_TYPES.map((value) => ({ name: value, value }));

/** The amount, held at the prompt to the profile's --max-withdrawal too, so an amount above it is asked again at once. */
const askAmount =
  ({ services }: SingleWithdrawal) =>
  (field: FieldPrompt) =>
    field.text('Amount in cents (R$ 12,34 is 1234)', (flag, raw) => {
      const amount = WITHDRAW_PARSERS.amount(flag, raw);
      refuseAboveWithdrawalLimit(services.settings(), amount);
      return amount;
    });

/**
 * One withdrawal: given flags are parsed first, missing values are asked (bank
 * account from the account's list), the request is built by the rules a batch row
 * follows (src/withdrawal/request.ts), then the balance, amount, destination,
 * account and profile are shown and confirmed before anything moves.
 */
export async function run(invocation: SingleWithdrawal): Promise<void> {
  const { io, services, opts, flag, print } = invocation;
  const request = withdrawRequestOf(invocation.name === 'pix' ? await pixValues(invocation) : await bankValues(invocation));
  const method = request.withdrawalMethod;
  refuseAboveWithdrawalLimit(services.settings(), request.amount);
  const api = await services.api();
  const [balances, account] = await readsAtOnce([
    (signal) => getBalance(api, { signal }),
    (signal) => getBankAccount(api, request.bankAccountId, { signal }),
  ]);
  const summary = [
    `About to withdraw by ${method.toUpperCase()}:`,
    `  amount:       ${formatCentsExact(request.amount)}`,
    ...feeLines(services.settings().env, method, [request.amount]),
    ...drawsOnLines(method, balances, request.amount, 'amount'),
    `  to:           bank account ${account.id}: ${describeBankAccount(account)}`,
    ...(request.withdrawalMethod === 'pix' ? [`  PIX key:      ${request.pixKeyType} ${request.pixKey}`] : []),
    ...(request.postbackUrl ? [`  postback:     ${request.postbackUrl}`] : []),
  ];
  const override = { given: opts.allowDuplicate, flag: flag('allowDuplicate') };
  const identity = identityOf(request);
  await checkTwins(invocation, identity, override);
  await confirmChange(invocation, summary, `Withdraw ${formatCents(request.amount)} now?`);
  const claim = singleClaim(services, identity, override.given);
  const created = await sendUnlessDuplicate(invocation, identity, override, () => sendClaimed(invocation, claim, () => withdraw(api, request)));
  if (!created) return;
  const { subaccount } = services.settings();
  const follow = `payctl withdrawals get ${created.id}${subaccount ? ` ${flagOf('subaccount', TRAIT_FLAGS.accountContext.subaccount)} ${subaccount}` : ''}`;
  if (!opts.wait) {
    await print(created);
    await io.output.note(`withdrawal ${created.id} is ${created.status} in the ${services.accountLabel()}; follow it with: ${follow}`);
    return;
  }
  await followToTheEnd(invocation, api, created, opts.waitTimeout ?? DEFAULT_WAIT_SECONDS, { account: services.accountLabel(), follow, print });
}

/** A card or boleto withdrawal: the amount and the bank account it goes to. */
async function bankValues(invocation: Exclude<SingleWithdrawal, PixWithdrawal>): Promise<WithdrawValues> {
  const { name, opts, need } = invocation;
  const values = await resolveRequired(invocation, {
    bankAccount: need('bankAccount', (field) => pickBankAccount(invocation, field)),
    amount: need('amount', askAmount(invocation)),
  });
  return { method: name, ...values, postbackUrl: opts.postbackUrl };
}

/**
 * A PIX withdrawal: also the key and its type. The type is asked first, so the key's
 * prompt checks what is typed against it. A key and type both given as flags are
 * checked against each other before anything is asked or named as missing: nobody
 * answers questions for a command that is already wrong.
 */
async function pixValues(invocation: PixWithdrawal): Promise<WithdrawValues> {
  const { opts, need } = invocation;
  if (opts.pixKey && opts.pixKeyType) opts.pixKey(opts.pixKeyType);
  let keyType = opts.pixKeyType;
  const values = await resolveRequired(invocation, {
    bankAccount: need('bankAccount', (field) => pickBankAccount(invocation, field)),
    amount: need('amount', askAmount(invocation)),
    pixKeyType: need('pixKeyType', async (field) => (keyType = await field.select<PixKeyType>('PIX key type', PIX_KEY_TYPE_CHOICES))),
    pixKey: need('pixKey', (field) => field.text('PIX key', (label, raw) => WITHDRAW_PARSERS.pixKey(label, raw)(keyType!))),
  });
  return { method: 'pix', ...values, postbackUrl: opts.postbackUrl };
}
