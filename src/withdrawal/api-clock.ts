import type { ApiClient } from '../http/client.js';

/**
 * How far the API's clock is ahead of this machine's, in milliseconds, read from the
 * `Date` header of the client's latest answer (whole seconds, so within a second);
 * undefined when the answer carried no readable one. Time windows over the API's
 * `createdAt` are read on the API's clock: this machine's may be minutes off.
 */
export function apiClockOffset(client: ApiClient): number | undefined {
  const header = client.lastAnswerDate();
  if (header === undefined) return undefined;
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : at - Date.now();
}

/** The offset as a person reads it: `the API's clock is 120 s ahead of this machine's`. */
export function describeClockOffset(offsetMs: number): string {
  const seconds = Math.round(offsetMs / 1000);
  // The header has whole seconds: a second either way is the header, not the clocks.
  if (Math.abs(seconds) <= 1) return "the API's clock agrees with this machine's (within a second)";
  return `the API's clock is ${Math.abs(seconds)} s ${seconds > 0 ? 'ahead of' : 'behind'} this machine's`;
}
