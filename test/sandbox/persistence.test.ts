import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type {
  BalancesResponse, CustomerListResponse, CustomerResponse, SubscriptionResponse, Withdrawal, WithdrawalListResponse, WithdrawalResponse,
} from '../../src/api/types.js';
import { startSandbox } from '../../src/sandbox/server.js';
import { Client, discover, login, VALID } from './helpers.js';

describe('sandbox: --data file and reset', () => {
  const directory = mkdtempSync(join(tmpdir(), 'payctl-sandbox-'));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it('keeps every change across a restart, tokens included, and writes atomically', async () => {
    const dataFile = join(directory, 'state.json');
    const first = await startSandbox({ port: 0, dataFile, customers: 300 });
    const acme = await login(first, 'acme');
    const fixtures = await discover(acme);
    const customer = fixtures.customers[7]!;
    await acme.put(`/customers/${customer.id}`, { firstName: 'Persistida' });
    const subscription = fixtures.subscriptions.find((s) => s.status === 'ACTIVE')!;
    await acme.delete(`/subscriptions/${subscription.id}`);
    const bankAccountId = fixtures.mainBankAccounts[0].id;
    // a burst of concurrent writes: they share fsyncs, and none may be lost
    const withdrawals = await Promise.all(
      Array.from({ length: 50 }, () =>
        acme.post<WithdrawalResponse>('/withdrawals/withdraw', { withdrawalMethod: 'pix', amount: 100, bankAccountId, pixKeyType: 'EMAIL', pixKey: VALID.email }),
      ),
    );
    const balance = (await acme.get<BalancesResponse>('/withdrawals/balance')).body.data;
    await first.close();
    expect(readdirSync(directory).filter((name) => name.startsWith('state')).sort()).toEqual(['state.json', 'state.json.log']);
    expect(JSON.parse(readFileSync(dataFile, 'utf8')).format).toBe('payctl-sandbox/2');

    const second = await startSandbox({ port: 0, dataFile, customers: 5 });
    try {
      const sameToken = new Client(second.url, acme.token);
      expect((await sameToken.get<CustomerResponse>(`/customers/${customer.id}`)).body.data.firstName).toBe('Persistida');
      expect((await sameToken.get<CustomerListResponse>('/customers')).body.meta.total).toBe(300);
      expect((await sameToken.get<SubscriptionResponse>(`/subscriptions/${subscription.id}`)).body.data.status).toBe('DELETED');
      expect((await sameToken.get<BalancesResponse>('/withdrawals/balance')).body.data).toEqual(balance);
      const last = withdrawals.at(-1)!.body.data.id;
      expect((await sameToken.get(`/withdrawals/${last}`)).status).toBe(200);
    } finally {
      await second.close();
    }
  });

  it('replays the log onto the snapshot: compactions under way and a reset included', async () => {
    const dataFile = join(directory, 'compacting.json');
    const first = await startSandbox({ port: 0, dataFile, customers: 30, compactLogBytes: 4096 });
    const acme = await login(first, 'acme');
    const fixtures = await discover(acme);
    const bankAccountId = fixtures.mainBankAccounts[0].id;
    const ids: string[] = [];
    const withdrawSome = async () => {
      const batch = await Promise.all(
        Array.from({ length: 25 }, (_, i) => acme.post<WithdrawalResponse>('/withdrawals/withdraw', { withdrawalMethod: 'card', amount: 100 + i, bankAccountId })),
      );
      ids.push(...batch.map((reply) => reply.body.data.id));
    };
    // until the log outgrows the snapshot and is compacted into a new one; then some more, left in the log
    while (JSON.parse(readFileSync(dataFile, 'utf8')).seq === 0) await withdrawSome();
    await withdrawSome();
    await acme.put(`/customers/${fixtures.customers[2]!.id}`, { lastName: 'Depois' });
    const globex = await login(first, 'globex');
    await globex.post('/sandbox/balance', { pix: 777 });
    await globex.post('/sandbox/reset');
    const globexAfterReset = await discover(globex);
    const balance = (await acme.get<BalancesResponse>('/withdrawals/balance')).body.data;
    await first.close();
    // compacted: the snapshot holds most of it and says up to which change
    expect(JSON.parse(readFileSync(dataFile, 'utf8')).seq).toBeGreaterThan(0);
    expect(readFileSync(`${dataFile}.log`).length).toBeLessThan(readFileSync(dataFile).length);

    const second = await startSandbox({ port: 0, dataFile });
    try {
      const again = new Client(second.url, acme.token);
      for (const id of ids) expect((await again.get(`/withdrawals/${id}`)).status).toBe(200);
      expect((await again.get<BalancesResponse>('/withdrawals/balance')).body.data).toEqual(balance);
      expect((await again.get<CustomerResponse>(`/customers/${fixtures.customers[2]!.id}`)).body.data.lastName).toBe('Depois');
      expect(await discover(new Client(second.url, globex.token))).toEqual(globexAfterReset);
    } finally {
      await second.close();
    }
  });

  it('drops a last line cut short and leftover temporary files; refuses a damaged log or a log without its snapshot', async () => {
    const dataFile = join(directory, 'torn.json');
    const first = await startSandbox({ port: 0, dataFile, customers: 10 });
    const acme = await login(first, 'acme');
    await acme.post('/sandbox/balance', { billet: 4242 });
    const balance = (await acme.get<BalancesResponse>('/withdrawals/balance')).body.data;
    await first.close();
    const log = readFileSync(`${dataFile}.log`, 'utf8');
    appendFileSync(`${dataFile}.log`, '{"seq":99,"company":"x","chan');
    writeFileSync(join(directory, '.torn.json.snapshot.tmp'), '{"half":');

    const second = await startSandbox({ port: 0, dataFile });
    expect((await new Client(second.url, acme.token).get<BalancesResponse>('/withdrawals/balance')).body.data).toEqual(balance);
    await second.close();
    expect(readFileSync(`${dataFile}.log`, 'utf8')).toBe(log);
    expect(readdirSync(directory).filter((name) => name.includes('torn'))).toEqual(['torn.json', 'torn.json.log']);

    writeFileSync(`${dataFile}.log`, `not a log entry\n${log}`);
    await expect(startSandbox({ port: 0, dataFile })).rejects.toThrow(/damaged/);
    rmSync(dataFile);
    await expect(startSandbox({ port: 0, dataFile })).rejects.toThrow(/exists without/);
  });

  it('reads a data file of the first format, leaving out its nulls', async () => {
    const dataFile = join(directory, 'first-format.json');
    const sandbox = await startSandbox({ port: 0, dataFile, customers: 20 });
    const acme = await login(sandbox, 'acme');
    const bankAccountId = (await discover(acme)).mainBankAccounts[0].id;
    const card = (await acme.post<WithdrawalResponse>('/withdrawals/withdraw', { withdrawalMethod: 'card', amount: 500, bankAccountId })).body.data;
    await sandbox.close();
    // what the first format wrote: the whole state in one file, null for every absent field
    const snapshot = JSON.parse(readFileSync(dataFile, 'utf8'));
    const state = await startSandbox({ port: 0, dataFile });
    const current = await new Client(state.url, acme.token).get<WithdrawalListResponse>('/withdrawals?limit=100');
    await state.close();
    const withNulls = (withdrawal: Withdrawal) => ({ pixKeyType: null, pixKey: null, postbackUrl: null, ...withdrawal });
    snapshot.companies[0].account.withdrawals = current.body.data.reverse().map(withNulls);
    delete snapshot.seq;
    writeFileSync(dataFile, JSON.stringify({ ...snapshot, format: 'payctl-sandbox/1' }));
    rmSync(`${dataFile}.log`);

    const reopened = await startSandbox({ port: 0, dataFile });
    try {
      const read = (await new Client(reopened.url, acme.token).get<WithdrawalResponse>(`/withdrawals/${card.id}`)).body.data;
      expect(read).toEqual(card);
      expect(read).not.toHaveProperty('pixKey');
    } finally {
      await reopened.close();
    }
  });

  it("resets only the token's company to the seed", async () => {
    const sandbox = await startSandbox({ port: 0 });
    try {
      const acme = await login(sandbox, 'acme');
      const globex = await login(sandbox, 'globex');
      const seeded = await discover(acme);
      const globexCustomer = (await globex.get<CustomerListResponse>('/customers')).body.data[0]!;
      await acme.put(`/customers/${seeded.customers[0].id}`, { firstName: 'Changed' });
      await globex.put(`/customers/${globexCustomer.id}`, { firstName: 'Kept' });
      await acme.post('/sandbox/balance', { pix: 12345 });
      expect((await acme.post('/sandbox/reset')).status).toBe(200);
      expect(await discover(acme)).toEqual(seeded);
      expect((await globex.get<CustomerResponse>(`/customers/${globexCustomer.id}`)).body.data.firstName).toBe('Kept');
    } finally {
      await sandbox.close();
    }
  });

  it('gives the same data for the same seed, and other data for another seed', async () => {
    const snapshots = [];
    for (const seed of [7, 7, 8]) {
      const sandbox = await startSandbox({ port: 0, seed });
      const acme = await login(sandbox, 'acme');
      snapshots.push(await discover(acme));
      await sandbox.close();
    }
    expect(snapshots[1]).toEqual(snapshots[0]);
    expect(snapshots[2]!.customers[0].id).not.toBe(snapshots[0]!.customers[0].id);
  });
});
