/**
 * The sandbox: a local, stateful payment platform on node:http. Each request goes
 * route → body → token → account context → path/query/body validation → handler,
 * and any failure is answered with the reference's error shape.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CompanyRequest, PublicRequest, Reply, SandboxServices } from './context.js';
import { ApiError } from './errors.js';
import { companyHandlers, publicHandlers } from './handlers/index.js';
import { parseJsonBody, readBody, sendJson } from './http.js';
import { verifyAccessToken, type AccessClaims } from './jwt.js';
import { compiledOperations, type CompiledOperation } from './openapi.js';
import { DataFile } from './persistence.js';
import { DEFAULT_RETRY_DELAYS_MS, PostbackDispatcher } from './postbacks.js';
import { Router } from './router.js';
import { isUuid } from '../rules.js';
import { restoreCompany, SEEDED_COMPANIES, seedCompanies } from './seed.js';
import { SandboxStore, type Account, type Company } from './store.js';

export { SEEDED_COMPANIES } from './seed.js';

export interface SandboxOptions {
  /** default 4010; 0 picks a free port */
  port?: number;
  /** default 127.0.0.1 */
  host?: string;
  /** PRNG seed of the seed data, default 1 */
  seed?: number;
  /** acme's customer count, default 250 */
  customers?: number;
  /** JSON file loaded at start when present, saved atomically after every change and at close */
  dataFile?: string;
  /** access token lifetime, default 3600 */
  tokenTtlSeconds?: number;
  /** waits between postback attempts, default DEFAULT_RETRY_DELAYS_MS */
  postbackRetryDelaysMs?: number[];
  /** receives one line per request and per postback attempt */
  log?: (line: string) => void;
  /** milliseconds every answer waits, as across a network to the real platform (default 0) */
  latencyMs?: number;
}

export interface RunningSandbox {
  url: string;
  port: number;
  host: string;
  credentials: Array<{ company: string; clientId: string; clientSecret: string }>;
  /** Stops listening, drops pending postbacks and flushes the data file. */
  close(): Promise<void>;
}

export const DEFAULT_PORT = 4010;
const MAX_SEED_CUSTOMERS = 1_000_000;

function checkOptions(seed: number, customers: number, tokenTtlSeconds: number): void {
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
  checkOptions(seed, customers, tokenTtlSeconds);
  const log = options.log ?? (() => {});
  const operations = compiledOperations();
  checkHandlers(operations);
  const router = new Router(operations);

  const saved = options.dataFile ? DataFile.load(options.dataFile) : undefined;
  // A data file carries its own seed parameters: they win over the options, so reset restores that file's seed.
  const store = saved
    ? SandboxStore.fromSnapshot(saved, (company) => restoreCompany({ seed: saved.seed, customers: saved.customers }, company))
    : new SandboxStore(seed, customers, randomBytes(32), seedCompanies({ seed, customers }));
  const dataFile = options.dataFile ? new DataFile(options.dataFile, () => store.toSnapshot(), log) : undefined;
  if (dataFile && !saved) dataFile.changed();

  const services: SandboxServices = {
    store,
    seedConfig: { seed: store.seed, customers: store.customerCount },
    postbacks: new PostbackDispatcher(options.postbackRetryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS, log),
    tokenTtlSeconds,
    verifiedTokens: new Map(),
  };

  const latencyMs = options.latencyMs ?? 0;
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const started = performance.now();
    const method = req.method ?? 'GET';
    let status: number;
    try {
      const { operation, reply } = await respond(req, router, services);
      if (latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, latencyMs));
      status = reply.status ?? operation.successStatus;
      sendJson(res, status, reply.body);
      if (dataFile && method !== 'GET' && !operation.isPublic) dataFile.changed();
    } catch (error) {
      const apiError = error instanceof ApiError ? error : new ApiError('internal');
      if (!(error instanceof ApiError)) log(`internal error on ${method} ${req.url}: ${(error as Error)?.stack ?? String(error)}`);
      status = apiError.status;
      // Past the body limit the rest is not read: the connection closes after the answer.
      if (apiError.kind === 'bodyTooLarge') res.shouldKeepAlive = false;
      sendJson(res, status, apiError.toBody(), apiError.headers);
    }
    if (options.log) log(`${method} ${req.url} ${status} ${(performance.now() - started).toFixed(1)}ms`);
  };

  const server = createServer({ maxHeaderSize: 16 * 1024 }, (req, res) => void handle(req, res));
  // Requests node cannot even parse also get the error shape.
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    if (!socket.writable) return socket.destroy();
    const body = JSON.stringify(new ApiError('malformedJson', `malformed HTTP request (${error.code ?? 'parse error'})`).toBody());
    const length = `content-length: ${Buffer.byteLength(body)}`;
    const head = ['HTTP/1.1 400 Bad Request', 'content-type: application/json; charset=utf-8', length, 'connection: close'];
    socket.end(`${head.join('\r\n')}\r\n\r\n${body}`);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const urlHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;

  return {
    url: `http://${urlHost}:${address.port}`,
    port: address.port,
    host: address.address,
    credentials: SEEDED_COMPANIES.map((company) => ({ company: company.name, clientId: company.clientId, clientSecret: company.clientSecret })),
    async close() {
      services.postbacks.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await dataFile?.flush();
    },
  };
}

/** Routes, authenticates, validates and runs the handler of one request. */
async function respond(req: IncomingMessage, router: Router, services: SandboxServices): Promise<{ operation: CompiledOperation; reply: Reply }> {
  const url = req.url ?? '/';
  const queryStart = url.indexOf('?');
  const pathname = queryStart < 0 ? url : url.slice(0, queryStart);
  const match = router.match(req.method ?? 'GET', pathname);
  if (match.kind === 'notFound') throw new ApiError('routeNotFound', `no route ${pathname}`);
  if (match.kind === 'methodNotAllowed')
    throw new ApiError('methodNotAllowed', `${req.method} is not allowed on ${pathname}`, undefined, { allow: match.allowed.join(', ') });
  const { operation } = match;
  const rawBody = operation.validateBody ? await readBody(req) : undefined;

  const now = new Date();
  const company = operation.isPublic ? undefined : authenticate(req, services.store, services.verifiedTokens, now);
  const account = company && accountContext(req, company, operation);
  const request: PublicRequest = {
    params: operation.path.parse(match.rawParams),
    query: operation.query.parseQueryString(queryStart < 0 ? '' : url.slice(queryStart + 1)),
    body: rawBody && parseBody(rawBody, req.headers['content-type'], operation),
    now,
    services,
  };
  if (operation.isPublic) return { operation, reply: publicHandlers[operation.operationId]!(request) };
  const companyRequest: CompanyRequest = { ...request, company: company!, account: account! };
  return { operation, reply: companyHandlers[operation.operationId]!(companyRequest) };
}

function parseBody(raw: Buffer, contentType: string | undefined, operation: CompiledOperation): unknown {
  const body = parseJsonBody(raw, contentType);
  if (body === undefined || body === null) throw new ApiError('validation', 'a JSON object body is required');
  operation.validateBody!(body);
  return body;
}

const BEARER = /^Bearer +([^\s]+)\s*$/i;
/** Tokens already verified, so a client's every request does not pay for HMAC and JSON parsing again. */
const VERIFIED_TOKEN_CACHE_SIZE = 1000;

/** The token's company; 401 for anything else. */
function authenticate(req: IncomingMessage, store: SandboxStore, verified: Map<string, AccessClaims>, now: Date): Company {
  const match = BEARER.exec(req.headers.authorization ?? '');
  if (!match) throw new ApiError('unauthorized', 'missing bearer token', undefined, { 'www-authenticate': 'Bearer' });
  const token = match[1]!;
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
