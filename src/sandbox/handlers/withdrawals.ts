import { randomUUID } from 'node:crypto';
import type {
  Balances, CreditBalanceRequest, SettlementStatus, SettleWithdrawalRequest, Withdrawal, WithdrawalMethod, WithdrawalPaymentType, WithdrawRequest,
} from '../../api/types.js';
import type { ChangeSet } from '../changes.js';
import { findOrFail, pageQuery, single, type CompanyRequest, type Reply } from '../context.js';
import { ApiError } from '../errors.js';
import { withdrawalLiquidCents } from '../../withdrawal/fees.js';
import { isValidPixKey } from '../../validation/rules.js';
import type { PostbackDispatcher } from '../postbacks.js';
import type { Account, BalanceCents, Company } from '../store.js';
import { findBankAccount } from './bankAccounts.js';

/** Highest balance the sandbox keeps (R$ 100 billion), far below Number.MAX_SAFE_INTEGER so cents stay exact. */
export const MAX_BALANCE_CENTS = 10_000_000_000_000;

type AvailableBalance = Exclude<keyof BalanceCents, 'processing'>;

/** Which available balance each method debits, and how the record names the method. */
const METHODS: Record<WithdrawalMethod, { balance: AvailableBalance; paymentType: WithdrawalPaymentType }> = {
  pix: { balance: 'pix', paymentType: 'PIX' },
  card: { balance: 'card', paymentType: 'CARD' },
  boleto: { balance: 'billet', paymentType: 'BOLETO' },
};
const BALANCE_OF_PAYMENT_TYPE: Record<WithdrawalPaymentType, AvailableBalance> = { PIX: 'pix', CARD: 'card', BOLETO: 'billet' };

const reais = (cents: number) => cents / 100;

function balancesView(balance: BalanceCents): Balances {
  return {
    disponiblePixBalance: reais(balance.pix),
    disponibleCardBalance: reais(balance.card),
    disponibleBilletBalance: reais(balance.billet),
    withdrawalsInProcessingBalance: reais(balance.processing),
  };
}

const findWithdrawal = ({ account }: CompanyRequest, id: unknown) => findOrFail(account.withdrawals, id, 'withdrawalNotFound', 'withdrawal');

/**
 * Check and debit happen in this one synchronous call, with no await between
 * them: concurrent requests are handled one after the other by the event loop,
 * so no interleaving can spend the same cents twice.
 */
export function withdraw(request: CompanyRequest): Reply {
  const body = request.body as WithdrawRequest;
  findBankAccount(request, body.bankAccountId);
  if (body.withdrawalMethod === 'pix' && !isValidPixKey(body.pixKeyType, body.pixKey)) {
    throw new ApiError('invalidPixKey', `pixKey is not a valid ${body.pixKeyType} key`);
  }
  const method = METHODS[body.withdrawalMethod];
  const balance = request.account.balance;
  if (balance[method.balance] < body.amount) {
    throw new ApiError('insufficientBalance', `insufficient ${method.balance} balance: ${balance[method.balance]} cents available, ${body.amount} requested`);
  }
  balance[method.balance] -= body.amount;
  balance.processing += body.amount;
  const now = request.now.toISOString();
  const withdrawal: Withdrawal = {
    id: randomUUID(),
    amount: body.amount,
    liquidAmount: withdrawalLiquidCents(method.paymentType, body.amount),
    status: 'PENDING',
    withdrawalPaymentType: method.paymentType,
    ...(body.withdrawalMethod === 'pix' && { pixKeyType: body.pixKeyType, pixKey: body.pixKey }),
    bankAccountId: body.bankAccountId,
    ...(body.postbackUrl !== undefined && { postbackUrl: body.postbackUrl }),
    createdAt: now,
    updatedAt: now,
  };
  request.account.withdrawals.add(withdrawal);
  request.changes.withdrawal(request.account, withdrawal);
  request.changes.balance(request.account);
  return single(withdrawal, 'Withdrawal requested');
}

/** Newest first; the reference gives this list meta.total only. */
export function listWithdrawals({ account, query }: CompanyRequest): Reply {
  const { page, limit } = pageQuery(query);
  return { body: { data: account.withdrawals.page(page, limit, 'newestFirst'), meta: { total: account.withdrawals.size }, message: 'Withdrawals listed' } };
}

export const getWithdrawal = (request: CompanyRequest): Reply => single(findWithdrawal(request, request.params.withdrawalId), 'Withdrawal found');

export const getBalance = ({ account }: CompanyRequest): Reply => single(balancesView(account.balance), 'Balances');

/**
 * PENDING to COMPLETED (the money leaves processing) or FAILED (it returns to its
 * balance); the postback goes once the change is durable. The caller has checked
 * that the withdrawal is PENDING.
 */
export function settleWithdrawal(
  settlement: { company: Company; account: Account; withdrawal: Withdrawal; status: SettlementStatus; now: Date },
  postbacks: PostbackDispatcher,
  changes: ChangeSet,
): void {
  const { company, account, withdrawal, status } = settlement;
  account.balance.processing -= withdrawal.amount;
  if (status === 'FAILED') account.balance[BALANCE_OF_PAYMENT_TYPE[withdrawal.withdrawalPaymentType]] += withdrawal.amount;
  withdrawal.status = status;
  withdrawal.updatedAt = settlement.now.toISOString();
  changes.withdrawal(account, withdrawal);
  changes.balance(account);
  const { postbackUrl } = withdrawal;
  if (postbackUrl) {
    // serialised now: the notification carries the record as this change left it
    const payload = JSON.parse(JSON.stringify(withdrawal)) as Withdrawal;
    changes.afterDurable.push(() => postbacks.dispatch(postbackUrl, payload, company.clientSecret));
  }
}

export function sandboxSettleWithdrawal(request: CompanyRequest): Reply {
  const withdrawal = findWithdrawal(request, request.params.withdrawalId);
  if (withdrawal.status !== 'PENDING') throw new ApiError('withdrawalSettled', `withdrawal ${withdrawal.id} is already ${withdrawal.status}`);
  const { status } = request.body as SettleWithdrawalRequest;
  settleWithdrawal({ company: request.company, account: request.account, withdrawal, status, now: request.now }, request.services.postbacks, request.changes);
  return single(withdrawal, `Withdrawal ${status}`);
}

export function sandboxCreditBalance({ account, body, changes }: CompanyRequest): Reply {
  const credit = body as CreditBalanceRequest;
  const amounts: Record<AvailableBalance, number> = { pix: credit.pix ?? 0, card: credit.card ?? 0, billet: credit.billet ?? 0 };
  const entries = Object.entries(amounts) as Array<[AvailableBalance, number]>;
  const over = entries.find(([field, cents]) => account.balance[field] + cents > MAX_BALANCE_CENTS);
  if (over) throw new ApiError('balanceLimit', `${over[0]} balance would exceed ${MAX_BALANCE_CENTS} cents`);
  for (const [field, cents] of entries) account.balance[field] += cents;
  changes.balance(account);
  return single(balancesView(account.balance), 'Balances credited');
}
