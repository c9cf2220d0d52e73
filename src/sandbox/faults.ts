/**
 * Failures on purpose, so that a script's author can see how the script copes:
 * a rate limit answering 429 with Retry-After, and a share of 503 answers, either
 * before the request does anything or (the nasty case) after its change was
 * made. Both apply to the routes of the API reference; the sandbox's own routes
 * (/sandbox/...), which tests and scripts use to arrange and inspect, never fail.
 * The failures follow the seed, so a run can be repeated.
 */
import { ApiError } from './errors.js';
import type { CompiledOperation } from './openapi.js';
import { Prng } from './random.js';

export interface FaultOptions {
  /** requests per second allowed to each client address (a burst of as many); past it 429 with Retry-After */
  rateLimit?: number;
  /** share of requests, 0 to 1, answered 503 */
  failureRate?: number;
  /** a failing POST, PUT or DELETE makes its change (durably) before its 503 */
  failAfterWrite?: boolean;
}

/** What happens to one request. */
export type Fate = 'served' | 'failsAfterWrite';

const isSandboxRoute = (operation: CompiledOperation) => operation.pathTemplate.startsWith('/sandbox/');

/** A token bucket per client address: `rate` tokens a second, at most `rate` held. */
class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; updatedMs: number }>();

  constructor(private readonly rate: number) {}

  /** Takes a token, or returns the seconds until one is there. */
  take(client: string, nowMs: number): number | undefined {
    const bucket = this.buckets.get(client) ?? { tokens: this.rate, updatedMs: nowMs };
    bucket.tokens = Math.min(this.rate, bucket.tokens + ((nowMs - bucket.updatedMs) / 1000) * this.rate);
    bucket.updatedMs = nowMs;
    this.buckets.set(client, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return undefined;
    }
    return Math.max(1, Math.ceil((1 - bucket.tokens) / this.rate));
  }
}

export class FaultInjector {
  private readonly limiter: RateLimiter | undefined;
  private readonly failures: Prng;

  constructor(
    private readonly options: FaultOptions,
    seed: number,
  ) {
    this.limiter = options.rateLimit ? new RateLimiter(options.rateLimit) : undefined;
    this.failures = new Prng(seed, 'faults');
  }

  /**
   * Throws the 429 of the rate limit or a 503 that comes before any work;
   * otherwise says whether the request is to fail once its change is made.
   */
  admit(operation: CompiledOperation, client: string, nowMs: number): Fate {
    if (isSandboxRoute(operation)) return 'served';
    const retryAfter = this.limiter?.take(client, nowMs);
    if (retryAfter !== undefined) {
      throw new ApiError('rateLimited', `rate limit of ${this.options.rateLimit} requests a second exceeded`, undefined, { 'retry-after': String(retryAfter) });
    }
    if (!this.options.failureRate || !this.failures.chance(this.options.failureRate)) return 'served';
    if (this.options.failAfterWrite && operation.method !== 'GET') return 'failsAfterWrite';
    throw new ApiError('injectedFailure');
  }
}

/** Checks fault options as startSandbox receives them. */
export function checkFaultOptions(options: FaultOptions): void {
  if (options.rateLimit !== undefined && !(Number.isInteger(options.rateLimit) && options.rateLimit >= 1)) {
    throw new RangeError('rateLimit must be a positive integer (requests a second)');
  }
  if (options.failureRate !== undefined && !(options.failureRate >= 0 && options.failureRate <= 1)) {
    throw new RangeError('failureRate must be a share from 0 to 1');
  }
}
