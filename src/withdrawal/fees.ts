/**
 * The withdrawal fees of payctl's sandbox (docs/sandbox.md, "Fees"): one definition,
 * which the sandbox charges and the withdraw confirmations show before the question.
 * Integer cents; rounding is half-up on non-negative values, so Math.round is exact.
 */
import type { WithdrawalMethod, WithdrawalPaymentType } from '../api/types.js';

/** Withdrawal fees by method: PIX 49 cents flat, card 2% (rounded), boleto 99 cents flat. */
export function withdrawalFeeCents(paymentType: WithdrawalPaymentType, amount: number): number {
  switch (paymentType) {
    case 'PIX':
      return 49;
    case 'CARD':
      return Math.round((amount * 200) / 10_000);
    case 'BOLETO':
      return 99;
  }
}

export const withdrawalLiquidCents = (paymentType: WithdrawalPaymentType, amount: number) => amount - withdrawalFeeCents(paymentType, amount);

export const PAYMENT_TYPE_OF: Record<WithdrawalMethod, WithdrawalPaymentType> = { pix: 'PIX', card: 'CARD', boleto: 'BOLETO' };
