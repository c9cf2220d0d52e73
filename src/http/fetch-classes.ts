/**
 * The part of the Fetch API's Headers, Request and Response that ky and
 * `nodeFetch` use, with bodies held as text.
 *
 * Why: on Node 20 the first touch of the global Headers, Request or Response
 * loads undici (with node:http2 and node:tls behind it), about 30 ms of every
 * command that makes a request, though payctl sends through node:http. ky
 * builds a Request at import (a feature probe) and for every request, so the
 * build points ky's `globalThis.Headers`, `.Request` and `.Response` here
 * (scripts/build.mjs); `globalThis.ReadableStream` and `.FormData` become
 * undefined for ky, which then takes its no-streams paths (payctl uses no
 * progress callbacks and sends JSON only).
 */

export type LiteHeadersInit = LiteHeaders | Headers | Iterable<readonly [string, string]> | Record<string, string>;

/** RFC 9110 token characters: what a header name may hold. */
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** A value may not hold NUL, CR or LF (header injection); surrounding blanks are dropped, as fetch does. */
const FORBIDDEN_IN_VALUE = /[\0\r\n]/;
const SURROUNDING_BLANKS = /^[\t\n\r ]+|[\t\n\r ]+$/g;

export class LiteHeaders {
  readonly #values = new Map<string, string>();

  constructor(init?: LiteHeadersInit | null) {
    if (init === undefined || init === null) return;
    if (init instanceof LiteHeaders || isIterable(init)) {
      for (const [name, value] of init as Iterable<readonly [string, string]>) this.append(name, value);
    } else {
      for (const [name, value] of Object.entries(init)) this.append(name, value);
    }
  }

  append(name: string, value: string): void {
    const key = headerName(name);
    const text = headerValue(key, value);
    const previous = this.#values.get(key);
    this.#values.set(key, previous === undefined ? text : `${previous}, ${text}`);
  }

  set(name: string, value: string): void {
    const key = headerName(name);
    this.#values.set(key, headerValue(key, value));
  }

  get(name: string): string | null {
    return this.#values.get(headerName(name)) ?? null;
  }

  has(name: string): boolean {
    return this.#values.has(headerName(name));
  }

  delete(name: string): void {
    this.#values.delete(headerName(name));
  }

  /** In name order, lower-cased, as fetch's Headers iterates. */
  *entries(): IterableIterator<[string, string]> {
    yield* [...this.#values.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  }

  *keys(): IterableIterator<string> {
    for (const [name] of this.entries()) yield name;
  }

  *values(): IterableIterator<string> {
    for (const [, value] of this.entries()) yield value;
  }

  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.entries();
  }

  forEach(callback: (value: string, name: string, headers: LiteHeaders) => void): void {
    for (const [name, value] of this.entries()) callback(value, name, this);
  }
}

function isIterable(value: object): value is Iterable<unknown> {
  return typeof (value as Partial<Iterable<unknown>>)[Symbol.iterator] === 'function';
}

function headerName(name: string): string {
  const text = String(name);
  if (!HEADER_NAME.test(text)) throw new TypeError(`"${text.replace(/[^\x20-\x7e]/g, '?')}" is not a valid header name`);
  return text.toLowerCase();
}

/** The value is never quoted in the error: it may be a token. */
function headerValue(name: string, value: string): string {
  const text = String(value).replace(SURROUNDING_BLANKS, '');
  if (FORBIDDEN_IN_VALUE.test(text)) throw new TypeError(`the value of the "${name}" header holds a line break or NUL`);
  return text;
}

export interface LiteRequestInit {
  method?: string;
  headers?: LiteHeadersInit;
  /** Only text: payctl sends JSON. */
  body?: string | null;
  signal?: AbortSignal | null;
}

const NORMALIZED_METHODS = new Set(['DELETE', 'GET', 'HEAD', 'OPTIONS', 'POST', 'PUT']);

export class LiteRequest {
  readonly url: string;
  readonly method: string;
  readonly headers: LiteHeaders;
  readonly signal: AbortSignal | undefined;
  readonly #text: string | undefined;

  constructor(input: string | URL | LiteRequest, init: LiteRequestInit = {}) {
    const source = input instanceof LiteRequest ? input : undefined;
    this.url = source ? source.url : new URL(String(input)).href;
    const method = String(init.method ?? source?.method ?? 'GET');
    this.method = NORMALIZED_METHODS.has(method.toUpperCase()) ? method.toUpperCase() : method;
    this.headers = new LiteHeaders(init.headers ?? source?.headers);
    this.signal = init.signal ?? source?.signal;
    const body = init.body === undefined ? (source ? source.#text : undefined) : (init.body ?? undefined);
    if (body !== undefined && typeof body !== 'string') throw new TypeError('a request body must be text');
    if (body !== undefined && (this.method === 'GET' || this.method === 'HEAD')) throw new TypeError(`a ${this.method} request cannot have a body`);
    if (body !== undefined && !this.headers.has('content-type')) this.headers.set('content-type', 'text/plain;charset=UTF-8');
    this.#text = body;
  }

  /**
   * Always null: the body is text, not a stream, and ky cancels any stream it
   * finds here once the request is done.
   */
  get body(): null {
    return null;
  }

  async text(): Promise<string> {
    return this.#text ?? '';
  }

  clone(): LiteRequest {
    return new LiteRequest(this);
  }
}

export interface LiteResponseInit {
  status?: number;
  statusText?: string;
  headers?: LiteHeadersInit;
}

/** A response whose body arrived whole, as text: it can be read any number of times. */
export class LiteResponse {
  readonly status: number;
  readonly statusText: string;
  readonly headers: LiteHeaders;
  readonly #text: string;

  constructor(body?: string | null, init: LiteResponseInit = {}) {
    this.status = init.status ?? 200;
    this.statusText = init.statusText ?? '';
    this.headers = new LiteHeaders(init.headers);
    this.#text = body ?? '';
  }

  get ok(): boolean {
    return this.status >= 200 && this.status <= 299;
  }

  /** Always null, as for the request: there is no stream for ky to cancel. */
  get body(): null {
    return null;
  }

  async text(): Promise<string> {
    return this.#text;
  }

  async json(): Promise<unknown> {
    return JSON.parse(this.#text);
  }

  clone(): LiteResponse {
    return new LiteResponse(this.#text, this);
  }
}
