import { appendFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startSandboxSession, type SandboxSession } from '../helpers/sandbox.js';
import { colleagueWithdraws, csvFile, fundedMainAccount, paidByKey, PIX_HEADER, sandboxWithdrawals, startProxy, type Proxy } from './helpers.js';

/**
 * Money paths that a plausible slip in the code would break while every other
 * test still passed: each case here is the one that fails with that slip (named
 * in its title). Counted in the sandbox, under the profile limits of 5000 a
 * withdrawal and 6000 a batch.
 */
let s: SandboxSession;
let bank: string;
let proxy: Proxy;
const MAX_WITHDRAWAL = 5000;
const MAX_BATCH_TOTAL = 6000;

beforeAll(async () => {
  s = await startSandboxSession('acme');
  bank = await fundedMainAccount(s);
  proxy = await startProxy(s.sandbox.url);
  const set = await s.run(['profiles', 'set', 'default', '--max-withdrawal', String(MAX_WITHDRAWAL), '--max-batch-total', String(MAX_BATCH_TOTAL)]);
  expect(set.code, set.stderr).toBe(0);
});
afterAll(async () => {
  await proxy?.close();
  await s?.close();
});

const batch = (file: string, extra: string[] = [], env: Record<string, string> = {}) =>
  s.run(['withdraw', 'batch', file, '--method', 'pix', '--yes', '--main-account', ...extra], { env });
const amountsTo = async (key: string) => (await sandboxWithdrawals(s)).filter((w) => w.pixKey === key).map((w) => w.amount);

describe('--reconcile matches a row only to a withdrawal made after its intent (the margin is 30 s, not minutes)', () => {
  it('an identical withdrawal made 3 minutes before the row was sent does not settle it: the row is sent, once', async () => {
    // Made on a clock 3 minutes back: the sandbox runs in this process.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() - 180_000 });
    try {
      await colleagueWithdraws(s, bank, 4100, 'margin@example.com');
    } finally {
      vi.useRealTimers();
    }
    const file = csvFile('margin.csv', [PIX_HEADER, `4100,${bank},email,margin@example.com`]);
    const first = proxy.posts.length;
    // The row's request never reaches the API: its outcome is unknown to payctl. The older
    // withdrawal is a twin within the duplicate window, so the row is sent only as the user says.
    proxy.setRule((_, index) => (index === first ? 'drop' : 'forward'));
    expect((await batch(file, ['--allow-duplicate'], { PAYCTL_BASE_URL: proxy.url })).code).toBe(5);
    proxy.setRule(() => 'forward');
    expect(await amountsTo('margin@example.com')).toEqual([4100]);

    const settled = await batch(file, ['--reconcile', '--allow-duplicate'], { PAYCTL_BASE_URL: proxy.url });
    expect(await amountsTo('margin@example.com')).toEqual([4100, 4100]);
    expect(settled.code, settled.stderr).toBe(0);
    expect(settled.stderr).toContain('0 of 1 unknown rows were paid');
  });
});

/** Until the proxy's rewrite is reset: the withdrawals list, as the proxy answers it, starts with `item`, made now. */
const listedFirst = (item: object) =>
  proxy.rewriteGets((request, body) => {
    if (new URL(request.url, proxy.url).pathname !== '/withdrawals') return body;
    const list = JSON.parse(body) as { data: unknown[]; meta: { total: number } };
    return JSON.stringify({ ...list, data: [{ ...item, createdAt: new Date().toISOString() }, ...list.data], meta: { total: list.meta.total + 1 } });
  });

describe('the duplicate check counts a listed withdrawal it cannot fully read as a possible twin', () => {
  it('a same-looking withdrawal listed without withdrawalPaymentType stops a withdrawal: exit 2, nothing sent', async () => {
    const key = 'unreadable-twin@example.com';
    // The list, as the proxy answers it, holds the same withdrawal without its method.
    listedFirst({ id: '0d5b5c1e-5b1f-4c52-9d7e-5d0f7d1a0b01', amount: 1234, status: 'PENDING', bankAccountId: Number(bank), pixKeyType: 'EMAIL', pixKey: key });
    try {
      const before = (await sandboxWithdrawals(s)).length;
      const result = await s.run(
        ['withdraw', 'pix', '--amount', '1234', '--bank-account', bank, '--pix-key-type', 'email', '--pix-key', key, '--yes', '--main-account'],
        { env: { PAYCTL_BASE_URL: proxy.url } },
      );
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toContain('possible duplicate');
      expect((await sandboxWithdrawals(s)).length).toBe(before);
    } finally {
      proxy.rewriteGets((_, body) => body);
    }
  });
});

describe('the duplicate check tells PIX key types apart', () => {
  it('a listed withdrawal with the same key text under another key type is no twin: the withdrawal is paid', async () => {
    const key = 'keytype-twin@example.com';
    // The list, as the proxy answers it, holds the same amount, bank account and key text, as a RANDOM key.
    listedFirst({
      id: '0d5b5c1e-5b1f-4c52-9d7e-5d0f7d1a0b02', amount: 1235, status: 'PENDING', withdrawalPaymentType: 'PIX', bankAccountId: Number(bank), pixKeyType: 'RANDOM', pixKey: key,
    });
    try {
      const result = await s.run(
        ['withdraw', 'pix', '--amount', '1235', '--bank-account', bank, '--pix-key-type', 'email', '--pix-key', key, '--yes', '--main-account'],
        { env: { PAYCTL_BASE_URL: proxy.url } },
      );
      expect(result.code, result.stderr).toBe(0);
      expect((await sandboxWithdrawals(s)).filter((w) => w.pixKey === key)).toHaveLength(1);
    } finally {
      proxy.rewriteGets((_, body) => body);
    }
  });
});

describe('batch limits', () => {
  it('a row exactly at --max-withdrawal, in a file exactly at --max-batch-total, is paid', async () => {
    const file = csvFile('at-limits.csv', [PIX_HEADER, `${MAX_WITHDRAWAL},${bank},email,at-limit-0@example.com`, `1000,${bank},email,at-limit-1@example.com`]);
    const result = await batch(file);
    expect(result.code, result.stderr).toBe(0);
    const paid = await paidByKey(s, 'at-limit-');
    expect([...paid.entries()].sort()).toEqual([
      ['at-limit-0@example.com', 1],
      ['at-limit-1@example.com', 1],
    ]);
  });

  it('the total counts every row of the file, paid ones too: a 100-cent row appended to a paid 3000 + 3000 file is refused', async () => {
    const file = csvFile('appended.csv', [PIX_HEADER, `3000,${bank},email,appended-0@example.com`, `3000,${bank},email,appended-1@example.com`]);
    expect((await batch(file)).code).toBe(0);
    appendFileSync(file, `100,${bank},email,appended-2@example.com\n`);
    const result = await batch(file);
    expect((await paidByKey(s, 'appended-')).get('appended-2@example.com')).toBeUndefined();
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("the batch's total R$ 61,00 (6100 cents) is above the largest batch profile");
  });
});

describe('the duplicate check tells methods apart', () => {
  it('a card and then a boleto withdrawal of the same amount to one bank account are both paid', async () => {
    const before = (await sandboxWithdrawals(s)).filter((w) => w.amount === 2500).length;
    for (const method of ['card', 'boleto']) {
      const result = await s.run(['withdraw', method, '--amount', '2500', '--bank-account', bank, '--yes', '--main-account']);
      expect(result.code, `${method}: ${result.stderr}`).toBe(0);
    }
    const paid = (await sandboxWithdrawals(s)).filter((w) => w.amount === 2500);
    expect(paid.length - before).toBe(2);
    expect(paid.map((w) => w.withdrawalPaymentType).sort()).toEqual(['BOLETO', 'CARD']);
  });
});
