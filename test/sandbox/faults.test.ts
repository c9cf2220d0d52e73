import { afterAll, describe, expect, it } from 'vitest';
import { runInProcess } from '../helpers/in-process.js';
import { tempConfigDir } from '../helpers/cli.js';
import { startSandbox, type RunningSandbox, type SandboxOptions } from '../../src/sandbox/server.js';
import type {
  AuthResponse, Balances, BalancesResponse, BankAccount, PostbackPayload, Withdrawal, WithdrawalListResponse, WithdrawalResponse,
} from '../../src/api/types.js';
import { Client, expectError, receiver, startSandboxProcess, VALID } from './helpers.js';
import { fakeJwt, sendJson, startFakeApi } from '../helpers/fake-api.js';

/** A sandbox for one test, closed after the file's tests. */
const started: RunningSandbox[] = [];
afterAll(async () => {
  for (const sandbox of started) await sandbox.close();
});
async function sandboxWith(options: SandboxOptions): Promise<RunningSandbox> {
  const sandbox = await startSandbox({ port: 0, customers: 20, ...options });
  started.push(sandbox);
  return sandbox;
}

/** Logs acme in, trying again while POST /auth is one of the failures asked for. */
async function acme(sandbox: RunningSandbox): Promise<Client> {
  const anonymous = new Client(sandbox.url, null);
  for (let attempt = 0; attempt < 20; attempt++) {
    const response = await anonymous.post<AuthResponse>('/auth', { clientId: 'acme', clientSecret: 'acme-sandbox-secret' });
    if (response.status === 200) return new Client(sandbox.url, response.body.data.accessToken);
    expectError(response, 503, -7011);
  }
  throw new Error('could not log in');
}

const cents = (reais: number) => Math.round(reais * 100);

/** The data of a GET, asked again while it is one of the failures asked for. */
async function served<T>(client: Client, path: string): Promise<T> {
  for (;;) {
    const response = await client.get<{ data: T }>(path);
    if (response.status === 200) return response.body.data;
    expectError(response, 503, -7011);
  }
}

async function allWithdrawals(client: Client): Promise<Withdrawal[]> {
  const all: Withdrawal[] = [];
  for (let page = 1; ; page++) {
    const response = await client.get<WithdrawalListResponse>(`/withdrawals?limit=100&page=${page}`);
    if (response.status !== 200) {
      expectError(response, 503, -7011);
      page--; // a failure asked for: ask for the same page again
      continue;
    }
    all.push(...response.body.data);
    if (all.length >= response.body.meta.total) return all;
  }
}

describe('sandbox: rate limit', () => {
  it('answers 429 with Retry-After past N requests a second per client, and serves again after it', async () => {
    const sandbox = await sandboxWith({ rateLimit: 5 });
    const client = await acme(sandbox); // POST /auth took one of the 5
    const began = performance.now();
    const replies = await Promise.all(Array.from({ length: 20 }, () => client.get('/withdrawals/balance')));
    const seconds = (performance.now() - began) / 1000;
    const served = replies.filter((reply) => reply.status === 200).length;
    const limited = replies.filter((reply) => reply.status === 429);
    expect(served + limited.length).toBe(20);
    // 4 tokens left, and 5 more for every second the burst took
    expect(served).toBeGreaterThanOrEqual(4);
    expect(served).toBeLessThanOrEqual(4 + Math.ceil(seconds * 5));
    expect(limited.length).toBeGreaterThan(0);
    for (const reply of limited) {
      expectError(reply, 429, -7010);
      expect(reply.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
    }
    // the sandbox's own routes are never limited: they arrange and inspect
    for (let i = 0; i < 10; i++) expect((await client.get('/sandbox/subaccounts')).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, Number(limited[0]!.headers.get('retry-after')) * 1000));
    expect((await client.get('/withdrawals/balance')).status).toBe(200);
  });

  it('payctl honours it: a GET answered 429 is retried after Retry-After and succeeds', async () => {
    // The sandbox's 429 as it answers it, given to payctl's first GET whatever the time: how fast
    // a busy machine sends its requests does not decide whether the limit is met.
    const balance: Balances = { disponiblePixBalance: 10, disponibleCardBalance: 20, disponibleBilletBalance: 30, withdrawalsInProcessingBalance: 0 };
    const fake = await startFakeApi((_, response) => {
      if (fake.requests.length === 1) {
        return sendJson(response, 429, { data: { message: 'rate limit of 1 requests a second exceeded', returnCode: -7010 } }, { 'retry-after': '1' });
      }
      sendJson(response, 200, { data: balance, message: 'ok' });
    });
    try {
      const env = { PAYCTL_CONFIG_DIR: tempConfigDir(), PAYCTL_BASE_URL: fake.url, PAYCTL_TOKEN: fakeJwt(Math.floor(Date.now() / 1000) + 3600) };
      const result = await runInProcess(['balance', '--json', '--main-account', '--debug'], { env });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toMatch(/\b429\b/);
      expect(JSON.parse(result.stdout)).toEqual(balance);
      expect(fake.requests.map((request) => `${request.method} ${request.url}`)).toEqual(['GET /withdrawals/balance', 'GET /withdrawals/balance']);
    } finally {
      await fake.close();
    }
  });
});

describe('sandbox: a share of 503 answers', () => {
  const withdraw = (client: Client, bankAccountId: number) =>
    client.post<WithdrawalResponse>('/withdrawals/withdraw', { withdrawalMethod: 'pix', amount: 150, bankAccountId, pixKeyType: 'EMAIL', pixKey: VALID.email });

  it('fails about that share of requests, on every kind of route but /sandbox/..., and a failed write did nothing', async () => {
    const sandbox = await sandboxWith({ failureRate: 0.3, seed: 3 });
    const client = await acme(sandbox);
    const before = await allWithdrawals(client);
    const gets = [];
    for (let i = 0; i < 200; i++) gets.push((await client.get('/customers?limit=1')).status);
    const failedGets = gets.filter((status) => status === 503).length;
    expect(failedGets).toBeGreaterThan(30);
    expect(failedGets).toBeLessThan(90);
    expect(gets.every((status) => status === 200 || status === 503)).toBe(true);

    const bankAccountId = (await served<BankAccount[]>(client, '/bank_accounts'))[0]!.id;
    const writes = [];
    for (let i = 0; i < 60; i++) writes.push(await withdraw(client, bankAccountId));
    for (const reply of writes.filter((write) => write.status !== 201)) expectError(reply, 503, -7011);
    const answered = writes.filter((write) => write.status === 201).map((write) => write.body.data.id);
    expect(answered.length).toBeGreaterThan(20);
    expect(answered.length).toBeLessThan(60);
    const after = await allWithdrawals(client);
    // only the withdrawals answered 201 were made
    expect(after.length - before.length).toBe(answered.length);
    for (let i = 0; i < 20; i++) expect((await client.post('/sandbox/balance', { pix: 1 })).status).toBe(200);
  });

  it('with failAfterWrite, a failing write is made (and kept) before its 503: the outcome a client cannot know', async () => {
    const sandbox = await sandboxWith({ failureRate: 0.5, failAfterWrite: true, seed: 5 });
    const client = await acme(sandbox);
    const before = await allWithdrawals(client);
    const balanceBefore = await served<Balances>(client, '/withdrawals/balance');
    const bankAccountId = (await served<BankAccount[]>(client, '/bank_accounts'))[0]!.id;
    const writes = [];
    for (let i = 0; i < 40; i++) writes.push(await withdraw(client, bankAccountId));
    const failed = writes.filter((write) => write.status === 503);
    expect(failed.length).toBeGreaterThan(5);
    expect(failed.length).toBeLessThan(35);
    for (const reply of failed) expectError(reply, 503, -7011);
    const after = await allWithdrawals(client);
    expect(after.length - before.length).toBe(40);
    const balanceAfter = await served<Balances>(client, '/withdrawals/balance');
    expect(cents(balanceBefore.disponiblePixBalance) - cents(balanceAfter.disponiblePixBalance)).toBe(40 * 150);
  });
});

describe('sandbox: withdrawals that settle on their own', () => {
  it('settles every PENDING withdrawal after the delay, a share of them FAILED, with balances and postbacks as for a settlement by hand', async () => {
    const hook = await receiver([]);
    try {
      const sandbox = await sandboxWith({ settleAfterMs: 400, settleFailedShare: 0.5, seed: 11 });
      const client = await acme(sandbox);
      // the seeded PENDING withdrawals settle the delay after start: let them, then count from there
      while ((await allWithdrawals(client)).some((withdrawal) => withdrawal.status === 'PENDING')) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const balanceBefore = (await client.get<BalancesResponse>('/withdrawals/balance')).body.data;
      const bankAccountId = (await served<BankAccount[]>(client, '/bank_accounts'))[0]!.id;
      const created = [];
      for (let i = 0; i < 24; i++) {
        const request = { withdrawalMethod: 'pix', amount: 1000 + i, bankAccountId, pixKeyType: 'EMAIL', pixKey: VALID.email, postbackUrl: hook.url };
        const reply = await client.post<WithdrawalResponse>('/withdrawals/withdraw', request);
        expect(reply.body.data.status).toBe('PENDING');
        created.push(reply.body.data);
      }
      await hook.waitFor(created.length);
      const after = await allWithdrawals(client);
      const ours = created.map((withdrawal) => after.find((candidate) => candidate.id === withdrawal.id)!);
      const statuses = ours.map((withdrawal) => withdrawal.status);
      expect(statuses.filter((status) => status === 'FAILED').length).toBeGreaterThan(2);
      expect(statuses.filter((status) => status === 'COMPLETED').length).toBeGreaterThan(2);
      expect(statuses.every((status) => status === 'FAILED' || status === 'COMPLETED')).toBe(true);
      expect(after.filter((withdrawal) => withdrawal.status === 'PENDING')).toEqual([]);
      const balance = (await client.get<BalancesResponse>('/withdrawals/balance')).body.data;
      expect(balance.withdrawalsInProcessingBalance).toBe(0);
      const completed = ours.filter((withdrawal) => withdrawal.status === 'COMPLETED').reduce((sum, withdrawal) => sum + withdrawal.amount, 0);
      expect(cents(balance.disponiblePixBalance)).toBe(cents(balanceBefore.disponiblePixBalance) - completed);
      const notified = new Map(
        hook.deliveries.map((delivery) => (JSON.parse(delivery.body) as PostbackPayload).data).map((data) => [data.id, data.status]),
      );
      for (const withdrawal of ours) expect(notified.get(withdrawal.id)).toBe(withdrawal.status);
    } finally {
      await hook.close();
    }
  });

  it('a withdrawal made with payctl is COMPLETED a moment later', async () => {
    const sandbox = await startSandboxProcess(['--settle-after', '300', '--settle-failed-share', '0', '--customers', '20']);
    try {
      const env = { PAYCTL_CONFIG_DIR: tempConfigDir(), PAYCTL_BASE_URL: sandbox.url };
      expect((await runInProcess(['auth', 'login', '--client-id', 'acme', '--client-secret-stdin'], { env, input: 'acme-sandbox-secret\n' })).code).toBe(0);
      const bankAccountId = JSON.parse((await runInProcess(['bank-accounts', 'list', '--json', '--main-account'], { env })).stdout)[0].id;
      const result = await runInProcess(
        [
          'withdraw', 'pix', '--amount', '1234', '--bank-account', String(bankAccountId),
          '--pix-key-type', 'email', '--pix-key', VALID.email, '--main-account', '--yes', '--json',
        ],
        { env },
      );
      expect(result.code, result.stderr).toBe(0);
      const withdrawal = JSON.parse(result.stdout);
      expect(withdrawal).toMatchObject({ amount: 1234, status: 'PENDING' });
      // asked again until it has settled (a busy machine settles late, not never), then it is COMPLETED
      let later = withdrawal as { id: string; status: string };
      while (later.status === 'PENDING') {
        await new Promise((resolve) => setTimeout(resolve, 50));
        later = JSON.parse((await runInProcess(['withdrawals', 'get', withdrawal.id, '--json', '--main-account'], { env })).stdout);
      }
      expect(later).toMatchObject({ id: withdrawal.id, status: 'COMPLETED' });
    } finally {
      sandbox.kill();
      await sandbox.exited;
    }
  });
});
