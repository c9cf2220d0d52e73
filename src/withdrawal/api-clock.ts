import { listWithdrawals } from '../api/withdrawals.js';
import type { ApiClient } from '../http/client.js';

const clockReads = new WeakMap<ApiClient, Promise<unknown>>();

/**
 * The offset, asking the API for it (one short read of the withdrawals list, once
 * per client) when no answer has told it yet: a batch's first rows are sent before
 * any answer, and a row whose intent lacks the API's time cannot be placed on the
 * API's clock later. Undefined when the API sends no usable `Date` or the read fails
 * (the send that follows meets that failure itself).
 */
export async function readApiClockOffset(client: ApiClient): Promise<number | undefined> {
  if (client.lastAnswerClockOffset() === undefined) {
    if (!clockReads.has(client)) clockReads.set(client, listWithdrawals(client, { page: 1, limit: 1 }).catch(() => undefined));
    await clockReads.get(client);
  }
  return client.lastAnswerClockOffset();
}

/** The offset as a person reads it: `the API's clock is 120 s ahead of this machine's`. */
export function describeClockOffset(offsetMs: number): string {
  const seconds = Math.round(offsetMs / 1000);
  // The header has whole seconds: a second either way is the header, not the clocks.
  if (Math.abs(seconds) <= 1) return "the API's clock agrees with this machine's (within a second)";
  return `the API's clock is ${Math.abs(seconds)} s ${seconds > 0 ? 'ahead of' : 'behind'} this machine's`;
}
