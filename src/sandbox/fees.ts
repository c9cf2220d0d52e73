/**
 * The sandbox's subscription fee and the splits' liquidAmount formulas (docs/sandbox.md,
 * "Fees"); its withdrawal fees are in src/withdrawal/fees.ts, which payctl's confirmations
 * share. All arithmetic is on integer cents; rounding is half-up on non-negative values,
 * so Math.round is exact for it.
 */
import type { SplitType } from '../api/types.js';

/** Subscription fee: 3.99% of the amount (rounded) plus 39 cents, never more than the amount. */
export const SUBSCRIPTION_FEE_BASIS_POINTS = 399;
export const SUBSCRIPTION_FEE_FIXED_CENTS = 39;

export function subscriptionFeeCents(amount: number): number {
  return Math.min(amount, Math.round((amount * SUBSCRIPTION_FEE_BASIS_POINTS) / 10_000) + SUBSCRIPTION_FEE_FIXED_CENTS);
}

/** What the splits of a subscription may add up to. */
export const splitAllowanceCents = (amount: number) => amount - subscriptionFeeCents(amount);

/** Gross value of a split: its amount, or its percentage of the subscription amount rounded down. */
export function splitGrossCents(
  split: { splitType: SplitType; splitAmount: number | null; splitPercentage: number | null },
  subscriptionAmount: number,
): number {
  if (split.splitType === 'AMOUNT') return split.splitAmount ?? 0;
  const basisPoints = Math.round((split.splitPercentage ?? 0) * 100);
  return Math.floor((subscriptionAmount * basisPoints) / 10_000);
}

/** Net value of a split: its gross value minus the percentage part of the subscription fee on it. */
export function splitLiquidCents(grossCents: number): number {
  return grossCents - Math.round((grossCents * SUBSCRIPTION_FEE_BASIS_POINTS) / 10_000);
}
