import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
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
    const customer = fixtures.customers[7];
    await acme.put(`/customers/${customer.id}`, { firstName: 'Persistida' });
    const subscription = fixtures.subscriptions.find((s) => s.status === 'ACTIVE');
    await acme.delete(`/subscriptions/${subscription.id}`);
    const bankAccountId = fixtures.mainBankAccounts[0].id;
    // a burst of concurrent writes: they share fsyncs, and none may be lost
    const withdrawals = await Promise.all(
      Array.from({ length: 50 }, () => acme.post('/withdrawals/withdraw', { withdrawalMethod: 'pix', amount: 100, bankAccountId, pixKeyType: 'EMAIL', pixKey: VALID.email })),
    );
    const balance = (await acme.get('/withdrawals/balance')).body.data;
    await first.close();
    expect(readdirSync(directory).sort()).toEqual(['state.json', 'state.json.log']);
    expect(JSON.parse(readFileSync(dataFile, 'utf8')).format).toBe('payctl-sandbox/2');

    const second = await startSandbox({ port: 0, dataFile, customers: 5 });
    try {
      const sameToken = new Client(second.url, acme.token);
      expect((await sameToken.get(`/customers/${customer.id}`)).body.data.firstName).toBe('Persistida');
      expect((await sameToken.get('/customers')).body.meta.total).toBe(300);
      expect((await sameToken.get(`/subscriptions/${subscription.id}`)).body.data.status).toBe('DELETED');
      expect((await sameToken.get('/withdrawals/balance')).body.data).toEqual(balance);
      const last = withdrawals.at(-1)!.body.data.id;
      expect((await sameToken.get(`/withdrawals/${last}`)).status).toBe(200);
    } finally {
      await second.close();
    }
  });

  it("resets only the token's company to the seed", async () => {
    const sandbox = await startSandbox({ port: 0 });
    try {
      const acme = await login(sandbox, 'acme');
      const globex = await login(sandbox, 'globex');
      const seeded = await discover(acme);
      const globexCustomer = (await globex.get('/customers')).body.data[0];
      await acme.put(`/customers/${seeded.customers[0].id}`, { firstName: 'Changed' });
      await globex.put(`/customers/${globexCustomer.id}`, { firstName: 'Kept' });
      await acme.post('/sandbox/balance', { pix: 12345 });
      expect((await acme.post('/sandbox/reset')).status).toBe(200);
      expect(await discover(acme)).toEqual(seeded);
      expect((await globex.get(`/customers/${globexCustomer.id}`)).body.data.firstName).toBe('Kept');
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
