/**
 * Talks to an in-process sandbox over real HTTP and checks every answer against
 * the OpenAPI document: a 2xx body against its operation's response schema, any
 * other body against the error shape, and never a 500. So every call of every
 * test checks shapes.
 */
import { spawn } from 'node:child_process';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect } from 'vitest';
import { BIN, cleanEnv, ROOT } from '../helpers/cli.js';
import type {
  ApiErrorBody, AuthResponse, BankAccount, BankAccountListResponse, Customer, CustomerListResponse, SubaccountListResponse, SubscriptionListItem,
  SubscriptionListResponse, Withdrawal, WithdrawalListResponse,
} from '../../src/api/types.js';
import { answerViolation, compiledOperations } from '../../src/sandbox/openapi.js';
import { Router } from '../../src/sandbox/router.js';
import { startSandbox, type RunningSandbox, type SandboxOptions } from '../../src/sandbox/server.js';
import { freshFetch } from '../helpers/fresh-fetch.js';

/** An answer; `T` is its body's type from src/api/types.ts (as `CustomerResponse`), unknown until a test names it. */
export interface ApiResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
}

const router = new Router(compiledOperations());

/** Asserts that `body` is what the document promises for this call and status (the sandbox's own check, seen from outside). */
export function expectDocumentedResponse(method: string, path: string, status: number, body: unknown): void {
  const violation = answerViolation(router.operationOf(method, path), status, body);
  expect(violation, `${method} ${path} → ${status} ${violation}\n${JSON.stringify(body).slice(0, 500)}`).toBeUndefined();
}

export interface CallOptions {
  body?: unknown;
  /** sent as is instead of JSON-encoding `body` */
  rawBody?: string | Buffer;
  headers?: Record<string, string>;
  /** overrides the client's token; null sends none */
  token?: string | null;
  subaccount?: string;
}

export class Client {
  constructor(
    readonly baseUrl: string,
    readonly token: string | null,
  ) {}

  async call<T = unknown>(method: string, path: string, options: CallOptions = {}): Promise<ApiResponse<T>> {
    const token = options.token === undefined ? this.token : options.token;
    const headers: Record<string, string> = { ...options.headers };
    if (token) headers.authorization = `Bearer ${token}`;
    if (options.subaccount) headers['x-subaccount-id'] = options.subaccount;
    let body: string | Uint8Array<ArrayBuffer> | undefined =
      options.rawBody === undefined || typeof options.rawBody === 'string' ? options.rawBody : new Uint8Array(options.rawBody);
    if (body === undefined && options.body !== undefined) body = JSON.stringify(options.body);
    if (body !== undefined && !Object.keys(headers).some((name) => name.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
    const response = await freshFetch(this.baseUrl + path, { method, headers, body });
    const text = await response.text();
    expect(response.status, `${method} ${path} answered 500: ${text}`).not.toBe(500);
    expect(response.headers.get('content-type'), `${method} ${path}`).toMatch(/^application\/json/);
    const parsed = JSON.parse(text) as T;
    expectDocumentedResponse(method, path, response.status, parsed);
    return { status: response.status, headers: response.headers, body: parsed };
  }

  get = <T = unknown>(path: string, options?: CallOptions) => this.call<T>('GET', path, options);
  post = <T = unknown>(path: string, body?: unknown, options: CallOptions = {}) => this.call<T>('POST', path, { ...options, body });
  put = <T = unknown>(path: string, body?: unknown, options: CallOptions = {}) => this.call<T>('PUT', path, { ...options, body });
  delete = <T = unknown>(path: string, options?: CallOptions) => this.call<T>('DELETE', path, options);
}

/** Asserts the reference's error shape with this status and return code. */
export function expectError(response: ApiResponse, status: number, returnCode: number): asserts response is ApiResponse<ApiErrorBody> {
  const body = response.body as Partial<ApiErrorBody> | undefined;
  expect({ status: response.status, returnCode: body?.data?.returnCode }, JSON.stringify(response.body)).toEqual({ status, returnCode });
  expect(typeof body?.data?.message).toBe('string');
  expect(Object.keys(response.body as object)).toEqual(['data']);
}

export async function login(sandbox: RunningSandbox, clientId: 'acme' | 'globex'): Promise<Client> {
  const secret = sandbox.credentials.find((credential) => credential.clientId === clientId)!.clientSecret;
  const response = await new Client(sandbox.url, null).post<AuthResponse>('/auth', { clientId, clientSecret: secret });
  expect(response.status).toBe(200);
  return new Client(sandbox.url, response.body.data.accessToken);
}

type NonEmpty<T> = [T, ...T[]];

/** A seeded list the tests take items of: typed as holding one at least, which is checked here, once. */
function seeded<T>(what: string, items: T[]): NonEmpty<T> {
  const [first, ...rest] = items;
  if (first === undefined) throw new Error(`the sandbox seeded no ${what}`);
  return [first, ...rest];
}

/** Well-known seeded ids of a company, discovered through the API. */
export interface Fixtures {
  subaccounts: { approved: NonEmpty<string>; pending: string };
  customers: NonEmpty<Customer>;
  /** a customer without an address yet */
  customerWithoutAddress: Customer;
  subscriptions: NonEmpty<SubscriptionListItem>;
  mainBankAccounts: NonEmpty<BankAccount>;
  subaccountBankAccounts: NonEmpty<BankAccount>;
  withdrawals: NonEmpty<Withdrawal>;
}

export async function discover(client: Client): Promise<Fixtures> {
  const subaccounts = (await client.get<SubaccountListResponse>('/sandbox/subaccounts?limit=100')).body.data;
  const approved = seeded('approved sub-account', subaccounts.filter((subaccount) => subaccount.status === 'APPROVED').map((subaccount) => subaccount.id));
  const customers = seeded('customer', (await client.get<CustomerListResponse>('/customers?limit=100')).body.data);
  const subscriptions = seeded('subscription', (await client.get<SubscriptionListResponse>('/subscriptions?limit=100')).body.data);
  return {
    subaccounts: { approved, pending: subaccounts.find((subaccount) => subaccount.status === 'PENDING')!.id },
    customers,
    customerWithoutAddress: customers.find((customer) => !('address' in customer))!,
    subscriptions,
    mainBankAccounts: seeded('bank account', (await client.get<BankAccountListResponse>('/bank_accounts')).body.data),
    subaccountBankAccounts: seeded("sub-account's bank account", (await client.get<BankAccountListResponse>('/bank_accounts', { subaccount: approved[0] })).body.data),
    withdrawals: seeded('withdrawal', (await client.get<WithdrawalListResponse>('/withdrawals?limit=100')).body.data),
  };
}

export interface Session {
  sandbox: RunningSandbox;
  acme: Client;
  globex: Client;
  anonymous: Client;
}

export async function startSession(options: SandboxOptions = {}): Promise<Session> {
  const sandbox = await startSandbox({ port: 0, ...options });
  return { sandbox, acme: await login(sandbox, 'acme'), globex: await login(sandbox, 'globex'), anonymous: new Client(sandbox.url, null) };
}

/** Valid test values. */
/**
 * One sandbox for a describe block: started before its tests, with one company's
 * fixtures discovered through the API and handed to `ready`, and closed after them.
 */
export function useSandbox(ready: (session: Session, fixtures: Fixtures) => void, company: 'acme' | 'globex' = 'acme'): void {
  let session: Session | undefined;
  beforeAll(async () => {
    session = await startSession();
    ready(session, await discover(session[company]));
  });
  afterAll(() => session?.sandbox.close());
}

export const VALID = {
  cpf: '52998224725',
  cnpj: '11222333000181',
  visa: '4111111111111111',
  email: 'pix@example.com',
  phone: '+5511987654321',
  randomKey: '123e4567-e89b-42d3-a456-426614174000',
};

/** `payctl sandbox start` running in a process of its own (the built payctl). */
export interface SandboxProcess {
  url: string;
  pid: number;
  /** everything the process wrote to stderr so far */
  stderr(): string;
  /** Resolves with the exit code or signal once the process has ended. */
  exited: Promise<number | NodeJS.Signals | null>;
  kill(signal?: NodeJS.Signals): void;
}

/** Runs the built sandbox bundle with the options in argv[1], like `payctl sandbox start` (for options it has no flag for). */
const LIBRARY_RUNNER = `
const { startSandbox } = require(process.env.PAYCTL_SANDBOX_BUNDLE);
startSandbox({ port: 0, ...JSON.parse(process.argv[1]) }).then((sandbox) => {
  process.stdout.write('listening on ' + sandbox.url + '\\n');
  process.once('SIGTERM', () => sandbox.close().then(() => process.exit(0)));
});`;

/**
 * Starts `payctl sandbox start --port 0 ARGS` (or, given `library`, the built
 * sandbox with those options) and waits for its `listening on` line.
 * `openFiles` runs it under `ulimit -n` (the shell lowers both limits for that process only).
 */
export async function startSandboxProcess(
  args: readonly string[],
  options: { openFiles?: number; env?: Record<string, string>; library?: SandboxOptions } = {},
): Promise<SandboxProcess> {
  const command = options.library
    ? [process.execPath, '-e', LIBRARY_RUNNER, JSON.stringify(options.library)]
    : [process.execPath, BIN, 'sandbox', 'start', '--port', '0', ...args];
  const [file, argv] =
    options.openFiles === undefined ? [command[0]!, command.slice(1)] : ['bash', ['-c', `ulimit -n ${options.openFiles} && exec "$@"`, 'bash', ...command]];
  const env = cleanEnv({ PAYCTL_SANDBOX_CHECK_ANSWERS: '1', PAYCTL_SANDBOX_BUNDLE: `${ROOT}/dist/sandbox.cjs`, ...options.env });
  const child = spawn(file, argv, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | NodeJS.Signals | null>((resolve) => child.once('exit', (code, signal) => resolve(signal ?? code)));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      const match = /listening on (\S+)/.exec(stdout);
      if (match) resolve(match[1]!);
    });
    void exited.then((code) => reject(new Error(`sandbox exited (${code}) before listening:\n${stderr}`)));
  });
  return { url, pid: child.pid!, stderr: () => stderr, exited, kill: (signal = 'SIGTERM') => void child.kill(signal) };
}

/** Postbacks as a receiver saw them. */
export interface Delivery {
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

/** A receiver on 127.0.0.1 answering the given statuses in turn (then 200). */
export async function receiver(statuses: number[], { answerAfter }: { answerAfter?: Promise<void> } = {}) {
  const deliveries: Delivery[] = [];
  let notify: () => void = () => {};
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      deliveries.push({ headers: req.headers, body, at: Date.now() });
      const status = statuses.shift() ?? 200;
      void (answerAfter ?? Promise.resolve()).then(() => {
        res.statusCode = status;
        res.end();
      });
      notify();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/withdrawals`,
    deliveries,
    async waitFor(count: number) {
      while (deliveries.length < count) await new Promise<void>((resolve) => (notify = resolve));
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
