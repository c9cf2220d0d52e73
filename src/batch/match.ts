import type { Withdrawal, WithdrawalMethod } from '../api/types.js';

/** What makes two withdrawals the same payment: amount, method and key (the PIX key; for card and boleto, the bank account). */
export interface WithdrawalIdentity {
  method: WithdrawalMethod;
  amount: number;
  pixKey?: string;
  bankAccountId: number;
}

export const sameWithdrawal = (withdrawal: Withdrawal, identity: WithdrawalIdentity): boolean =>
  withdrawal.amount === identity.amount &&
  withdrawal.withdrawalPaymentType === identity.method.toUpperCase() &&
  (identity.method === 'pix' ? withdrawal.pixKey === identity.pixKey : withdrawal.bankAccountId === identity.bankAccountId);
