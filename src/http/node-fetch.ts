import http from 'node:http';
import { isIP } from 'node:net';
import type https from 'node:https';
import type tls from 'node:tls';
import { loadBuiltin } from '../builtin.js';
import { LiteHeaders, LiteResponse } from './fetch-classes.js';
import { CONNECTION_OPTIONS, connectionUseOf, type ConnectionUse } from './keep-alive.js';
import { forgetAddresses } from './lookup.js';
import { proxyConfigured, proxyRoute, ProxySettingError, type ProxyRoute } from './proxy.js';
import { writeSent, writeSettled, type Write } from './writes.js';

/**
 * A `fetch` for ky built on node:http. On Node 20 the global fetch costs about
 * 200 ms on its first call (undici warming up); node:http costs about 15 ms,
 * which is most of a short command's run time. The answer is read whole, as
 * text, into a LiteResponse: wrapping it in a WHATWG stream only to decode it
 * back costs a third of a large export's time and most of its memory churn.
 */

/** A transport failure, with whether the request can have reached the server. */
export class TransportError extends TypeError {
  constructor(
    message: string,
    readonly code: string,
    /** true once the connection was open (for https, its TLS handshake done): the server may have read the request. */
    readonly reachedServer: boolean,
    /** What the user can do about it, where the failure says (a certificate this machine does not trust). */
    readonly hint?: string,
  ) {
    super(message);
    this.name = 'TransportError';
  }
}

export interface NodeFetchOptions {
  /** Epoch ms after which the attempt is abandoned; passed per request through ky's options. */
  deadline?: number;
  /** The timeout the deadline was set by (--timeout), named when it passes. */
  timeoutMs?: number;
  /** A POST, PUT, PATCH or DELETE: registered as on the wire while the server may be acting on it. */
  write?: Write;
  /**
   * Aborted when the run is interrupted, or its caller no longer wants the answer: the request is given
   * up (TransportError code INTERRUPTED), its message the reason when that is an Error, else `interrupted`.
   */
  interrupt?: AbortSignal;
}

/** Why a request was given up, for --debug: a caller's own reason (a page scan that failed), else Ctrl-C or a closed stdout. */
const givenUpWhy = (signal: AbortSignal | undefined): string => (signal?.reason instanceof Error ? signal.reason.message : 'interrupted');

/** A request given up before it was sent (or sent again): `interrupt` was aborted. */
export const givenUpBeforeSending = (interrupt: AbortSignal | undefined) => new TransportError(givenUpWhy(interrupt), INTERRUPTED, false);

export const INTERRUPTED = 'EINTERRUPTED';
/** The answer was larger than payctl reads: asking again would bring the same answer, so it is not retried. */
export const RESPONSE_TOO_LARGE = 'ERESPONSETOOLARGE';

/** An answer is read whole into memory: one larger than this is refused (a body's characters, or the bytes its Content-Length declares). */
const MAX_RESPONSE_CHARACTERS = 32 * 1024 * 1024;
const TOO_LARGE = `the response is larger than ${MAX_RESPONSE_CHARACTERS / 1024 / 1024} MiB`;
const TOO_LARGE_HINT = "asked again, it would be as large. The API's answers are far smaller: check the base URL (payctl auth status)";

/** For reads and for writes, one agent each (see keep-alive.ts): only reads reuse a connection. */
const agentsOf = <A>(Agent: new (options: http.AgentOptions) => A): Record<ConnectionUse, A> => ({
  read: new Agent(CONNECTION_OPTIONS.read),
  write: new Agent(CONNECTION_OPTIONS.write),
});
const httpAgents = agentsOf(http.Agent);
/** node:https (with TLS and crypto) is loaded only for an https base URL: a local sandbox never needs it. */
let httpsTransport: { module: typeof https; tls: typeof tls; agents: Record<ConnectionUse, https.Agent> } | undefined;
const loadHttps = () => {
  if (httpsTransport) return httpsTransport;
  const module = loadBuiltin<typeof https>('node:https');
  return (httpsTransport = { module, tls: loadBuiltin<typeof tls>('node:tls'), agents: agentsOf(module.Agent) });
};

/**
 * Ends the kept-alive connections no request is using, and forgets the addresses looked up. A
 * process starts with neither; the tests' in-process runs call this between runs so that each
 * starts the same way.
 */
export function resetConnections(): void {
  for (const agent of [httpAgents.read, httpsTransport?.agents.read]) {
    for (const sockets of Object.values(agent?.freeSockets ?? {})) for (const socket of sockets ?? []) socket.destroy();
  }
  forgetAddresses();
}

/** The members of a request that both LiteRequest and fetch's Request have. */
export type FetchInput = Pick<Request, 'url' | 'method' | 'text'> & { headers: Pick<Headers, 'forEach'> };
/** The members of an answer that payctl reads, from LiteResponse or fetch's Response. */
export type FetchAnswer = Pick<Response, 'status' | 'text'> & { headers: Pick<Headers, 'get'> };

export async function nodeFetch(input: FetchInput, init: NodeFetchOptions = {}): Promise<LiteResponse> {
  const url = new URL(input.url);
  const bodyText = await input.text();
  const body = bodyText === '' ? undefined : Buffer.from(bodyText, 'utf8');
  const headers: Record<string, string> = {};
  input.headers.forEach((value, key) => {
    headers[key] = value;
  });
  if (body) headers['content-length'] = String(body.length);
  if (init.interrupt?.aborted) throw givenUpBeforeSending(init.interrupt);
  const secure = url.protocol === 'https:' ? loadHttps() : undefined;
  const transport = secure?.module ?? http;
  const use = connectionUseOf(input.method);
  const proxy = proxyConfigured() ? await routeOf(url, use) : undefined;

  return new Promise<LiteResponse>((resolve, reject) => {
    let connected = false;
    /** Through a proxy: its tunnel is open (or, for http, the proxy connected), so failures from here on are the server's. */
    let tunnelOpen = false;
    let settled = false;
    const onConnected = () => {
      connected = true;
      if (init.write && !settled) writeSent(init.write);
    };
    const settle = () => {
      settled = true;
      clearTimeout(timer);
      if (init.write) writeSettled(init.write);
    };
    const fail = (message: string, code: string, hint?: string, reachedServer = connected) => {
      if (settled) return;
      settle();
      if (!connected) forgetAddresses();
      request.destroy();
      reject(new TransportError(message, code, reachedServer, hint));
    };
    const proxyRefused = (through: ProxyRoute, status: number | undefined, text: string | undefined) =>
      fail(
        `the proxy ${through.shown} (${through.variable}) refused to connect to ${url.host}: HTTP ${status} ${text ?? ''}`.trimEnd(),
        'EPROXYREFUSED',
        proxyHint(through, url),
        false,
      );
    const request = transport.request(
      url,
      {
        method: input.method,
        headers,
        agent: proxy?.agent ?? (secure?.agents ?? httpAgents)[use],
        ...(proxy && secure ? tunnelledAddressCheck(secure.tls, url) : {}),
      },
      (response) => {
        // An http request goes to the proxy itself: a 407 is the proxy asking for credentials, and it forwarded nothing.
        if (proxy && !secure && response.statusCode === 407) return proxyRefused(proxy, response.statusCode, response.statusMessage);
        // A body that says it is too large is refused before it is read; one that does not say is cut off when it is.
        const tooLarge = () => fail(TOO_LARGE, RESPONSE_TOO_LARGE, TOO_LARGE_HINT);
        if (Number(response.headers['content-length']) > MAX_RESPONSE_CHARACTERS) return tooLarge();
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          text += chunk;
          if (text.length > MAX_RESPONSE_CHARACTERS) tooLarge();
        });
        response.on('aborted', () => fail('the connection closed before the response was complete', 'ECONNRESET'));
        response.on('error', (error: NodeJS.ErrnoException) => fail(`the response broke off: ${error.message}`, error.code ?? 'ECONNRESET'));
        response.on('end', () => {
          if (settled) return;
          if (!response.complete) {
            fail('the connection closed before the response was complete', 'ECONNRESET');
            return;
          }
          const responseHeaders = new LiteHeaders();
          try {
            for (let i = 0; i < response.rawHeaders.length; i += 2) {
              const [name, value] = [response.rawHeaders[i], response.rawHeaders[i + 1]];
              if (name === undefined || value === undefined) throw new TypeError('a header name without its value');
              responseHeaders.append(name, value);
            }
          } catch {
            fail('the response has a malformed header', 'EBADHEADER');
            return;
          }
          settle();
          const status = response.statusCode ?? 0;
          const hasBody = status !== 204 && status !== 304 && input.method !== 'HEAD';
          resolve(new LiteResponse(hasBody ? text : '', { status, statusText: response.statusMessage ?? '', headers: responseHeaders }));
        });
      },
    );
    request.on('socket', (socket) => {
      // A kept-alive socket is already connected; a new one reports it. Over TLS the
      // request is written only after the handshake (through a proxy's tunnel too, whose
      // socket is handed over before it): a certificate refused before then means nothing was sent.
      if (request.reusedSocket || (!secure && !socket.connecting)) onConnected();
      else socket.once(secure ? 'secureConnect' : 'connect', onConnected);
    });
    if (proxy) {
      // https-proxy-agent reports the proxy's answer to CONNECT (anything but 200: the server was never reached);
      // http-proxy-agent, without a status, that the proxy is connected.
      request.on('proxyConnect', (answer: { statusCode?: number; statusText?: string }) => {
        if (answer.statusCode === undefined || answer.statusCode === 200) tunnelOpen = true;
        else proxyRefused(proxy, answer.statusCode, answer.statusText);
      });
    }
    request.on('error', (error: NodeJS.ErrnoException) => {
      if (proxy && !tunnelOpen && !connected) fail(describeProxyError(error, proxy), error.code ?? 'EPROXY', proxyHint(proxy, url));
      else fail(describeSocketError(error, url), error.code ?? 'ENETWORK', certificateHint(error) ?? refusedHint(error, url));
    });
    const remaining = init.deadline === undefined ? undefined : init.deadline - Date.now();
    const timer = setTimeout(
      () => fail(`no answer from ${url.host} within the ${init.timeoutMs === undefined ? '' : `${init.timeoutMs / 1000} s `}timeout`, 'ETIMEDOUT'),
      Math.max(0, remaining ?? 2 ** 31 - 1),
    );
    const onInterrupt = () => fail(givenUpWhy(init.interrupt), INTERRUPTED);
    init.interrupt?.addEventListener('abort', onInterrupt, { once: true });
    request.on('close', () => init.interrupt?.removeEventListener('abort', onInterrupt));
    request.end(body);
  });
}

/**
 * Through a proxy's tunnel, https-proxy-agent gives tls no host name for an address, and tls would check the
 * certificate against `localhost`: for a URL naming an address (IPv6 without its brackets), a check against it,
 * as a direct connection's. Only then: node 22 and later never keep alive a connection whose request brought a check of its own.
 */
function tunnelledAddressCheck(module: typeof tls, url: URL): Pick<tls.ConnectionOptions, 'checkServerIdentity'> {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  return isIP(host) ? { checkServerIdentity: (_, cert) => module.checkServerIdentity(host, cert) } : {};
}

/** The proxy for `url`, or a TransportError (nothing sent) when a proxy variable cannot be used. */
async function routeOf(url: URL, use: ConnectionUse): Promise<ProxyRoute | undefined> {
  try {
    return await proxyRoute(url, use);
  } catch (error) {
    if (error instanceof ProxySettingError) throw new TransportError(error.message, 'EPROXYSETTING', false, `nothing was sent; ${error.hint}`);
    throw error;
  }
}

const proxyHint = (proxy: ProxyRoute, url: URL) =>
  `nothing was sent; check the proxy in ${proxy.variable}, or add ${url.hostname} to NO_PROXY to connect directly`;

/** A failure on the way to the proxy. Its own message is not quoted: a library's may name the proxy with its password. */
function describeProxyError(error: NodeJS.ErrnoException, proxy: ProxyRoute): string {
  const where = `the proxy ${proxy.shown} (${proxy.variable})`;
  switch (error.code) {
    case 'ECONNREFUSED':
      return `could not connect to ${where}: connection refused`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `could not resolve ${where}`;
    case 'ECONNRESET':
    case 'EPIPE':
      return `${where} closed the connection`;
    default:
      return `could not go through ${where}${error.code ? ` (${error.code})` : ''}`;
  }
}

function describeSocketError(error: NodeJS.ErrnoException, url: URL): string {
  switch (error.code) {
    case 'ECONNREFUSED':
      return `could not connect to ${url.host}: connection refused`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `could not resolve ${url.hostname}`;
    case 'ECONNRESET':
    case 'EPIPE':
      return `the connection to ${url.host} was closed before an answer came`;
    default:
      if (error.code && CERTIFICATE_ERRORS.has(error.code)) return `the TLS certificate of ${url.host} was refused: ${certificateReason(error)} (${error.code})`;
      return `request to ${url.host} failed: ${error.message}`;
  }
}

/** Nothing listens at the address: most often a sandbox that is not running, or runs on another port. */
function refusedHint(error: NodeJS.ErrnoException, url: URL): string | undefined {
  if (error.code !== 'ECONNREFUSED') return undefined;
  return (
    `nothing was sent; is the API at ${url.origin} running? A local sandbox: payctl sandbox start (it prints its URL); ` +
    'another address: --base-url URL or PAYCTL_BASE_URL'
  );
}

/** OpenSSL's verification failures (Node passes them on as the error's code), and Node's own host name check. */
const UNTRUSTED_ISSUER = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'CERT_UNTRUSTED',
]);
const CERTIFICATE_ERRORS = new Set([
  ...UNTRUSTED_ISSUER,
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_REVOKED',
  'CERT_SIGNATURE_FAILURE',
  'CERT_REJECTED',
  'INVALID_CA',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/**
 * OpenSSL's reason alone. Node 22.15 and later append advice to run Node with --use-system-ca,
 * which a payctl user cannot follow as worded; the hint says how, on the Node versions that have it.
 */
const certificateReason = (error: Error): string => error.message.replace(/; if the root CA is installed locally.*$/s, '');

const SYSTEM_STORE_FLAG = '--use-system-ca';

function certificateHint(error: NodeJS.ErrnoException): string | undefined {
  if (!error.code || !CERTIFICATE_ERRORS.has(error.code)) return undefined;
  if (UNTRUSTED_ISSUER.has(error.code)) {
    const systemStore = process.allowedNodeEnvironmentFlags.has(SYSTEM_STORE_FLAG)
      ? `; if it is in this system's certificate store: NODE_OPTIONS=${SYSTEM_STORE_FLAG} payctl ...`
      : '';
    return (
      'nothing was sent. If the server is signed by an authority of your own (a company proxy, a sandbox started with --tls), ' +
      `trust it: NODE_EXTRA_CA_CERTS=/path/to/ca.pem payctl ...${systemStore}`
    );
  }
  return (
    'nothing was sent. The certificate is wrong for this host or date: ' +
    'check the base URL (NODE_EXTRA_CA_CERTS adds trusted authorities, it does not excuse this)'
  );
}
