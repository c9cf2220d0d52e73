import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { BalancesResponse, CustomerListResponse, CustomerResponse, SubscriptionResponse } from '../../src/api/types.js';
import { RETURN_CODES } from '../../src/sandbox/errors.js';
import { answerViolation, apiDocument, compiledOperations } from '../../src/sandbox/openapi.js';
import { startSandbox } from '../../src/sandbox/server.js';
import { discover, expectError, login, useSandbox, type Fixtures, type Session } from './helpers.js';

interface RawRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: Buffer;
}

/** A raw request, for bodies and framings fetch would not send; its answer's body is only matched, never read. */
function rawRequest(url: string, options: RawRequest): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}${options.path}`, { method: options.method, headers: options.headers }, (res) => {
      let text = '';
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) as unknown }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

describe('sandbox: hostile input never gets a 500 nor changes state', () => {
  let session: Session;
  let acme: Fixtures;
  let customerPath: string;
  useSandbox((started, fixtures) => {
    session = started;
    acme = fixtures;
    customerPath = `/customers/${acme.customers[0].id}`;
  });

  const unchanged = async () => expect((await session.acme.get<CustomerResponse>(customerPath)).body.data).toEqual(acme.customers[0]);

  it.each([
    ['malformed JSON', '{"firstName": "A",', -7003],
    ['a JSON array', '["firstName"]', -7001],
    ['a JSON string', '"hello"', -7001],
    ['null', 'null', -7001],
    ['a __proto__ key', '{"__proto__": {"isAdmin": true}, "firstName": "A"}', -7001],
    ['a constructor key', '{"constructor": {"prototype": {"x": 1}}}', -7001],
    ['a nested __proto__', '{"address": {"__proto__": {"city": "X"}}}', -7001],
    ['deep nesting', `{"firstName": ${'['.repeat(50_000)}${']'.repeat(50_000)}}`, -7001],
  ])('refuses %s', async (_, rawBody, returnCode) => {
    expectError(await session.acme.call('PUT', customerPath, { rawBody }), 400, returnCode);
    await unchanged();
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
  });

  it('refuses deeply nested arrays at the top level without crashing', async () => {
    const response = await session.acme.call('PUT', customerPath, { rawBody: '['.repeat(500_000) + ']'.repeat(500_000) });
    expect(response.status).toBe(400);
    await unchanged();
  });

  it('refuses malformed UTF-8 with 400 -7003', async () => {
    const body = Buffer.concat([Buffer.from('{"firstName": "'), Buffer.from([0xc3, 0x28]), Buffer.from('"}')]);
    expectError(await session.acme.call('PUT', customerPath, { rawBody: body }), 400, -7003);
    await unchanged();
  });

  it('refuses a body without Content-Type application/json with 415', async () => {
    expectError(await session.acme.call('PUT', customerPath, { rawBody: '{"firstName":"A"}', headers: { 'content-type': 'text/plain' } }), 415, -7005);
  });

  it('refuses a missing body with 400', async () => {
    expectError(await session.acme.call('PUT', customerPath), 400, -7001);
  });

  it('refuses bodies over 1 MiB with 413, declared or streamed', async () => {
    const big = Buffer.alloc(2 * 1024 * 1024, 'a');
    const headers = { authorization: `Bearer ${session.acme.token}`, 'content-type': 'application/json' };
    const declared = await rawRequest(session.sandbox.url, { method: 'PUT', path: customerPath, headers: { ...headers, 'content-length': String(big.length) }, body: big }).catch((error: Error) => error);
    if (!(declared instanceof Error)) expect(declared).toMatchObject({ status: 413, body: { data: { returnCode: -7004 } } });
    const chunked = await rawRequest(session.sandbox.url, { method: 'PUT', path: customerPath, headers: { ...headers, 'transfer-encoding': 'chunked' }, body: big }).catch((error: Error) => error);
    if (!(chunked instanceof Error)) expect(chunked).toMatchObject({ status: 413, body: { data: { returnCode: -7004 } } });
    expect(declared instanceof Error && chunked instanceof Error).toBe(false);
    await unchanged();
  });

  it('answers unknown routes 404 and wrong methods 405, with the error shape', async () => {
    expectError(await session.acme.get('/nothing-here'), 404, -7008);
    expectError(await session.acme.get('/customers/'), 404, -7008);
    const wrongMethod = await session.acme.call('PATCH', customerPath, { body: {} });
    expectError(wrongMethod, 405, -7009);
    expect(wrongMethod.headers.get('allow')).toBe('GET, PUT');
  });

  it('answers ids of the wrong shape with 400 -7006 and unknown ids with 404', async () => {
    for (const id of ['123', 'not-a-uuid', '%E0%A4%A', '..%2F..%2Fetc', "'%20OR%201=1"]) {
      expectError(await session.acme.get(`/subscriptions/${id}`), 400, -7006);
      expectError(await session.acme.get(`/withdrawals/${id}`), 400, -7006);
    }
    expectError(await session.acme.get('/bank_accounts/99999999999'), 400, -7006);
    expectError(await session.acme.get('/bank_accounts/1.5'), 400, -7006);
  });

  it('answers garbage HTTP with a 400 in the error shape, and keeps serving', async () => {
    const { connect } = await import('node:net');
    const { port } = new URL(session.sandbox.url);
    const answer = await new Promise<string>((resolve) => {
      const socket = connect(Number(port), '127.0.0.1', () => socket.write('NOT HTTP AT ALL\r\n\r\n'));
      let text = '';
      socket.on('data', (chunk) => (text += chunk));
      socket.on('close', () => resolve(text));
    });
    expect(answer).toMatch(/^HTTP\/1.1 400/);
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)).data.returnCode).toBe(-7003);
    await unchanged();
  });
});

describe('sandbox: a body that is not a JSON object, on every route that takes a body', () => {
  let session: Session;
  let acme: Fixtures;
  useSandbox((started, fixtures) => {
    session = started;
    acme = fixtures;
  });

  const NOT_OBJECTS = ['[]', '[{"withdrawalMethod":"pix","amount":100}]', '1', '-1', '"pix"', 'true', 'null'];

  it('is refused with 400 -7001 and changes nothing', async () => {
    const ids: Record<string, string> = {
      customerId: acme.customers[0].id,
      subscriptionId: acme.subscriptions.find((s) => s.status === 'ACTIVE')!.id,
      withdrawalId: acme.withdrawals.find((w) => w.status === 'PENDING')!.id,
      subaccountId: acme.subaccounts.approved[0]!,
    };
    const balance = (await session.acme.get<BalancesResponse>('/withdrawals/balance')).body.data;
    const routes = Object.entries(apiDocument.paths).flatMap(([template, methods]) =>
      Object.entries(methods)
        .filter(([, operation]) => operation.requestBody)
        .map(([method]) => ({ method: method.toUpperCase(), path: template.replace(/\{(\w+)\}/g, (_, name: string) => ids[name]!) })),
    );
    expect(routes.map((route) => `${route.method} ${route.path.split('/')[1]}`)).toEqual(expect.arrayContaining(['POST withdrawals', 'POST subscriptions', 'PUT customers', 'PUT subscriptions', 'POST auth']));
    for (const route of routes) {
      for (const rawBody of NOT_OBJECTS) {
        const response = await session.acme.call(route.method, route.path, { rawBody });
        expectError(response, 400, -7001);
        expect(response.body.data.message, `${route.method} ${route.path} ${rawBody}`).toBe('the body must be a JSON object');
      }
    }
    expect(await discover(session.acme)).toEqual(acme);
    expect((await session.acme.get<BalancesResponse>('/withdrawals/balance')).body.data).toEqual(balance);
  });
});

describe('sandbox: tenancy on every route with the other company’s ids', () => {
  let session: Session;
  let globex: Fixtures;
  useSandbox((started, fixtures) => {
    session = started;
    globex = fixtures;
  }, 'globex');

  it('answers not found (never 200, never 500) and changes nothing', async () => {
    const customer = globex.customers[0];
    const subscription = globex.subscriptions.find((s) => s.splits.length > 0 && s.status !== 'DELETED')!;
    const split = (await session.globex.get<SubscriptionResponse>(`/subscriptions/${subscription.id}`)).body.data.splits[0]!;
    const bankAccount = globex.mainBankAccounts[0];
    const withdrawal = globex.withdrawals.find((w) => w.status === 'PENDING')!;
    const cases: Array<[string, string, unknown, number, number]> = [
      ['GET', `/customers/${customer.id}`, undefined, 404, -7501],
      ['PUT', `/customers/${customer.id}`, { firstName: 'Hacked' }, 404, -7501],
      ['POST', '/cards/tokenize', { customerId: customer.id, holderName: 'X', cardNumber: '4111111111111111', expirationMonth: '12', expirationYear: '2099', securityCode: '123' }, 404, -7501],
      ['GET', `/cards/${subscription.cardId}`, undefined, 400, -7508],
      ['GET', `/subscriptions/${subscription.id}`, undefined, 404, -7601],
      ['PUT', `/subscriptions/${subscription.id}`, { title: 'Hacked' }, 404, -7601],
      ['DELETE', `/subscriptions/${subscription.id}`, undefined, 404, -7601],
      ['POST', '/subscriptions/add_split', { subscriptionId: subscription.id, subaccountId: globex.subaccounts.approved[0], splitType: 'amount', splitAmount: 1 }, 404, -7601],
      ['DELETE', `/subscriptions/${subscription.id}/remove_split/${split.id}`, undefined, 404, -7601],
      ['GET', `/bank_accounts/${bankAccount.id}`, undefined, 404, -7100],
      ['DELETE', `/bank_accounts/${bankAccount.id}`, undefined, 404, -7100],
      ['POST', '/withdrawals/withdraw', { withdrawalMethod: 'card', amount: 100, bankAccountId: bankAccount.id }, 404, -7100],
      ['GET', `/withdrawals/${withdrawal.id}`, undefined, 404, -7101],
      ['POST', `/sandbox/withdrawals/${withdrawal.id}/settle`, { status: 'COMPLETED' }, 404, -7101],
      ['POST', `/sandbox/subaccounts/${globex.subaccounts.pending}/approve`, undefined, 404, -7701],
      ['GET', '/bank_accounts', undefined, 403, -7403],
    ];
    for (const [method, path, body, status, returnCode] of cases) {
      const subaccount = status === 403 ? globex.subaccounts.approved[0] : undefined;
      expectError(await session.acme.call(method, path, { body, subaccount }), status, returnCode);
    }
    expect(await discover(session.globex)).toEqual(globex);
  });
});

describe('sandbox: scale, documents and generated types', () => {
  // How fast it starts is bench/sandbox.mjs's to measure, not a test's.
  it('starts with 100,000 customers and pages to the last page', async () => {
    const sandbox = await startSandbox({ port: 0, customers: 100_000 });
    try {
      const acme = await login(sandbox, 'acme');
      const last = await acme.get<CustomerListResponse>('/customers?page=1000&limit=100');
      expect(last.body.meta).toEqual({ total: 100_000, page: 1000, limit: 100, totalPages: 1000 });
      expect(last.body.data).toHaveLength(100);
      const lastCustomer = last.body.data[99]!;
      expect(lastCustomer.email).toContain('.100000@');
      expect((await acme.get<CustomerResponse>(`/customers/${lastCustomer.id}`)).body.data).toEqual(lastCustomer);
      expect((await acme.get<CustomerListResponse>('/customers?page=1001&limit=100')).body.data).toEqual([]);
    } finally {
      await sandbox.close();
    }
  });

  it('lists every return code once in the table of docs/sandbox.md', () => {
    const docs = readFileSync(new URL('../../docs/sandbox.md', import.meta.url), 'utf8');
    for (const { returnCode, status } of Object.values(RETURN_CODES)) expect(docs).toMatch(new RegExp(`^\\| ${returnCode} \\| ${status} \\|`, 'm'));
    expect(new Set(Object.values(RETURN_CODES).map((code) => code.returnCode)).size).toBe(Object.keys(RETURN_CODES).length);
  });

  it('allows null in the OpenAPI document only where the reference does: canceledAt, splitPercentage, splitAmount', () => {
    const nullable: string[] = [];
    const walk = (node: unknown, path: string[]): void => {
      if (Array.isArray(node)) return node.forEach((item, i) => walk(item, [...path, String(i)]));
      if (typeof node !== 'object' || node === null) return;
      for (const [key, value] of Object.entries(node)) {
        const allowsNull = (key === 'type' && (value === 'null' || (Array.isArray(value) && value.includes('null')))) || (key === 'const' && value === null) || (key === 'enum' && Array.isArray(value) && value.includes(null));
        if (allowsNull) nullable.push(path.join('/'));
        walk(value, [...path, key]);
      }
    };
    walk(apiDocument, []);
    const fields = nullable.map((path) => path.split('/').pop());
    expect(new Set(fields)).toEqual(new Set(['canceledAt', 'splitPercentage', 'splitAmount']));
    expect(nullable.every((path) => /^components\/schemas\/(Subscription|SubscriptionListItem|Split|SplitListItem)\/properties\//.test(path)), nullable.join('\n')).toBe(true);
  });

  it('finds answers that break the document: a null outside the three fields, a missing or extra field, an undocumented status', () => {
    const operation = (id: string) => compiledOperations().find((candidate) => candidate.operationId === id)!;
    const customer = { id: '6f1c1d7e-2a43-4d4e-9d8e-0b7a3c2f1e10', firstName: 'A', lastName: 'B', email: 'a@example.com', phoneNumber: '+5511987654321', document: '52998224725', birthdate: '1990-01-01', statusId: 'APPROVED', createdAt: '2024-01-01T00:00:00.000Z' };
    expect(answerViolation(operation('getCustomer'), 200, { data: customer, message: 'ok' })).toBeUndefined();
    expect(answerViolation(operation('getCustomer'), 200, { data: { ...customer, address: null }, message: 'ok' })).toMatch(/address/);
    expect(answerViolation(operation('getCustomer'), 200, { data: { ...customer, extra: 1 }, message: 'ok' })).toMatch(/additional/);
    expect(answerViolation(operation('getCustomer'), 201, { data: customer, message: 'ok' })).toMatch(/not documented/);
    const withdrawal = { id: customer.id, amount: 100, liquidAmount: 51, status: 'PENDING', withdrawalPaymentType: 'CARD', bankAccountId: 1, createdAt: customer.createdAt, updatedAt: customer.createdAt };
    expect(answerViolation(operation('getWithdrawal'), 200, { data: withdrawal, message: 'ok' })).toBeUndefined();
    expect(answerViolation(operation('getWithdrawal'), 200, { data: { ...withdrawal, postbackUrl: null }, message: 'ok' })).toMatch(/postbackUrl/);
    expect(answerViolation(operation('getWithdrawal'), 200, { data: { ...withdrawal, pixKey: 'x@example.com' }, message: 'ok' })).toBeDefined();
    expect(answerViolation(operation('getWithdrawal'), 200, { data: { ...withdrawal, withdrawalPaymentType: 'PIX' }, message: 'ok' })).toMatch(/pixKeyType/);
    expect(answerViolation(undefined, 404, { data: { message: 'no route', returnCode: -7008 } })).toBeUndefined();
    expect(answerViolation(undefined, 404, { error: 'no route' })).toBeDefined();
  });

  it('has src/api/types.ts up to date with the OpenAPI document', async () => {
    await expect(promisify(execFile)(process.execPath, ['scripts/gen-types.mjs', '--check'], { cwd: new URL('../..', import.meta.url) })).resolves.toBeDefined();
  });
});
