/** A read asked beside others: it passes `signal` to its requests (ApiRequest's `signal`), which are given up when it is aborted. */
export type Read<T> = (signal: AbortSignal) => Promise<T>;

/**
 * Reads asked at once, their answers in order. The first to fail is the result and gives up the
 * others (their requests are closed), so the run ends with that failure instead of waiting for
 * answers it no longer wants (up to --timeout). `within` gives them all up too: these reads are
 * themselves one read beside others. Only reads: a write already sent is never given up.
 */
export async function readsAtOnce<T extends readonly unknown[] | []>(reads: { readonly [K in keyof T]: Read<T[K]> }, within?: AbortSignal): Promise<T> {
  const givenUp = new AbortController();
  const signal = within ? AbortSignal.any([within, givenUp.signal]) : givenUp.signal;
  try {
    return (await Promise.all(reads.map((read: Read<unknown>) => read(signal)))) as T;
  } catch (error) {
    givenUp.abort();
    throw error;
  }
}
