import type { HTTPError, KyInstance, Options as KyOptions, RetryOptions } from 'ky';
import { ExitCode, PayctlError } from '../errors.js';
import { maskSecrets, redactHeaders, secretFieldsIn } from '../redact.js';
import { isAnswer, type AnswerEnvelope, type OperationId, type ReadOperationId } from '../api/answers.js';
import { OPERATION_CALLS, OPERATION_ROUTES, type PathParameters, type QueryParameters, type RequestBodies } from '../api/validators.js';
import { VERSION } from '../version.js';
import type { LiteResponse } from './fetch-classes.js';
import { parseAnswerJson } from './json.js';
import { givenUpBeforeSending, INTERRUPTED, nodeFetch, RESPONSE_TOO_LARGE, TransportError, type FetchAnswer, type FetchInput, type NodeFetchOptions } from './node-fetch.js';
import { checkBeforeRetrying, mayHaveEffect, type Write } from './writes.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';

/** A request to any route (`payctl api`), its answer read for the shape of an API answer only. */
export interface ApiRequest {
  method: HttpMethod;
  /** Path relative to the base URL, e.g. `/customers`. */
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  /** The route accepts `x-subaccount-id`: send the resolved sub-account, if any. */
  accountContext?: boolean;
  /**
   * A GET whose caller waits out a 429 itself (a page scan that sets its own pace):
   * the client does not retry it, and the error carries the `Retry-After` asked for.
   */
  callerHandlesRateLimit?: boolean;
  /**
   * Aborted when the caller no longer wants the answer (another read beside it failed): a read is given up.
   * A write is not: once sent, its outcome is waited for (or, on Ctrl-C, reported unknown).
   */
  signal?: AbortSignal;
}

/** How a single read is asked: `signal` gives it up (ApiRequest's `signal`). */
export type ReadOptions = Pick<ApiRequest, 'signal'>;

/** An answer of any route: an object holding `data`, an object or a list, nothing more known. */
export interface ApiEnvelope {
  data: unknown;
  meta?: unknown;
  message?: unknown;
}

/**
 * What a call of an operation takes: its path parameters and body as the API
 * document gives them (src/api/validators.ts), its query, and how it is paced.
 */
export type CallOptions<Op extends OperationId> = (keyof PathParameters[Op] extends never ? { params?: undefined } : { params: PathParameters[Op] }) &
  (RequestBodies[Op] extends undefined ? { body?: undefined } : { body: RequestBodies[Op] }) & {
    query?: QueryParameters[Op];
    callerHandlesRateLimit?: ApiRequest['callerHandlesRateLimit'];
    signal?: ApiRequest['signal'];
  };

/** How one request is sent and its answer read. */
interface Exchange extends ApiRequest {
  /** The operation called, for messages. */
  operation?: OperationId;
  /** A read of one resource: the answer's `data.id` must be this one, or the answer is about another and not believed. */
  resourceId?: string | number | bigint;
}

/** A write --dry-run recorded instead of sending: what would have gone out, secrets masked. */
export interface RecordedRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: unknown;
}

/** What the audit trail is told of a write once it is over. */
export interface WriteOutcome {
  /** The HTTP status, when an answer came. */
  status?: number;
  /** The `id` of the answer's `data`, when it has one. */
  resourceId?: string;
  exitCode: number;
  error?: string;
}

export interface AuditedWrite {
  /** Records the outcome; never throws (a failure to record it is the hook's to report). */
  after(outcome: WriteOutcome): Promise<void>;
}

/** The audit trail at the client's edge: every POST, PUT, PATCH and DELETE, before it is sent and after. */
export interface AuditHooks {
  /** Records the write before it is sent; throws (and the write is not sent) when it cannot. */
  before(write: { method: string; path: string; query?: Record<string, string>; body?: unknown }): Promise<AuditedWrite>;
}

export interface ApiClientOptions {
  baseUrl: string;
  token?: string;
  subaccount?: string;
  timeoutMs: number;
  /** Receives one line per request, response and retry (already redacted). */
  debug?: (line: string) => void;
  /** Under --dry-run: POST, PUT, PATCH and DELETE are handed here and not sent; GETs are sent as usual. */
  record?: (request: RecordedRequest) => void;
  /** Told the value of every secret field sent or received, so that an echo of it is scrubbed wherever it comes back. */
  secrets?: { add(secret: string): void };
  /** Aborted when the run is interrupted: a request in flight is given up. */
  signal?: AbortSignal;
  /** Told of every write before it is sent and of its outcome (not of what --dry-run records: nothing is sent). */
  audit?: AuditHooks;
  /** The command that logs this profile in (`payctl auth login --profile big`), for the hint of a 401. */
  loginCommand?: string;
}

export type ReadRequest = ApiRequest & { method: 'GET' };

export interface ApiClient {
  readonly baseUrl: string;
  readonly subaccount?: string;
  /**
   * Calls an operation of the API document; its answer is checked for the fields
   * payctl needs (src/api/needs.json) and typed as far as it was checked. A read of
   * one resource is checked to be the one asked for.
   */
  call<Op extends ReadOperationId>(operation: Op, options: CallOptions<Op>): Promise<AnswerEnvelope<Op>>;
  /** A write's answer; undefined when --dry-run recorded the write instead of sending it. */
  call<Op extends OperationId>(operation: Op, options: CallOptions<Op>): Promise<AnswerEnvelope<Op> | undefined>;
  /** Any route (`payctl api`): its answer is only read to be an object holding data. */
  send(request: ReadRequest): Promise<ApiEnvelope>;
  send(request: ApiRequest): Promise<ApiEnvelope | undefined>;
  /**
   * How far the API's clock was ahead of this machine's when the latest answer arrived, in
   * milliseconds, from its `Date` header (whole seconds); undefined when it had no readable one.
   */
  lastAnswerClockOffset(): number | undefined;
}

const RETRY_STATUS_CODES = [408, 429, 500, 502, 503, 504];

/** Waits longer than this are cut short, per the contract (ky's `maxRetryAfter`). */
const MAX_RETRY_AFTER_MS = 10_000;

/**
 * ky is loaded on the first request, not at start-up. In dist/ its Headers,
 * Request and Response are those of fetch-classes.ts, so no request loads undici.
 */
export async function createApiClient(options: ApiClientOptions): Promise<ApiClient> {
  const { default: ky } = await import('ky');
  const debug = options.debug;
  const http: KyInstance = ky.create({
    prefixUrl: options.baseUrl.replace(/\/+$/, ''),
    timeout: false,
    fetch: asKyFetch(debug ? loggedFetch(debug) : nodeFetch),
    hooks: debug
      ? { beforeRetry: [({ retryCount, error }) => debug(`retry ${retryCount} after ${describeRetryCause(error)}`)] }
      : {},
  });
  return new HttpApiClient(http, options);
}

/**
 * nodeFetch where ky expects fetch: ky's types speak of fetch's Request and
 * Response, which in dist/ are fetch-classes.ts's (see scripts/build.mjs), the
 * ones nodeFetch takes and makes.
 */
const asKyFetch = (send: (...args: never[]) => Promise<unknown>): typeof fetch => send as typeof fetch;

class HttpApiClient implements ApiClient {
  readonly baseUrl: string;
  readonly subaccount?: string;
  private latestAnswerClockOffset?: number;

  constructor(
    private readonly http: KyInstance,
    private readonly options: ApiClientOptions,
  ) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.subaccount = options.subaccount;
  }

  lastAnswerClockOffset(): number | undefined {
    return this.latestAnswerClockOffset;
  }

  /**
   * Read as the answer arrives: compared with this machine's clock later, the offset would grow by
   * whatever the run did since. The header's whole second is read at its middle (+500 ms), so
   * the truncation errs by half a second either way rather than up to a whole one.
   */
  private noteAnswerDate(headers: Pick<Headers, 'get'>): void {
    const at = httpDateMs(headers.get('date') ?? '');
    this.latestAnswerClockOffset = at === undefined ? undefined : at + 500 - Date.now();
  }

  call<Op extends ReadOperationId>(operation: Op, options: CallOptions<Op>): Promise<AnswerEnvelope<Op>>;
  call<Op extends OperationId>(operation: Op, options: CallOptions<Op>): Promise<AnswerEnvelope<Op> | undefined>;
  call<Op extends OperationId>(operation: Op, options: CallOptions<Op>): Promise<AnswerEnvelope<Op> | undefined> {
    const { method, path, accountContext, resource } = OPERATION_CALLS[operation];
    const params: Partial<Record<string, string | number | bigint>> = options.params ?? {};
    const filled = path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(params[name])));
    const { query, body, callerHandlesRateLimit, signal } = options;
    const request = { method, path: filled, query, body, accountContext, operation, callerHandlesRateLimit, signal, resourceId: resource && params[resource] };
    return this.request(request, (answer, status, sent) => {
      // "No content" is an answer with nothing to show: enough where payctl needs no field.
      const envelope = status === 204 && answer === undefined ? { data: {} } : answer;
      const why: { fault?: string } = {};
      if (!isAnswer(operation, envelope, why)) throw answerNotTheApis(`${why.fault}: the answer is not the API's`, status, sent);
      return envelope;
    });
  }

  send(request: ReadRequest): Promise<ApiEnvelope>;
  send(request: ApiRequest): Promise<ApiEnvelope | undefined>;
  send(request: ApiRequest): Promise<ApiEnvelope | undefined> {
    return this.request(request, parseEnvelope);
  }

  private async request<E extends ApiEnvelope>(request: Exchange, read: AnswerReader<E>): Promise<E | undefined> {
    const { options } = this;
    registerSecretsOf(request.body, options.secrets);
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': `payctl/${VERSION}` };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (request.accountContext && options.subaccount) headers['x-subaccount-id'] = options.subaccount;
    const searchParams = Object.fromEntries(
      Object.entries(request.query ?? {}).filter((entry): entry is [string, string | number | boolean] => entry[1] !== undefined),
    );
    if (options.record && mayHaveEffect(request.method)) {
      const query = new URLSearchParams(Object.entries(searchParams).map(([k, v]) => [k, String(v)])).toString();
      if (request.body !== undefined) headers['content-type'] = 'application/json';
      options.record({
        method: request.method,
        url: `${this.baseUrl}${request.path}${query ? `?${query}` : ''}`,
        headers: redactHeaders(headers),
        body: request.body === undefined ? undefined : maskSecrets(request.body),
      });
      return undefined;
    }
    const write = mayHaveEffect(request.method)
      ? await options.audit?.before({ method: request.method, path: request.path, query: textValues(searchParams), body: request.body })
      : undefined;
    if (!write) return (await this.exchange(request, headers, searchParams, read)).envelope;
    try {
      const { envelope, status } = await this.exchange(request, headers, searchParams, read);
      await write.after({ status, resourceId: idOfData(envelope.data), exitCode: ExitCode.ok });
      return envelope;
    } catch (error) {
      const known = error instanceof PayctlError ? error : undefined;
      await write.after({ status: known?.status, exitCode: known?.exitCode ?? ExitCode.unknownOutcome, error: (error as Error)?.message ?? String(error) });
      throw error;
    }
  }

  /** Sends the request (retrying a GET as the contract says) and reads the answer's envelope. */
  private async exchange<E extends ApiEnvelope>(
    request: Exchange,
    headers: Record<string, string>,
    searchParams: Record<string, string | number | boolean>,
    read: AnswerReader<E>,
  ): Promise<{ envelope: E; status: number }> {
    const { options } = this;
    const deadline = Date.now() + options.timeoutMs;
    const sent: Write = { method: request.method, path: request.path };
    const isWrite = mayHaveEffect(request.method);
    const givenUp = isWrite ? undefined : request.signal;
    const interrupt = givenUp && options.signal ? AbortSignal.any([options.signal, givenUp]) : (givenUp ?? options.signal);
    const perRequest: NodeFetchOptions = { deadline, timeoutMs: options.timeoutMs, write: isWrite ? sent : undefined, interrupt };
    let response: FetchAnswer;
    try {
      response = await this.http(request.path.replace(/^\/+/, ''), {
        method: request.method,
        headers,
        searchParams,
        json: request.body,
        retry: retryPolicy(deadline, !request.callerHandlesRateLimit),
        // ky's wait before a retry (a Retry-After of up to 10 s) ends too when the request is given up.
        signal: interrupt,
        ...perRequest,
      } as KyOptions);
    } catch (error) {
      // That wait ends with the signal's reason: the retry was never sent.
      if (interrupt?.aborted && error === interrupt.reason) throw errorFromTransport(givenUpBeforeSending(interrupt), sent);
      if (!isHttpError(error)) throw errorFromTransport(error, sent);
      this.noteAnswerDate(error.response.headers);
      throw await errorFromResponse(error.response, sent, this.options.loginCommand ?? 'payctl auth login');
    }
    this.noteAnswerDate(response.headers);
    const envelope = read(await readBody(response, sent), response.status, sent);
    if (request.resourceId !== undefined) refuseAnotherResource(envelope.data, request, response.status, sent);
    // Pages of a list hold no secrets in the API's schema, and walking each would cost an export as much as parsing it.
    if (!Array.isArray(envelope.data)) registerSecretsOf(envelope, options.secrets);
    return { envelope, status: response.status };
  }
}

/** Reads an answer's body (undefined when empty) as an envelope, or throws why it is not one. */
type AnswerReader<E extends ApiEnvelope> = (body: unknown, status: number, sent: Write) => E;

const textValues = (params: Record<string, string | number | boolean>): Record<string, string> =>
  Object.fromEntries(Object.entries(params).map(([key, value]) => [key, String(value)]));

/** The `id` of an answer's data, as text, when it is an object with an id. */
function idOfData(data: unknown): string | undefined {
  const id = data && typeof data === 'object' && !Array.isArray(data) && 'id' in data ? data.id : undefined;
  return typeof id === 'string' || typeof id === 'number' || typeof id === 'bigint' ? String(id) : undefined;
}

/** Tells `secrets` the value of every secret-keyed field in `value`, so that an echo of it is scrubbed wherever it comes back. */
function registerSecretsOf(value: unknown, secrets: ApiClientOptions['secrets']): void {
  if (!secrets || value === undefined) return;
  for (const field of secretFieldsIn(value)) for (const secret of field.values) secrets.add(secret);
}

/**
 * The contract's retry policy: only GET, at most 2 retries on network errors,
 * 408, 429 and 5xx, jittered backoff, `Retry-After` honoured up to 10 s. An answer
 * too large to read is not a network error: asked again, it comes back as large. A wait
 * that would outlast the request's deadline is not taken, so the real answer
 * (429, 503) is reported instead of a timeout; an unreadable `Retry-After`
 * falls back to the backoff instead of waiting the maximum.
 */
function retryPolicy(deadline: number, retryRateLimited: boolean): RetryOptions {
  const statusCodes = retryRateLimited ? RETRY_STATUS_CODES : RETRY_STATUS_CODES.filter((status) => status !== 429);
  return {
    limit: 2,
    methods: ['get'],
    statusCodes,
    afterStatusCodes: [429, 503],
    maxRetryAfter: MAX_RETRY_AFTER_MS,
    backoffLimit: 4_000,
    jitter: true,
    shouldRetry: ({ error }) => {
      if (error instanceof TransportError && (error.code === INTERRUPTED || error.code === RESPONSE_TOO_LARGE)) return false;
      if (isHttpError(error) && !statusCodes.includes(error.response.status)) return false;
      if (!isHttpError(error)) return undefined;
      const header = error.response.headers.get('retry-after');
      if (header === null) return undefined;
      const wait = retryAfterMs(header);
      if (wait === undefined) return true;
      return Date.now() + Math.min(wait, MAX_RETRY_AFTER_MS) < deadline ? undefined : false;
    },
  };
}

/** `Retry-After` as seconds or an HTTP date, in milliseconds from now; undefined when unreadable. */
function retryAfterMs(header: string): number | undefined {
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const date = httpDateMs(header);
  return date === undefined ? undefined : Math.max(0, date - Date.now());
}

/** RFC 9110's HTTP-date forms: `Fri, 27 Nov 2026 18:49:22 GMT`, `Friday, 27-Nov-26 18:49:22 GMT`, asctime's `Fri Nov 27 18:49:22 2026`. */
const HTTP_DATE = /^[a-z]{3}, \d{1,2} [a-z]{3} \d{4} \d{2}:\d{2}:\d{2} (GMT|UTC|[+-]\d{4})$|^[a-z]{6,9}, \d{2}-[a-z]{3}-\d{2} \d{2}:\d{2}:\d{2} GMT$/i;
const ASCTIME = /^[a-z]{3} [a-z]{3} [ \d]\d \d{2}:\d{2}:\d{2} \d{4}$/i;

/**
 * An HTTP date in milliseconds; undefined when it is none. JavaScript reads far more (`0` is the year
 * 2000), and reads asctime's form, which names no zone and is GMT, in this machine's zone (TZ).
 */
function httpDateMs(text: string): number | undefined {
  const trimmed = text.trim();
  const at = HTTP_DATE.test(trimmed) ? Date.parse(trimmed) : ASCTIME.test(trimmed) ? Date.parse(`${trimmed} GMT`) : NaN;
  return Number.isNaN(at) ? undefined : at;
}

const isHttpError = (error: unknown): error is HTTPError =>
  error instanceof Error && error.name === 'HTTPError' && 'response' in error;

function errorFromTransport(error: unknown, sent: Write): PayctlError {
  if (error instanceof TransportError && error.code === INTERRUPTED) {
    // A write that reached the server may still take effect: that is an unknown outcome, whatever stopped the wait.
    return error.reachedServer && mayHaveEffect(sent.method)
      ? new PayctlError(`interrupted: the ${sent.method} ${sent.path} was sent and its outcome is unknown`, ExitCode.unknownOutcome, {
          hint: checkBeforeRetrying(sent),
        })
      : new PayctlError('interrupted', ExitCode.interrupted);
  }
  if (error instanceof TransportError) {
    if (error.reachedServer && mayHaveEffect(sent.method)) {
      return new PayctlError(`${error.message}; the ${sent.method} was sent and its outcome is unknown`, ExitCode.unknownOutcome, {
        hint: checkBeforeRetrying(sent),
      });
    }
    const exitCode = error.code === RESPONSE_TOO_LARGE ? ExitCode.answerTooLargeToRead : ExitCode.network;
    return new PayctlError(error.message, exitCode, {
      hint: error.hint ?? 'nothing took effect; it is safe to retry',
      neverReachedServer: !error.reachedServer,
    });
  }
  return new PayctlError(
    `request failed: ${(error as Error)?.message ?? String(error)}`,
    mayHaveEffect(sent.method) ? ExitCode.unknownOutcome : ExitCode.network,
  );
}

async function readBody(response: FetchAnswer, sent: Write): Promise<unknown> {
  const text = await response.text();
  try {
    return text === '' ? undefined : await parseAnswerJson(text);
  } catch {
    throw notAnApiAnswer(response.status, sent, describeText(text, response));
  }
}

function describeText(text: string, response: FetchAnswer): string {
  const type = response.headers.get('content-type') ?? 'no content type';
  if (text.trimStart().startsWith('{') || text.trimStart().startsWith('[')) return `cut-off or invalid JSON (${text.length} bytes, ${type})`;
  return `${type}, not JSON`;
}

/**
 * An answer that is not the API's (HTML from a proxy, cut JSON, the wrong shape):
 * for a GET nothing happened and retrying is safe; for anything else the request
 * may have been carried out, so the outcome is unknown.
 */
function notAnApiAnswer(status: number, sent: Write, what: string): PayctlError {
  return answerNotTheApis(`the server's answer is not an API answer: ${what}`, status, sent);
}

/** For a GET nothing happened (exit 4, retrying is safe); a POST, PUT or DELETE may have been carried out (exit 5). */
function answerNotTheApis(message: string, status: number, sent: Write): PayctlError {
  return mayHaveEffect(sent.method)
    ? new PayctlError(`${message}; the ${sent.method}'s outcome is unknown`, ExitCode.unknownOutcome, { status, hint: checkBeforeRetrying(sent) })
    : new PayctlError(message, ExitCode.notApiAnswerToRead, { status, hint: 'check --base-url and the profile; retrying is safe' });
}

function parseEnvelope(body: unknown, status: number, sent: Write): ApiEnvelope {
  if (status === 204 && body === undefined) return { data: undefined };
  // Every API answer's `data` is an object or a list; `null` or a bare value is not the API speaking.
  if (!body || typeof body !== 'object' || !('data' in body) || !body.data || typeof body.data !== 'object') {
    throw notAnApiAnswer(status, sent, 'JSON without the `data` object of an API answer');
  }
  return body;
}

/**
 * An answer about another resource than the one asked for (a cache or proxy mixing
 * answers up) would have payctl show, or confirm a payment to, what was not asked:
 * refused as not the API's. UUIDs are compared in any case.
 */
function refuseAnotherResource(data: unknown, request: Exchange, status: number, sent: Write): void {
  const found = idOfData(data);
  const asked = String(request.resourceId);
  if (found !== undefined && found.toLowerCase() === asked.toLowerCase()) return;
  const route = request.operation ? OPERATION_ROUTES[request.operation] : `${request.method} ${request.path}`;
  const what = found === undefined ? 'without data.id' : `with data.id ${found}`;
  throw answerNotTheApis(`${route} answered ${what}, not the ${asked} asked for: the answer is not the API's`, status, sent);
}

/**
 * A 5xx is the server failing, whatever its body says: for a GET nothing
 * happened and retrying is safe; a POST, PUT or DELETE may have been carried
 * out before the failure, so its outcome is unknown.
 */
function serverFailure(status: number, sent: Write, apiMessage: string, returnCode: number | undefined): PayctlError {
  return mayHaveEffect(sent.method)
    ? new PayctlError(`${apiMessage}: the server failed, so the ${sent.method}'s outcome is unknown`, ExitCode.unknownOutcome, {
        status,
        returnCode,
        hint: checkBeforeRetrying(sent),
      })
    : new PayctlError(`${apiMessage}: the server failed`, ExitCode.serverFailedOnRead, { status, returnCode, hint: 'nothing took effect; retrying later is safe' });
}

async function errorFromResponse(response: FetchAnswer, sent: Write, login: string): Promise<PayctlError> {
  const status = response.status;
  const text = await response.text().catch(() => '');
  let apiError: { message?: unknown; returnCode?: unknown } | undefined;
  try {
    const parsed = JSON.parse(text) as { data?: { message?: unknown; returnCode?: unknown } };
    if (parsed && typeof parsed.data?.message === 'string') apiError = parsed.data;
  } catch {
    // Not JSON: handled below by status.
  }
  const returnCode = typeof apiError?.returnCode === 'number' ? apiError.returnCode : undefined;
  const retryAfter = status === 429 ? response.headers.get('retry-after') : null;
  const hint = hintFor(status, returnCode, sent.path, login);
  const details = { status, returnCode, hint, retryAfterMs: retryAfter === null ? undefined : retryAfterMs(retryAfter) };
  if (status === 401 || status === 403) {
    return new PayctlError(String(apiError?.message ?? (status === 401 ? 'not authenticated' : 'forbidden')), ExitCode.auth, details);
  }
  if (status >= 500) {
    if (apiError) return serverFailure(status, sent, String(apiError.message), returnCode);
    return notAnApiAnswer(status, sent, text === '' ? 'an empty body' : describeText(text, response));
  }
  if (apiError) return new PayctlError(String(apiError.message), ExitCode.apiRefused, details);
  if (status >= 300 && status < 400) {
    const location = response.headers.get('location') ?? 'another address';
    return new PayctlError(`the server redirected to ${location}; payctl does not follow redirects`, ExitCode.redirected, {
      status,
      hint: 'set the profile\'s base URL to the final address: payctl profiles add NAME --base-url URL',
    });
  }
  if (status === 429) return new PayctlError('the server is rate limiting requests', ExitCode.rateLimited, { ...details, hint: 'wait and retry' });
  // 408: the server gave up waiting for the request, so it did not act on it.
  if (status === 408)
    return new PayctlError('the server timed out waiting for the request', ExitCode.serverStoppedWaiting, {
      status,
      hint: 'nothing took effect; it is safe to retry',
    });
  return new PayctlError('the server refused the request without an API error body', ExitCode.apiRefused, { status });
}

/** Return codes whose fix is another payctl command. */
const RETURN_CODE_HINTS: Record<number, string> = {
  [-7100]: 'list the bank accounts of this account: payctl bank-accounts list',
  [-7508]: 'check the card id; cards belong to one customer: payctl customers get CUSTOMER_ID',
  [-7404]: 'pages start at 1 and --limit is 1 to 100: payctl customers list --page 1 --limit 20',
  [-7501]: 'check the customer id: payctl customers list',
  [-7502]: 'a customer without an address needs every --address-* flag the first time: payctl customers update --help',
  [-7509]: 'the card number fails its check digit: check the digits typed',
  [-7510]: 'the card has expired: check --exp-month and --exp-year',
  [-7511]: 'the card must belong to the customer: payctl cards get CARD_ID',
  [-7601]: 'check the subscription id: payctl subs list',
  [-7602]: 'a cancelled subscription can never change again: payctl subs get ID',
  [-7603]: 'the split ids are shown by: payctl subs get SUBSCRIPTION_ID',
  [-7604]: 'see the splits it already has: payctl subs get SUBSCRIPTION_ID',
  [-7702]: 'the sub-account must be APPROVED to receive splits (on a sandbox: payctl sandbox approve SUBACCOUNT_ID)',
  [-7101]: 'list the withdrawals of this account: payctl withdrawals list (--subaccount or --main-account pick the account)',
  [-7102]: 'see the available balances: payctl balance',
  [-7103]: 'the minimum withdrawal is 100 cents (R$ 1,00)',
  [-7106]: 'it has PENDING withdrawals: payctl withdrawals list',
};

function hintFor(status: number, returnCode: number | undefined, path: string, login: string): string | undefined {
  if (returnCode !== undefined && RETURN_CODE_HINTS[returnCode]) return RETURN_CODE_HINTS[returnCode];
  // A 401 to the login itself is the client id or secret, which logging in again with the same would not change.
  if (status === 401 && path === '/auth') return `check the client id and the client secret (for a sandbox, sandbox start prints them), then: ${login}`;
  if (status === 401) return `log in again: ${login}`;
  if (status === 403) return 'check the sub-account: payctl auth status, or payctl subaccounts clear';
  return undefined;
}

function describeRetryCause(error: Error): string {
  if (isHttpError(error)) return `HTTP ${error.response.status}`;
  return error.message;
}

function loggedFetch(debug: (line: string) => void) {
  return async (request: FetchInput & { clone(): FetchInput }, init?: NodeFetchOptions): Promise<LiteResponse> => {
    const headers: Record<string, string> = {};
    request.headers.forEach((value, key) => (headers[key] = value));
    debug(`> ${request.method} ${request.url}`);
    for (const [name, value] of Object.entries(redactHeaders(headers))) debug(`> ${name}: ${value}`);
    const text = await request.clone().text();
    if (text !== '') debug(`> ${JSON.stringify(maskSecrets(safeParse(text)))}`);
    const started = performance.now();
    try {
      const response = await nodeFetch(request, init);
      debug(`< ${response.status} ${response.statusText} (${Math.round(performance.now() - started)} ms)`);
      return response;
    } catch (error) {
      debug(`< ${(error as Error).message} (${Math.round(performance.now() - started)} ms)`);
      throw error;
    }
  };
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return `<${text.length} bytes of non-JSON>`;
  }
}
