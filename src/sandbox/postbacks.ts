/**
 * Withdrawal notifications: POSTed in the background with an HMAC signature and
 * retried with backoff, so the API answer never waits for the receiver.
 */
import { createHmac } from 'node:crypto';
import { request as httpRequest, type ClientRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

export const POSTBACK_EVENT = 'withdrawal.status_changed';
export const SIGNATURE_HEADER = 'x-payctl-signature';
/** Waits before the 2nd, 3rd... attempts; after the last one the notification is dropped. */
export const DEFAULT_RETRY_DELAYS_MS = [1_000, 5_000, 30_000, 120_000];
const ATTEMPT_TIMEOUT_MS = 5_000;

/** `sha256=` and the hex HMAC-SHA256 of the exact body bytes, keyed by the company's client secret. */
export const postbackSignature = (body: string, secret: string) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

export class PostbackDispatcher {
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly requests = new Set<ClientRequest>();
  private closed = false;

  constructor(
    private readonly retryDelaysMs: readonly number[],
    private readonly log: (line: string) => void,
  ) {}

  /** Sends `data` as a withdrawal.status_changed event to `url`; returns at once. */
  dispatch(url: string, data: unknown, secret: string): void {
    // Serialised now: later changes to the record must not alter this notification.
    const body = JSON.stringify({ event: POSTBACK_EVENT, data });
    this.schedule(url, body, postbackSignature(body, secret), 0, 0);
  }

  /** Cancels pending retries and in-flight attempts (the sandbox is stopping). */
  close(): void {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    for (const request of this.requests) request.destroy();
    this.timers.clear();
    this.requests.clear();
  }

  private schedule(url: string, body: string, signature: string, attempt: number, delayMs: number): void {
    if (this.closed) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.attempt(url, body, signature, attempt);
    }, delayMs);
    timer.unref();
    this.timers.add(timer);
  }

  private attempt(url: string, body: string, signature: string, attempt: number): void {
    const send = url.startsWith('https:') ? httpsRequest : httpRequest;
    let settled = false;
    const finish = (outcome: string, delivered: boolean) => {
      if (settled) return;
      settled = true;
      this.requests.delete(request);
      const nextDelay = this.retryDelaysMs[attempt];
      const droppedAfter = !delivered && nextDelay === undefined ? '; no more attempts, the notification is dropped' : '';
      this.log(`postback ${url} attempt ${attempt + 1}: ${outcome}${droppedAfter}`);
      if (!delivered && nextDelay !== undefined) this.schedule(url, body, signature, attempt + 1, nextDelay);
    };
    const request = send(
      url,
      {
        method: 'POST',
        timeout: ATTEMPT_TIMEOUT_MS,
        headers: {
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          'user-agent': 'payctl-sandbox',
          [SIGNATURE_HEADER]: signature,
        },
      },
      (response) => {
        response.resume();
        const status = response.statusCode ?? 0;
        finish(`HTTP ${status}`, status >= 200 && status < 300);
      },
    );
    this.requests.add(request);
    request.on('timeout', () => request.destroy(new Error('timed out')));
    request.on('error', (error) => finish(error.message, false));
    request.end(body);
  }
}
