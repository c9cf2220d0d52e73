import { PayctlError } from '../../errors.js';

/**
 * Hints that fit the situation: the API client's hints must do without the ids
 * (`payctl subs get SUBSCRIPTION_ID`), but a command knows them, so it gives the
 * command to type as it is. `hints` maps a returnCode to the hint for it.
 */
export async function withHints<T>(work: Promise<T>, hints: Readonly<Record<number, string>>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    const hint = error instanceof PayctlError && error.returnCode !== undefined ? hints[error.returnCode] : undefined;
    if (!(error instanceof PayctlError) || hint === undefined) throw error;
    throw new PayctlError(error.message, error.exitCode, { hint, returnCode: error.returnCode, status: error.status, retryAfterMs: error.retryAfterMs });
  }
}

/** Return codes of the API about a subscription (docs/sandbox.md). */
export const SUBSCRIPTION_CANCELLED = -7602;
export const SPLIT_NOT_FOUND = -7603;
export const SPLITS_EXCEED_AMOUNT = -7604;
export const SUBACCOUNT_NOT_APPROVED = -7702;
export const CARD_NOT_FOUND = -7508;
export const CARD_NOT_THE_CUSTOMERS = -7511;
