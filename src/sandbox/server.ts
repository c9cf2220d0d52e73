/**
 * The sandbox: a local, stateful payment platform on node:http. Each request goes
 * route → body → token → account context → path/query/body validation → handler,
 * and any failure is answered with the reference's error shape.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createSecureServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { CompanyRequest, PublicRequest, Reply, SandboxServices } from './context.js';
import { DEFAULT_IDLE_TIMEOUT_MS, defaultMaxConnections, guardConnections, SERVER_TIMEOUTS } from './connections.js';
import { applyChange, ChangeSet } from './changes.js';
import { ApiError } from './errors.js';
import { checkFaultOptions, FaultInjector, type Fate, type FaultOptions } from './faults.js';
import { companyHandlers, publicHandlers } from './handlers/index.js';
import { jsonBytes, parseJsonBody, readBody, sendJson } from './http.js';
import { verifyAccessToken, type AccessClaims } from './jwt.js';
import { answerViolation, compiledOperations, type CompiledOperation } from './openapi.js';
import { DataFile } from './persistence.js';
import { DEFAULT_RETRY_DELAYS_MS, PostbackDispatcher } from './postbacks.js';
import { Router } from './router.js';
import { AutoSettlement } from './settlement.js';
import { isUuid } from '../validation/rules.js';
import { reseedCompany, restoreCompany, SEEDED_COMPANIES, seedCompanies, type SeedConfig } from './seed.js';
import { SandboxStore, type Account, type Company } from './store.js';
import { makeCertificate, type SandboxCertificate } from './tls.js';

export { SEEDED_COMPANIES } from './seed.js';

export interface SandboxOptions extends FaultOptions {
  /** default 4010; 0 picks a free port */
  port?: number;
  /** default 127.0.0.1 */
  host?: string;
  /** PRNG seed of the seed data, default 1 */
  seed?: number;
  /** acme's customer count, default 250 */
  customers?: number;
  /** JSON snapshot loaded at start when present, with FILE.log: every change is on disk before it is answered (see persistence.ts) */
  dataFile?: string;
  /** with dataFile: the log is compacted into a new snapshot once larger than this and than the snapshot (default 4 MiB) */
  compactLogBytes?: number;
  /** access token lifetime, default 3600 */
  tokenTtlSeconds?: number;
  /** waits between postback attempts, default DEFAULT_RETRY_DELAYS_MS */
  postbackRetryDelaysMs?: number[];
  /** receives one line per request and per postback attempt */
  log?: (line: string) => void;
  /** milliseconds every answer waits, as across a network to the real platform (default 0) */
  latencyMs?: number;
  /**
   * Checks every answer against the OpenAPI document; one that does not match is
   * answered 500 instead, recorded in answerViolations, and makes close() reject.
   * For tests; default: on when PAYCTL_SANDBOX_CHECK_ANSWERS=1.
   */
  checkAnswers?: boolean;
  /** connections kept open at most; past it the longest-idle ones are closed (default: from the open-file limit) */
  maxConnections?: number;
  /** a connection that has not begun a request within this many milliseconds, or whose answer stops moving for as long, is closed (default 10,000) */
  idleTimeoutMs?: number;
  /** PENDING withdrawals settle on their own this many milliseconds after their creation (default: only by hand) */
  settleAfterMs?: number;
  /** with settleAfterMs: the share, 0 to 1, of settlements that are FAILED (default 0.1) */
  settleFailedShare?: number;
  /** serve https with a certificate made at start, signed by an authority made with it (RunningSandbox.caFile) */
  tls?: boolean;
}

export interface RunningSandbox {
  url: string;
  port: number;
  host: string;
  credentials: Array<{ company: string; clientId: string; clientSecret: string }>;
  /** With tls: the certificate of the authority that signed the sandbox's, to trust (NODE_EXTRA_CA_CERTS); removed by close(). */
  caFile?: string;
  /** With checkAnswers: every answer that did not match the document, as `METHOD URL → STATUS: why`. */
  answerViolations: readonly string[];
  /** Stops listening, drops pending postbacks and flushes the data file; rejects when an answer violated the document. */
  close(): Promise<void>;
}

export const DEFAULT_PORT = 4010;
const MAX_SEED_CUSTOMERS = 1_000_000;

function checkOptions(options: SandboxOptions, seed: number, customers: number, tokenTtlSeconds: number): void {
  checkFaultOptions(options);
  if (options.settleAfterMs !== undefined && !(Number.isInteger(options.settleAfterMs) && options.settleAfterMs >= 0)) {
    throw new RangeError('settleAfterMs must be a non-negative integer');
  }
  if (options.settleFailedShare !== undefined && !(options.settleFailedShare >= 0 && options.settleFailedShare <= 1)) {
    throw new RangeError('settleFailedShare must be a share from 0 to 1');
  }
  if (!Number.isSafeInteger(seed)) throw new RangeError('seed must be an integer');
  if (!Number.isInteger(customers) || customers < 1 || customers > MAX_SEED_CUSTOMERS)
    throw new RangeError(`customers must be an integer from 1 to ${MAX_SEED_CUSTOMERS}`);
  if (!Number.isInteger(tokenTtlSeconds) || tokenTtlSeconds < 1) throw new RangeError('tokenTtlSeconds must be a positive integer');
}

/** Every operation of the document has a handler of the right kind, and every handler an operation. */
function checkHandlers(operations: readonly CompiledOperation[]): void {
  const expected = operations.map((operation) => `${operation.isPublic ? 'public' : 'company'}:${operation.operationId}`).sort();
  const actual = [...Object.keys(publicHandlers).map((id) => `public:${id}`), ...Object.keys(companyHandlers).map((id) => `company:${id}`)].sort();
  if (expected.join() !== actual.join())
    throw new Error(`sandbox handlers do not match the OpenAPI operations:\n  document: ${expected.join(', ')}\n  handlers: ${actual.join(', ')}`);
}

export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const { port = DEFAULT_PORT, host = '127.0.0.1', seed = 1, customers = 250, tokenTtlSeconds = 3600 } = options;
  checkOptions(options, seed, customers, tokenTtlSeconds);
  const log = options.log ?? (() => {});
  const operations = compiledOperations();
  checkHandlers(operations);
  const router = new Router(operations);

  const { store, seedConfig, dataFile } = await openState(options, { seed, customers }, log);
  const services: SandboxServices = {
    store,
    seedConfig,
    postbacks: new PostbackDispatcher(options.postbackRetryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS, log),
    tokenTtlSeconds,
    verifiedTokens: new Map(),
  };

  const latencyMs = options.latencyMs ?? 0;
  const checkAnswers = options.checkAnswers ?? process.env.PAYCTL_SANDBOX_CHECK_ANSWERS === '1';
  const answerViolations: string[] = [];
  const faults = new FaultInjector(options, seedConfig.seed);
  let settlement: AutoSettlement | undefined;
  /**
   * Makes one unit of changes durable (with a data file), then runs what had to
   * wait for that. The log entry is made at once, before anything else can change
   * the state, so log order is the order of the changes.
   */
  const commit = async (company: Company, changes: ChangeSet): Promise<void> => {
    if (dataFile && changes.changes.length > 0) {
      try {
        await dataFile.append(company.id, changes.changes);
      } catch (error) {
        throw new ApiError('internal', `the change could not be saved: ${(error as Error).message}`);
      }
    }
    for (const action of changes.afterDurable) action();
    for (const change of changes.changes) {
      if (change.kind === 'withdrawal' && change.record.status === 'PENDING') {
        settlement?.schedule(company.id, change.account, change.record.id, change.record.createdAt);
      }
      const current = change.kind === 'reset' && services.store.company(company.id);
      if (current) settlement?.scheduleCompany(current);
    }
  };
  if (options.settleAfterMs !== undefined) {
    const settleOptions = { settleAfterMs: options.settleAfterMs, failedShare: options.settleFailedShare };
    settlement = new AutoSettlement(settleOptions, seedConfig.seed, store, services.postbacks, commit, log);
    for (const company of store.companies()) settlement.scheduleCompany(company);
  }
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const started = performance.now();
    const method = req.method ?? 'GET';
    let operation: CompiledOperation | undefined;
    let status: number;
    let bytes: Buffer;
    let headers: Record<string, string> = {};
    try {
      const answer = await respond(req, { router, services, faults, commit });
      operation = answer.operation;
      await answer.durable;
      if (answer.fate === 'failsAfterWrite') throw new ApiError('injectedFailure');
      if (latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, latencyMs));
      status = answer.reply.status ?? operation.successStatus;
      bytes = jsonBytes(answer.reply.body);
    } catch (error) {
      const apiError = error instanceof ApiError ? error : new ApiError('internal');
      if (!(error instanceof ApiError)) log(`internal error on ${method} ${req.url}: ${(error as Error)?.stack ?? String(error)}`);
      operation = router.operationOf(method, req.url ?? '/');
      status = apiError.status;
      bytes = jsonBytes(apiError.toBody());
      headers = apiError.headers;
      // Past the body limit the rest is not read: the connection closes after the answer.
      if (apiError.kind === 'bodyTooLarge') res.shouldKeepAlive = false;
    }
    if (checkAnswers) ({ status, bytes } = checkedAnswer(`${method} ${req.url}`, operation, status, bytes, answerViolations, log));
    // No answer shows a change before it is durable: a read waits for the writes made before it.
    await dataFile?.settled();
    sendJson(res, status, bytes, headers);
    if (options.log) log(`${method} ${req.url} ${status} ${(performance.now() - started).toFixed(1)}ms`);
  };

  const idleTimeoutMs = options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
  const certificate: SandboxCertificate | undefined = options.tls ? await makeCertificate(host) : undefined;
  const serverOptions = { maxHeaderSize: 16 * 1024, ...SERVER_TIMEOUTS };
  const listener = (req: IncomingMessage, res: ServerResponse) => void handle(req, res);
  // Over TLS, a client that never finishes its handshake is dropped as one that never sends a request is.
  const server = certificate
    ? createSecureServer({ ...serverOptions, key: certificate.key, cert: certificate.cert, handshakeTimeout: idleTimeoutMs }, listener)
    : createServer(serverOptions, listener);
  const limits = { maxConnections: options.maxConnections ?? defaultMaxConnections(), idleTimeoutMs, stalledAnswerMs: idleTimeoutMs + latencyMs };
  guardConnections(server, limits, certificate ? 'secureConnection' : 'connection');
  // Requests node cannot even parse also get the error shape.
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    if (!socket.writable) return socket.destroy();
    const body = JSON.stringify(new ApiError('malformedJson', `malformed HTTP request (${error.code ?? 'parse error'})`).toBody());
    const length = `content-length: ${Buffer.byteLength(body)}`;
    const head = ['HTTP/1.1 400 Bad Request', 'content-type: application/json; charset=utf-8', length, 'connection: close'];
    socket.end(`${head.join('\r\n')}\r\n\r\n${body}`);
  });
  await new Promise<void>((resolve, reject) => {
    const failed = (error: Error) => {
      certificate?.remove();
      reject(error);
    };
    server.once('error', failed);
    server.listen(port, host, () => {
      server.off('error', failed);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const urlHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;

  return {
    url: `${certificate ? 'https' : 'http'}://${urlHost}:${address.port}`,
    caFile: certificate?.caFile,
    port: address.port,
    host: address.address,
    credentials: SEEDED_COMPANIES.map((company) => ({ company: company.name, clientId: company.clientId, clientSecret: company.clientSecret })),
    answerViolations,
    async close() {
      settlement?.close();
      services.postbacks.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await dataFile?.close();
      certificate?.remove();
      if (answerViolations.length) {
        throw new Error(`${answerViolations.length} sandbox answers violated the OpenAPI document:\n  ${answerViolations.join('\n  ')}`);
      }
    },
  };
}

/**
 * The state at start: the seed, or the data file's snapshot with its log replayed.
 * A data file carries its own seed parameters: they win over the options, so
 * reset restores that file's seed.
 */
async function openState(options: SandboxOptions, seeded: SeedConfig, log: (line: string) => void) {
  const saved = options.dataFile ? DataFile.load(options.dataFile) : undefined;
  const seedConfig: SeedConfig = saved ? { seed: saved.snapshot.seed, customers: saved.snapshot.customers } : seeded;
  const store = saved
    ? SandboxStore.fromSnapshot(saved.snapshot, (company) => restoreCompany(seedConfig, company))
    : new SandboxStore(seedConfig.seed, seedConfig.customers, randomBytes(32), seedCompanies(seedConfig));
  for (const entry of saved?.entries ?? []) {
    for (const change of entry.changes) applyChange(store, entry.company, change, (company) => reseedCompany(seedConfig, company));
  }
  const seq = saved && (saved.entries.at(-1)?.seq ?? saved.snapshot.seq);
  const dataFile = options.dataFile
    ? await DataFile.open(options.dataFile, { seq, snapshot: () => store.toSnapshot(), report: log, compactLogBytes: options.compactLogBytes })
    : undefined;
  return { store, seedConfig, dataFile };
}

/** The answer, or a 500 in its place (recorded in `violations`) when it does not match the document. */
function checkedAnswer(
  request: string,
  operation: CompiledOperation | undefined,
  status: number,
  bytes: Buffer,
  violations: string[],
  log: (line: string) => void,
) {
  const violation = answerViolation(operation, status, JSON.parse(bytes.toString('utf8')));
  if (!violation) return { status, bytes };
  violations.push(`${request} → ${status}: ${violation}`);
  log(`answer violates the OpenAPI document: ${violations.at(-1)}`);
  return { status: 500, bytes: jsonBytes(new ApiError('internal', `answer violates the OpenAPI document: ${violation}`).toBody()) };
}

/** What answering a request takes. */
interface Pipeline {
  router: Router;
  services: SandboxServices;
  faults: FaultInjector;
  /** makes a handler's changes durable; called in the same step as the handler, so no other request comes between */
  commit: (company: Company, changes: ChangeSet) => Promise<void>;
}

interface Answer {
  operation: CompiledOperation;
  reply: Reply;
  /** resolves once the request's changes are durable */
  durable?: Promise<void>;
  fate: Fate;
}

/** Routes, authenticates, validates and runs the handler of one request, and starts saving its changes. */
async function respond(req: IncomingMessage, { router, services, faults, commit }: Pipeline): Promise<Answer> {
  const url = req.url ?? '/';
  const queryStart = url.indexOf('?');
  const pathname = queryStart < 0 ? url : url.slice(0, queryStart);
  const match = router.match(req.method ?? 'GET', pathname);
  if (match.kind === 'notFound') throw new ApiError('routeNotFound', `no route ${pathname}`);
  if (match.kind === 'methodNotAllowed')
    throw new ApiError('methodNotAllowed', `${req.method} is not allowed on ${pathname}`, undefined, { allow: match.allowed.join(', ') });
  const { operation } = match;
  const fate = faults.admit(operation, req.socket.remoteAddress ?? '', Date.now());
  const rawBody = operation.validateBody ? await readBody(req) : undefined;

  const now = new Date();
  const company = operation.isPublic ? undefined : authenticate(req, services.store, services.verifiedTokens, now);
  const caller = company && { company, account: accountContext(req, company, operation) };
  const request: PublicRequest = {
    params: operation.path.parse(match.rawParams),
    query: operation.query.parseQueryString(queryStart < 0 ? '' : url.slice(queryStart + 1)),
    body: rawBody && operation.validateBody && parseBody(rawBody, req.headers['content-type'], operation.validateBody),
    now,
    services,
  };
  if (!caller) return { operation, reply: handlerOf(publicHandlers, operation)(request), fate };
  const changes = new ChangeSet();
  const companyRequest: CompanyRequest = { ...request, ...caller, changes };
  const reply = handlerOf(companyHandlers, operation)(companyRequest);
  return { operation, reply, durable: commit(companyRequest.company, changes), fate };
}

/** The operation's handler: the sandbox checks at start that every operation has one. */
function handlerOf<H>(handlers: Record<string, H>, operation: CompiledOperation): H {
  const handler = handlers[operation.operationId];
  if (!handler) throw new ApiError('internal', `no handler for ${operation.operationId}`);
  return handler;
}

/** Every body the API takes is a JSON object: anything else is refused before its schema is consulted. */
function parseBody(raw: Buffer, contentType: string | undefined, validateBody: (body: unknown) => void): unknown {
  const body = parseJsonBody(raw, contentType);
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new ApiError('validation', 'the body must be a JSON object');
  validateBody(body);
  return body;
}

const BEARER = /^Bearer +([^\s]+)\s*$/i;
/** Tokens already verified, so a client's every request does not pay for HMAC and JSON parsing again. */
const VERIFIED_TOKEN_CACHE_SIZE = 1000;

/** The token's company; 401 for anything else. */
function authenticate(req: IncomingMessage, store: SandboxStore, verified: Map<string, AccessClaims>, now: Date): Company {
  const token = BEARER.exec(req.headers.authorization ?? '')?.[1];
  if (!token) throw new ApiError('unauthorized', 'missing bearer token', undefined, { 'www-authenticate': 'Bearer' });
  const nowSeconds = Math.floor(now.getTime() / 1000);
  let claims = verified.get(token);
  if (!claims || claims.exp <= nowSeconds) {
    verified.delete(token);
    claims = verifyAccessToken(token, store.jwtKey, nowSeconds);
    if (claims) {
      if (verified.size >= VERIFIED_TOKEN_CACHE_SIZE) verified.clear();
      verified.set(token, claims);
    }
  }
  const company = claims && store.company(claims.sub);
  if (!company) throw new ApiError('unauthorized', 'invalid or expired token', undefined, { 'www-authenticate': 'Bearer error="invalid_token"' });
  return company;
}

/**
 * The account the request acts on. x-subaccount-id is checked on every route, so
 * a wrong one is never silently ignored, but it switches the account only on the
 * routes that take it (bank accounts, withdrawals, balance and their sandbox routes).
 */
function accountContext(req: IncomingMessage, company: Company, operation: CompiledOperation): Account {
  const header = req.headers['x-subaccount-id'];
  if (header === undefined) return company.account;
  if (typeof header !== 'string' || !isUuid(header)) throw new ApiError('invalidSubaccountHeader', 'x-subaccount-id must be a UUID');
  const account = company.subaccountAccounts.get(header);
  if (!account) throw new ApiError('foreignSubaccount', `sub-account ${header} is not one of this company's`);
  return operation.takesSubaccount ? account : company.account;
}
