import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import type {
  ApiErrorBody, AuthResponse, BalancesResponse, BankAccount, BankAccountListResponse, Customer, Subaccount, Subscription, SubscriptionListItem,
  SubscriptionListResponse, SubscriptionResponse, Withdrawal, WithdrawalResponse,
} from '../../src/api/types.js';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import { startSandboxProcess } from '../sandbox/helpers.js';
import { tally, trackFailures } from './tally.js';
import { freshFetch } from '../helpers/fresh-fetch.js';

/**
 * The sandbox under attack, over raw HTTP: another company's ids on every
 * route, foreign and malformed x-subaccount-id, forged tokens, hostile bodies
 * and query strings, and requests racing on one balance or subscription.
 * Nothing crosses a tenant, no balance goes negative, no split sum passes its
 * limit, and every refusal has the error shape — never a 500.
 */

/**
 * An answer; `T` is its body's type from src/api/types.ts, unknown until the caller names it.
 * A body that is not JSON is undefined: only refusals are read unnamed, and refusalProblem checks them.
 */
interface Reply<T = unknown> {
  status: number;
  body: T;
  text: string;
}

interface CallOptions {
  token?: string;
  body?: unknown;
  raw?: string | Buffer;
  headers?: Record<string, string>;
}

let sandbox: RunningSandbox;
let acme: string;
let globex: string;
trackFailures();

async function call<T = unknown>(method: string, path: string, options: CallOptions = {}): Promise<Reply<T>> {
  const headers: Record<string, string> = { ...(options.token ? { authorization: `Bearer ${options.token}` } : {}), ...options.headers };
  const payload = options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  if (payload !== undefined) headers['content-type'] ??= 'application/json';
  const response = await freshFetch(`${sandbox.url}${path}`, { method, headers, body: payload });
  const text = await response.text();
  let body: T;
  try {
    body = JSON.parse(text) as T;
  } catch {
    body = undefined as T;
  }
  return { status: response.status, body, text };
}

/** A refusal in the reference's error shape, not a 500, and carrying no stack. */
function refusalProblem(reply: Reply, label: string, status?: number | number[], returnCode?: number): string | undefined {
  const data = (reply.body as Partial<ApiErrorBody> | undefined)?.data;
  const wanted = status === undefined ? undefined : [status].flat();
  if (reply.status >= 500) return `${label}: HTTP ${reply.status} ${reply.text.slice(0, 200)}`;
  if (reply.status < 400) return `${label}: accepted (HTTP ${reply.status}) ${reply.text.slice(0, 200)}`;
  if (wanted && !wanted.includes(reply.status)) return `${label}: HTTP ${reply.status}, expected ${wanted.join(' or ')}: ${reply.text.slice(0, 200)}`;
  if (!data || typeof data.message !== 'string' || !Number.isInteger(data.returnCode) || data.returnCode >= 0 || Object.keys(reply.body as object).length !== 1) {
    return `${label}: not the error shape: ${reply.text.slice(0, 200)}`;
  }
  if (returnCode !== undefined && data.returnCode !== returnCode) return `${label}: returnCode ${data.returnCode}, expected ${returnCode}`;
  if (/\n\s+at /.test(data.message)) return `${label}: stack trace in the message`;
  return undefined;
}

async function login(clientId: string): Promise<string> {
  const secret = sandbox.credentials.find((c) => c.clientId === clientId)!.clientSecret;
  const reply = await call<AuthResponse>('POST', '/auth', { body: { clientId, clientSecret: secret } });
  return reply.body.data.accessToken;
}

/** A company's ids, discovered through the API. */
interface Ids {
  customer: string;
  card: string;
  subscription: string;
  split: string;
  subaccount: string;
  approvedSubaccount: string;
  bankAccount: number;
  withdrawal: string;
}

async function discover(token: string): Promise<Ids> {
  const get = async <T>(path: string) => (await call<{ data: T }>('GET', path, { token })).body.data;
  const customers = await get<Customer[]>('/customers?limit=5');
  const subscriptions = await get<SubscriptionListItem[]>('/subscriptions?limit=100');
  const withSplit = subscriptions.find((s) => s.splits?.length > 0 && s.status === 'ACTIVE')!;
  const full = await get<Subscription>(`/subscriptions/${withSplit.id}`);
  const subaccounts = await get<Subaccount[]>('/sandbox/subaccounts?limit=10');
  const bankAccounts = await get<BankAccount[]>('/bank_accounts');
  const withdrawals = await get<Withdrawal[]>('/withdrawals?limit=5');
  return {
    customer: customers[0]!.id,
    card: full.tokenizedCardId,
    subscription: full.id,
    split: full.splits[0]!.id,
    subaccount: subaccounts[0]!.id,
    approvedSubaccount: subaccounts.find((s) => s.status === 'APPROVED')!.id,
    bankAccount: bankAccounts[0]!.id,
    withdrawal: withdrawals[0]!.id,
  };
}

/** Every company route, with the ids it acts on taken from `ids`. */
function routes(ids: Ids, own: Ids) {
  return [
    { method: 'GET', path: `/cards/${ids.card}` },
    { method: 'POST', path: '/cards/tokenize', body: { customerId: ids.customer, holderName: 'X', cardNumber: '4111111111111111', expirationMonth: '12', expirationYear: '2031', securityCode: '123' } },
    { method: 'GET', path: `/customers/${ids.customer}` },
    { method: 'PUT', path: `/customers/${ids.customer}`, body: { firstName: 'Mallory' } },
    { method: 'GET', path: `/subscriptions/${ids.subscription}` },
    { method: 'PUT', path: `/subscriptions/${ids.subscription}`, body: { title: 'pwned' } },
    { method: 'DELETE', path: `/subscriptions/${ids.subscription}` },
    { method: 'DELETE', path: `/subscriptions/${ids.subscription}/remove_split/${ids.split}` },
    { method: 'POST', path: '/subscriptions/add_split', body: { subscriptionId: ids.subscription, subaccountId: ids.approvedSubaccount, splitType: 'amount', splitAmount: 100 } },
    { method: 'POST', path: '/subscriptions/add_split', body: { subscriptionId: own.subscription, subaccountId: ids.approvedSubaccount, splitType: 'amount', splitAmount: 100 } },
    { method: 'GET', path: `/bank_accounts/${ids.bankAccount}` },
    { method: 'DELETE', path: `/bank_accounts/${ids.bankAccount}` },
    { method: 'GET', path: `/withdrawals/${ids.withdrawal}` },
    { method: 'POST', path: '/withdrawals/withdraw', body: { withdrawalMethod: 'pix', amount: 100, bankAccountId: ids.bankAccount, pixKeyType: 'EMAIL', pixKey: 'a@example.com' } },
    { method: 'POST', path: `/sandbox/subaccounts/${ids.subaccount}/approve` },
    { method: 'POST', path: `/sandbox/withdrawals/${ids.withdrawal}/settle`, body: { status: 'FAILED' } },
  ] as Array<{ method: string; path: string; body?: unknown }>;
}

/** Routes that take x-subaccount-id. */
const ACCOUNT_ROUTES = [
  { method: 'GET', path: '/bank_accounts' },
  { method: 'GET', path: '/withdrawals' },
  { method: 'GET', path: '/withdrawals/balance' },
  { method: 'POST', path: '/sandbox/balance', body: { pix: 100 } },
  { method: 'POST', path: '/withdrawals/withdraw', body: { withdrawalMethod: 'pix', amount: 100, bankAccountId: 1, pixKeyType: 'EMAIL', pixKey: 'a@example.com' } },
] as Array<{ method: string; path: string; body?: unknown }>;

let acmeIds: Ids;
let globexIds: Ids;

/** Everything globex has that an attack could change, as globex sees it. */
async function globexState(): Promise<string> {
  const get = async (path: string) => (await call('GET', path, { token: globex })).text;
  const parts = await Promise.all([
    get('/customers?limit=100'), get('/subscriptions?limit=100'), get('/bank_accounts?limit=100'), get('/withdrawals?limit=100'),
    get('/withdrawals/balance'), get('/sandbox/subaccounts?limit=100'), get(`/subscriptions/${globexIds.subscription}`), get(`/cards/${globexIds.card}`),
  ]);
  return parts.join('\n');
}

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, customers: 60 });
  [acme, globex] = await Promise.all([login('acme'), login('globex')]);
  [acmeIds, globexIds] = await Promise.all([discover(acme), discover(globex)]);
});
afterAll(() => sandbox?.close());

describe('tenancy', () => {
  it("acme's token on every route with globex's ids: refused, nothing of globex's shown or changed", async () => {
    const before = await globexState();
    const secretIds = Object.values(globexIds).map(String).filter((id) => id.length > 8);
    const problems: string[] = [];
    const attacks = routes(globexIds, acmeIds);
    for (const route of attacks) {
      const reply = await call(route.method, route.path, { token: acme, body: route.body });
      const label = `${route.method} ${route.path}`;
      const problem = refusalProblem(reply, label, [400, 404]);
      if (problem) problems.push(problem);
      // An error message may echo the id the caller sent, but never globex's other data.
      const echoed = route.path + JSON.stringify(route.body ?? {});
      for (const id of secretIds) if (reply.text.includes(id) && !echoed.includes(id)) problems.push(`${label}: answer names globex's ${id}`);
    }
    expect(problems, problems.join('\n')).toEqual([]);
    expect(await globexState()).toBe(before);
    tally('attacks', attacks.length);
  });

  it("x-subaccount-id naming another company's sub-account: 403 on every account route; malformed ones: 400", async () => {
    const problems: string[] = [];
    const malformed = ['not-a-uuid', ' ', `${globexIds.subaccount}x`, 'x'.repeat(5000), "' OR 1=1 --", `${globexIds.subaccount},${acmeIds.subaccount}`];
    let count = 0;
    for (const route of ACCOUNT_ROUTES) {
      const foreign = await call(route.method, route.path, { token: acme, body: route.body, headers: { 'x-subaccount-id': globexIds.subaccount } });
      problems.push(refusalProblem(foreign, `${route.method} ${route.path} foreign sub-account`, 403, -7403) ?? '');
      for (const value of malformed) {
        const reply = await call(route.method, route.path, { token: acme, body: route.body, headers: { 'x-subaccount-id': value } });
        problems.push(refusalProblem(reply, `${route.method} ${route.path} x-subaccount-id ${JSON.stringify(value.slice(0, 40))}`, 400) ?? '');
      }
      count += 1 + malformed.length;
    }
    expect(problems.filter(Boolean), problems.filter(Boolean).join('\n')).toEqual([]);
    tally('attacks', count);
  });
});

describe('tokens', () => {
  const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const hs256 = (header: object, payload: object, key: string | Buffer) => {
    const body = `${b64(header)}.${b64(payload)}`;
    return `${body}.${createHmac('sha256', key).update(body).digest('base64url')}`;
  };

  /** The token with its signature's last character swapped for one that differs only in the 2 bits base64url decoding drops. */
  const lastCharacterTwin = (token: string) => {
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    return token.slice(0, -1) + alphabet[alphabet.indexOf(token.at(-1)!) ^ 1];
  };

  it('forged, expired, alg:none, wrong-key, tampered and foreign-sandbox tokens: 401 on every route', async () => {
    const [, payloadPart, signature] = acme.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payloadPart, 'base64url').toString()) as { sub: string; exp: number; iat: number; iss: string };
    const globexSub = JSON.parse(Buffer.from(globex.split('.')[1]!, 'base64url').toString()).sub as string;
    const shortLived = await startSandbox({ port: 0, customers: 1, tokenTtlSeconds: 1 });
    const otherSecret = shortLived.credentials.find((c) => c.clientId === 'acme')!.clientSecret;
    const foreign = (await (await freshFetch(`${shortLived.url}/auth`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ clientId: 'acme', clientSecret: otherSecret }) })).json()).data.accessToken as string;
    await shortLived.close();
    // The sandboxes run in this process: the clock is moved past the foreign token's end rather than waited for.
    const foreignExp = (JSON.parse(Buffer.from(foreign.split('.')[1]!, 'base64url').toString()) as { exp: number }).exp;
    vi.useFakeTimers({ toFake: ['Date'], now: (foreignExp + 1) * 1000 });
    onTestFinished(() => void vi.useRealTimers());
    const now = Math.floor(Date.now() / 1000);
    const tokens: Record<string, string> = {
      'alg none': `${b64({ alg: 'none', typ: 'JWT' })}.${payloadPart}.`,
      'alg none, signature kept': `${b64({ alg: 'none', typ: 'JWT' })}.${payloadPart}.${signature}`,
      'wrong key': hs256({ alg: 'HS256', typ: 'JWT' }, claims, 'secret'),
      'client secret as key': hs256({ alg: 'HS256', typ: 'JWT' }, claims, sandbox.credentials.find((c) => c.clientId === 'acme')!.clientSecret),
      'tampered payload (globex sub, acme signature)': `${acme.split('.')[0]}.${b64({ ...claims, sub: globexSub })}.${signature}`,
      'expired claims, acme signature': `${acme.split('.')[0]}.${b64({ ...claims, exp: now - 10 })}.${signature}`,
      'expired (another sandbox, 1 s lifetime)': foreign,
      'alg HS512 header': `${b64({ alg: 'HS512', typ: 'JWT' })}.${payloadPart}.${signature}`,
      'signature, last character changed to one decoding to the same bytes': lastCharacterTwin(acme),
      'two parts': `${acme.split('.')[0]}.${payloadPart}`,
      empty: '',
      garbage: '%%%.@@@.###',
    };
    const attacks = [...routes(acmeIds, acmeIds), ...ACCOUNT_ROUTES, { method: 'GET', path: '/customers' }, { method: 'GET', path: '/subscriptions' }, { method: 'POST', path: '/sandbox/reset' }];
    const problems: string[] = [];
    const before = await call('GET', '/withdrawals/balance', { token: acme });
    await Promise.all(
      Object.entries(tokens).flatMap(([name, token]) =>
        attacks.map(async (route) => {
          const reply = await call(route.method, route.path, { body: route.body, headers: { authorization: `Bearer ${token}` } });
          const problem = refusalProblem(reply, `${name}: ${route.method} ${route.path}`, 401);
          if (problem) problems.push(problem);
        }),
      ),
    );
    for (const header of ['Basic YWNtZTphY21lLXNhbmRib3gtc2VjcmV0', acme, `bearer  ${acme}x`, `Bearer ${acme} ${acme}`]) {
      const reply = await call('GET', '/withdrawals/balance', { headers: { authorization: header } });
      const problem = refusalProblem(reply, `authorization "${header.slice(0, 20)}…"`, 401);
      if (problem) problems.push(problem);
    }
    expect(problems, problems.join('\n')).toEqual([]);
    expect((await call('GET', '/withdrawals/balance', { token: acme })).text).toBe(before.text);
    tally('attacks', Object.keys(tokens).length * attacks.length + 4);
  });
});

describe('hostile bodies and query strings', () => {
  const BODY_ROUTES = () => [
    { method: 'PUT', path: `/customers/${acmeIds.customer}` },
    { method: 'POST', path: '/withdrawals/withdraw' },
    { method: 'POST', path: '/subscriptions/add_split' },
    { method: 'PUT', path: `/subscriptions/${acmeIds.subscription}` },
    { method: 'POST', path: '/cards/tokenize' },
    { method: 'POST', path: '/sandbox/balance' },
    { method: 'POST', path: '/subaccounts/pf' },
    { method: 'POST', path: '/auth' },
  ];

  it('oversized, deeply nested, malformed UTF-8, non-JSON and wrongly typed bodies: refused with the error shape, never a 500', async () => {
    const bodies: Record<string, { raw: string | Buffer; headers?: Record<string, string>; status?: number[] }> = {
      'over 1 MiB': { raw: JSON.stringify({ firstName: 'a'.repeat(1024 * 1024 + 10) }), status: [413] },
      'nested 100 000 deep (arrays)': { raw: `${'['.repeat(100_000)}${']'.repeat(100_000)}` },
      'nested 50 000 deep (objects)': { raw: `${'{"a":'.repeat(50_000)}1${'}'.repeat(50_000)}` },
      'nested in a field': { raw: JSON.stringify({ firstName: JSON.parse(`${'['.repeat(2000)}${']'.repeat(2000)}`) }) },
      'malformed UTF-8': { raw: Buffer.concat([Buffer.from('{"firstName":"'), Buffer.from([0xff, 0xfe, 0xc3, 0x28]), Buffer.from('"}')]) },
      'truncated JSON': { raw: '{"firstName":"An' },
      'not JSON': { raw: 'firstName=Ana' },
      'JSON null': { raw: 'null' },
      'JSON array': { raw: '[]' },
      'JSON string': { raw: '"x"' },
      'text/plain content type': { raw: '{"firstName":"Ana"}', headers: { 'content-type': 'text/plain' } },
      'wrong types': { raw: JSON.stringify({ firstName: 1, amount: '100', bankAccountId: { $gt: 0 }, splitAmount: -1, pix: 1e308, withdrawalMethod: ['pix'] }) },
      'NaN-like numbers': { raw: '{"amount":1e400,"pix":-0,"splitAmount":0.5}' },
    };
    const problems: string[] = [];
    let count = 0;
    for (const route of BODY_ROUTES()) {
      for (const [name, body] of Object.entries(bodies)) {
        const reply = await call(route.method, route.path, { token: acme, raw: body.raw, headers: body.headers });
        count++;
        // Some of these are valid for some routes (a wrongly typed field the route ignores is still refused: bodies are strict).
        const problem = refusalProblem(reply, `${name} → ${route.method} ${route.path}`, body.status);
        if (problem) problems.push(problem);
      }
    }
    expect(problems, problems.join('\n')).toEqual([]);
    tally('attacks', count);
  });

  it('__proto__ and constructor keys neither pollute nor slip through', async () => {
    const evil = [
      '{"__proto__":{"polluted":"yes"},"firstName":"Ana"}',
      '{"constructor":{"prototype":{"polluted":"yes"}},"firstName":"Ana"}',
      '{"address":{"__proto__":{"polluted":"yes"}}}',
      '{"pix":100,"__proto__":{"pix":99999999}}',
      '{"withdrawalMethod":"pix","amount":100,"bankAccountId":1,"pixKeyType":"EMAIL","pixKey":"a@example.com","__proto__":{"amount":1}}',
    ];
    const problems: string[] = [];
    let count = 0;
    const balanceBefore = (await call('GET', '/withdrawals/balance', { token: acme })).text;
    for (const route of BODY_ROUTES()) {
      for (const raw of evil) {
        const reply = await call(route.method, route.path, { token: acme, raw });
        count++;
        if (reply.status >= 500) problems.push(`${route.method} ${route.path} ${raw}: HTTP ${reply.status}`);
        if (reply.status >= 400) {
          const problem = refusalProblem(reply, `${route.method} ${route.path} ${raw}`);
          if (problem) problems.push(problem);
        }
        if (reply.text.includes('polluted') || reply.text.includes('99999999')) problems.push(`${route.method} ${route.path}: the hostile key came back: ${reply.text.slice(0, 200)}`);
      }
    }
    const probe: Record<string, unknown> = {};
    expect(probe.polluted, 'Object.prototype was polluted').toBeUndefined();
    expect(({} as Record<string, unknown>).pix).toBeUndefined();
    expect(problems, problems.join('\n')).toEqual([]);
    expect((await call('GET', '/withdrawals/balance', { token: acme })).text).toBe(balanceBefore);
    tally('attacks', count);
  });

  it('repeated, array, out-of-range and unknown query parameters: 400 with the error shape', async () => {
    const queries = [
      'page=1&page=2', 'limit=5&limit=6', 'page[]=1', 'page[0]=1', 'limit[$gt]=1', 'limit=0', 'limit=101', 'page=0', 'page=-1', 'page=1.5', 'page=1e2',
      'limit=abc', 'page=%00', 'page=', 'limit=99999999999999999999', 'unknown=1', '__proto__=1', 'constructor=x', 'status=ACTIVE&status=DELETED',
      'status=pwned', 'amount=-1', 'startDate=2024-02-30', 'frequency=1.5', 'subaccountId=not-a-uuid',
    ];
    const lists = ['/customers', '/subscriptions', '/bank_accounts', '/withdrawals', '/sandbox/subaccounts'];
    const subscriptionOnly = /^(status|amount|startDate|frequency|subaccountId)=/;
    const problems: string[] = [];
    let count = 0;
    for (const list of lists) {
      for (const query of queries) {
        if (subscriptionOnly.test(query) && list !== '/subscriptions' && !/&/.test(query)) continue;
        const reply = await call('GET', `${list}?${query}`, { token: acme });
        count++;
        const problem = refusalProblem(reply, `GET ${list}?${query}`, 400);
        if (problem) problems.push(problem);
      }
    }
    expect(problems, problems.join('\n')).toEqual([]);
    tally('attacks', count);
  });

  it('bytes that are not HTTP, and a request that stops half-way, leave the sandbox answering', async () => {
    const { port } = new URL(sandbox.url);
    const send = (bytes: Buffer | string) =>
      new Promise<string>((resolve) => {
        const socket = net.connect(Number(port), '127.0.0.1', () => socket.end(bytes));
        let text = '';
        socket.setEncoding('latin1').on('data', (chunk: string) => (text += chunk));
        socket.on('close', () => resolve(text));
        socket.on('error', () => resolve(text));
        socket.setTimeout(3000, () => socket.destroy());
      });
    const answers = await Promise.all([
      send(Buffer.from([0x16, 0x03, 0x01, 0x00, 0xff, 0x01])),
      send('GET /customers HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n'),
      send(`PUT /customers/${acmeIds.customer} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${acme}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"firstName":`),
      send(`GET /customers?\u00ff\u00fe HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${acme}\r\n\r\n`),
    ]);
    expect(answers.some((answer) => / 500 /.test(answer.split('\r\n')[0] ?? ''))).toBe(false);
    const after = await call('GET', '/withdrawals/balance', { token: acme });
    expect(after.status).toBe(200);
    tally('attacks', answers.length);
  });
});

/**
 * Resolves once the kernel no longer holds `socket`'s connection as established: the peer closed it
 * (or reset it). Read from /proc/net/tcp, because a paused socket does not see its own end until it
 * reads again.
 */
async function closedByPeer(socket: net.Socket): Promise<void> {
  const hex = (port: number) => port.toString(16).toUpperCase().padStart(4, '0');
  const ends = `0100007F:${hex(socket.localPort!)} 0100007F:${hex(socket.remotePort!)}`;
  const ESTABLISHED = '01';
  for (;;) {
    const line = readFileSync('/proc/net/tcp', 'utf8').split('\n').find((row) => row.trim().split(/\s+/).slice(1, 3).join(' ') === ends);
    if (line?.trim().split(/\s+/)[3] !== ESTABLISHED) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('connections', () => {
  /** Opens `count` connections that never finish a request; resolves once all are connected, with a count of those the server closed. */
  async function openIdleConnections(url: string, count: number) {
    const { port } = new URL(url);
    const sockets: net.Socket[] = [];
    const closed = { count: 0 };
    for (let start = 0; start < count; start += 250) {
      await Promise.all(
        Array.from({ length: Math.min(250, count - start) }, (_, i) =>
          new Promise<void>((resolve) => {
            const socket = net.connect(Number(port), '127.0.0.1', () => {
              // half say nothing at all, half begin a request and stop in the middle of its headers
              if ((start + i) % 2) socket.write('GET /withdrawals/balance HTTP/1.1\r\nHost: x\r\n');
              resolve();
            });
            socket.on('error', () => resolve());
            socket.on('close', () => closed.count++);
            sockets.push(socket);
          }),
        ),
      );
    }
    return { sockets, closed };
  }

  /** POST /auth and GET /withdrawals/balance on fresh connections; resolves once both are answered. */
  async function newClientServed(url: string): Promise<void> {
    const { request } = await import('node:http');
    const send = <T = unknown>(method: string, path: string, headers: Record<string, string>, body?: string) =>
      new Promise<{ status: number; body: T }>((resolve, reject) => {
        const req = request(`${url}${path}`, { method, headers, agent: false }, (res) => {
          let text = '';
          res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
          res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) as T }));
        });
        req.on('error', reject);
        req.end(body);
      });
    const token = (await send<AuthResponse>('POST', '/auth', { 'content-type': 'application/json' }, JSON.stringify({ clientId: 'acme', clientSecret: 'acme-sandbox-secret' }))).body.data.accessToken;
    const balance = await send('GET', '/withdrawals/balance', { authorization: `Bearer ${token}` });
    expect(balance.status).toBe(200);
  }

  it('4,000 idle and half-sent connections against a sandbox allowed 1,024 open files: a new client is still served at once', async () => {
    // Idle connections are never closed for idling within the test: the newcomer can be served only by
    // closing the longest-idle ones at once, not by waiting for a slot.
    const child = await startSandboxProcess([], { openFiles: 1024, library: { customers: 10, idleTimeoutMs: 3_600_000 } });
    const opened: net.Socket[] = [];
    try {
      const { sockets, closed } = await openIdleConnections(child.url, 4_000);
      opened.push(...sockets);
      await newClientServed(child.url);
      // the server made room by closing the longest-idle connections, not by refusing the newcomer
      expect(closed.count).toBeGreaterThan(4_000 - 1_024);
      expect(child.stderr()).not.toMatch(/EMFILE|internal error/);
    } finally {
      for (const socket of opened) socket.destroy();
      child.kill('SIGTERM');
      await child.exited;
    }
    tally('attacks', 4_000);
  });

  it('closes a connection that never begins a request, one that stops in the middle of its headers, and one that stops reading its answers', async () => {
    const quick = await startSandbox({ port: 0, customers: 100, idleTimeoutMs: 300 });
    try {
      const { port } = new URL(quick.url);
      /**
       * The test's own requests to it. This process is also the sandbox's: starved for 300 ms between
       * connecting and writing (seen at load 48), it is closed as silent before it asks. Both requests
       * are safe to send again, at most five times.
       */
      const askQuick = async (url: string, init: Parameters<typeof freshFetch>[1] = {}): Promise<Response> => {
        for (let attempt = 1; ; attempt++) {
          try {
            return await freshFetch(url, init);
          } catch (error) {
            if (attempt === 5 || (error as NodeJS.ErrnoException).code !== 'ECONNRESET') throw error;
          }
        }
      };
      /** What the sandbox sent on a connection, once it has closed it: a connection left open fails the test at its deadline. */
      const closedBySandbox = (greeting?: string) =>
        new Promise<string>((resolve) => {
          let text = '';
          const socket = net.connect(Number(port), '127.0.0.1', () => greeting && socket.write(greeting));
          socket.setEncoding('latin1').on('data', (chunk: string) => (text += chunk));
          socket.on('close', () => resolve(text));
          socket.on('error', () => undefined);
        });
      const [silent] = await Promise.all([closedBySandbox(), closedBySandbox('GET /customers HTTP/1.1\r\nHost: x\r\n')]);
      expect(silent).toBe('');

      // a client that asks for a lot and stops reading: its answers stop moving, and it is closed
      const token = (await (await askQuick(`${quick.url}/auth`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ clientId: 'acme', clientSecret: 'acme-sandbox-secret' }) })).json()).data.accessToken;
      const answers = await new Promise<number>((resolve) => {
        let text = '';
        const socket = net.connect(Number(port), '127.0.0.1', () => {
          socket.pause();
          socket.write(`GET /customers?limit=100 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\n\r\n`.repeat(2_000));
          // read again once the sandbox has given up on it (300 ms without progress): what it sent before closing is all there is
          void closedByPeer(socket).then(() => socket.resume());
        });
        socket.setEncoding('latin1').on('data', (chunk: string) => (text += chunk));
        socket.on('close', () => resolve(text.split('HTTP/1.1 200').length - 1));
        socket.on('error', () => undefined);
      });
      expect(answers).toBeLessThan(2_000);
      expect((await askQuick(`${quick.url}/withdrawals/balance`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    } finally {
      await quick.close();
    }
    tally('attacks', 3);
  });
});

describe('races', () => {
  const cents = (reais: number) => Math.round(reais * 100);

  it('40 concurrent withdrawals on one balance: exactly those that fit succeed, no balance goes negative, nothing is lost', async () => {
    const account = { 'x-subaccount-id': acmeIds.approvedSubaccount };
    const banks = (await call<BankAccountListResponse>('GET', '/bank_accounts', { token: acme, headers: account })).body.data;
    const balance0 = (await call<BalancesResponse>('GET', '/withdrawals/balance', { token: acme, headers: account })).body.data;
    // An amount of which about 7 fit in the balance, then 40 raced for it.
    const credit = 10_000;
    expect((await call('POST', '/sandbox/balance', { token: acme, headers: account, body: { pix: credit } })).status).toBeLessThan(300);
    const available = cents(balance0.disponiblePixBalance) + credit;
    const amount = Math.max(100, Math.floor(available / 7.5));
    const fit = Math.floor(available / amount);
    expect(fit).toBeLessThan(40);
    const body = { withdrawalMethod: 'pix', amount, bankAccountId: banks[0]!.id, pixKeyType: 'EMAIL', pixKey: 'race@example.com' };
    const replies = await Promise.all(Array.from({ length: 40 }, () => call<WithdrawalResponse>('POST', '/withdrawals/withdraw', { token: acme, headers: account, body })));
    const accepted = replies.filter((reply) => reply.status < 300);
    const refused = replies.filter((reply) => reply.status >= 300);
    expect(accepted.length).toBe(fit);
    expect(refused.map((reply) => refusalProblem(reply, 'refused withdrawal', 422, -7102)).filter(Boolean)).toEqual([]);
    const balance1 = (await call<BalancesResponse>('GET', '/withdrawals/balance', { token: acme, headers: account })).body.data;
    expect(cents(balance1.disponiblePixBalance)).toBe(available - fit * amount);
    expect(cents(balance1.disponiblePixBalance)).toBeGreaterThanOrEqual(0);
    expect(cents(balance1.withdrawalsInProcessingBalance)).toBe(cents(balance0.withdrawalsInProcessingBalance) + fit * amount);

    // Settle one withdrawal 20 times at once, half COMPLETED and half FAILED: exactly one wins.
    const target = accepted[0]!.body.data.id;
    const settles = await Promise.all(
      Array.from({ length: 20 }, (_, i) => call<WithdrawalResponse>('POST', `/sandbox/withdrawals/${target}/settle`, { token: acme, headers: account, body: { status: i % 2 ? 'FAILED' : 'COMPLETED' } })),
    );
    expect(settles.filter((reply) => reply.status < 300)).toHaveLength(1);
    expect(settles.filter((reply) => reply.status >= 300).map((reply) => refusalProblem(reply, 'second settle', 409, -7104)).filter(Boolean)).toEqual([]);
    const balance2 = (await call<BalancesResponse>('GET', '/withdrawals/balance', { token: acme, headers: account })).body.data;
    const won = settles.find((reply) => reply.status < 300)!.body.data.status;
    expect(cents(balance2.withdrawalsInProcessingBalance)).toBe(cents(balance1.withdrawalsInProcessingBalance) - amount);
    expect(cents(balance2.disponiblePixBalance)).toBe(cents(balance1.disponiblePixBalance) + (won === 'FAILED' ? amount : 0));
    tally('attacks', 60);
  });

  it('30 concurrent split additions on one subscription: the split sum never passes what is left after the fee', async () => {
    // A subscription of R$ 100,00 without splits, so the limit is known from docs/sandbox.md ("Fees"):
    // fee = round(10000 × 3.99%) + 39 = 399 + 39 = 438 cents; the splits may add up to 10000 − 438 = 9562.
    const subscriptions = (await call<SubscriptionListResponse>('GET', '/subscriptions?status=ACTIVE&limit=100', { token: acme })).body.data;
    const { customerId, cardId } = subscriptions[0]!;
    const fixture = await call<SubscriptionResponse>('POST', '/sandbox/subscriptions', {
      token: acme,
      body: { customerId, tokenizedCardId: cardId, title: 'Race Plan', amount: 10000, frequency: 30 },
    });
    expect(fixture.status, fixture.text).toBe(201);
    const target = fixture.body.data;
    const before = (await call<SubscriptionResponse>('GET', `/subscriptions/${target.id}`, { token: acme })).body.data;
    expect(before).toMatchObject({ amount: 10000, splits: [] });
    const allowance = 9562;
    // A fifth of the allowance, plus one: any four splits (1913 or 1999 cents) fit in it, no five do (5 × 1913 = 9565).
    const each = 1913;
    const attempts = Array.from({ length: 30 }, (_, i) =>
      call('POST', '/subscriptions/add_split', {
        token: acme,
        body: i % 3 === 2
          ? { subscriptionId: target.id, subaccountId: acmeIds.approvedSubaccount, splitType: 'percentage', splitPercentage: 19.99 }
          : { subscriptionId: target.id, subaccountId: acmeIds.approvedSubaccount, splitType: 'amount', splitAmount: each },
      }),
    );
    const replies = await Promise.all(attempts);
    expect(replies.filter((reply) => reply.status >= 300).map((reply) => refusalProblem(reply, 'split over the limit', 422, -7604)).filter(Boolean)).toEqual([]);
    const after = (await call<SubscriptionResponse>('GET', `/subscriptions/${target.id}`, { token: acme })).body.data;
    // Gross values by the doc's rule: AMOUNT → splitAmount (1913); PERCENTAGE → floor(10000 × 19.99 / 100) = 1999.
    const gross = after.splits.map((split) => (split.splitType === 'AMOUNT' ? split.splitAmount : split.splitPercentage === 19.99 ? 1999 : undefined));
    expect(gross.filter((value) => value !== 1913 && value !== 1999)).toEqual([]);
    const total = gross.reduce((sum: number, value) => sum + value!, 0);
    expect(total).toBeLessThanOrEqual(allowance);
    expect(after.splits.length - before.splits.length).toBe(replies.filter((reply) => reply.status < 300).length);
    expect(replies.some((reply) => reply.status >= 300)).toBe(true);
    expect(after.splits).toHaveLength(4);
    tally('attacks', 30);
  });
});
