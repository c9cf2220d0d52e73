import { describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { colleagueWithdraws as colleagueWithdrawsIn, csvFile, expectPaidOnce, paidByKey, PIX_HEADER, pixBatchThrough, pixKeys, pixRows, sandboxBehindProxy, sandboxWithdrawals, shim } from './helpers.js';

/**
 * --reconcile against a world that moves: a colleague creating withdrawals while
 * the list is read, rows alike but for their bank account, a clock corrected
 * between the run and the reconcile. Payments are counted in the sandbox.
 */
const world = sandboxBehindProxy();

const batch = (file: string, extra: string[] = [], env: Record<string, string> = {}) => pixBatchThrough(world.session, world.proxy, file, extra, env);

const colleagueWithdraws = (amount: number, key: string) => colleagueWithdrawsIn(world.session, world.bank, amount, key);

/** Loses the answers to the POSTs at the given places (counted from now); passes the rest on. */
function loseAnswersAt(...places: number[]): void {
  const first = world.proxy.posts.length;
  world.proxy.setRule((_, index) => (places.includes(index - first) ? 'lose-answer' : 'forward'));
}

describe('--reconcile reads a list that shifts while it is read', () => {
  it("a withdrawal created while page 2 is held pushes the row's withdrawal (at position 200) to page 3: it is still found, paid once", async () => {
    const file = csvFile('shift.csv', [PIX_HEADER, ...pixRows('shift', 1, world.bank, 7777)]);
    loseAnswersAt(0);
    expect((await batch(file)).code).toBe(5);
    world.proxy.setRule(() => 'forward');
    // 199 newer withdrawals: the row's is the last item of page 2 (100 a page).
    for (let i = 0; i < 199; i++) await colleagueWithdraws(100 + i, `filler-${i}@example.com`);

    let held!: () => void;
    const heldSeen = new Promise<void>((resolve) => (held = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    world.proxy.holdGets((request) => {
      const url = new URL(request.url, world.proxy.url);
      if (url.pathname !== '/withdrawals' || url.searchParams.get('page') !== '2') return undefined;
      world.proxy.holdGets(() => undefined);
      held();
      return released;
    });
    const settling = batch(file, ['--reconcile']);
    await heldSeen;
    await colleagueWithdraws(150, 'colleague@example.com');
    release();
    const settled = await settling;
    expect((await paidByKey(world.session, 'shift-')).get('shift-0@example.com')).toBe(1);
    expect(settled.code, settled.stderr).toBe(0);
    expect(settled.stderr).toContain('1 of 1 unknown rows were paid');
  });
});

describe('--reconcile reads the list again until it holds still', () => {
  /** Rewrites the list's answers while `--reconcile` runs, then lets them be. */
  async function reconcileWith(file: string, rewrite: (page: number, list: { data: unknown[]; meta: { total: number } }) => void) {
    world.proxy.rewriteGets((request, body) => {
      const url = new URL(request.url, world.proxy.url);
      if (url.pathname !== '/withdrawals') return body;
      const list = JSON.parse(body) as { data: unknown[]; meta: { total: number } };
      rewrite(Number(url.searchParams.get('page')), list);
      return JSON.stringify(list);
    });
    try {
      return await batch(file, ['--reconcile']);
    } finally {
      world.proxy.rewriteGets((_, body) => body);
    }
  }

  it("an item leaving page 1 while it is read pulls the row's withdrawal (first of page 2) onto page 1: read again, it is found, paid once", async () => {
    const file = csvFile('pulled.csv', [PIX_HEADER, ...pixRows('pulled', 1, world.bank, 7878)]);
    loseAnswersAt(0);
    expect((await batch(file)).code).toBe(5);
    world.proxy.setRule(() => 'forward');
    for (let i = 0; i < 100; i++) await colleagueWithdraws(100 + i, `pull-filler-${i}@example.com`);

    let pulled = false;
    const settled = await reconcileWith(file, (page, list) => {
      if (page !== 2 || pulled) return;
      // As the API would answer had one item of page 1 gone after page 1 was read: page 2 starts one later.
      pulled = true;
      list.data.shift();
      list.meta.total--;
    });
    expect(pulled).toBe(true);
    expect((await paidByKey(world.session, 'pulled-')).get('pulled-0@example.com')).toBe(1);
    expect(settled.code, settled.stderr).toBe(0);
    expect(settled.stderr).toContain('1 of 1 unknown rows were paid');
  });

  it("the row's withdrawal listed without its id: the row stays unknown, says why, and is neither settled nor sent", async () => {
    const file = csvFile('nameless.csv', [PIX_HEADER, ...pixRows('nameless', 1, world.bank, 7676)]);
    loseAnswersAt(0);
    expect((await batch(file)).code).toBe(5);
    world.proxy.setRule(() => 'forward');

    const settled = await reconcileWith(file, (_, list) => {
      for (const item of list.data as Array<Record<string, unknown>>) if (item.pixKey === 'nameless-0@example.com') delete item.id;
    });
    expect(settled.code, settled.stderr).toBe(5);
    expect(settled.stderr).toContain("withdrawal (without an id) may be this row's");
    expect((await paidByKey(world.session, 'nameless-')).get('nameless-0@example.com')).toBe(1);
  });

  it('a list that changes at every reading: after 5 readings the row stays unknown, says why, and is not sent', async () => {
    const file = csvFile('restless.csv', [PIX_HEADER, ...pixRows('restless', 1, world.bank, 7979)]);
    loseAnswersAt(0);
    expect((await batch(file)).code).toBe(5);
    world.proxy.setRule(() => 'forward');

    let created = 0;
    const settled = await reconcileWith(file, (page, list) => {
      if (page !== 1) return;
      // Every reading finds a new withdrawal at the head, and the one before it gone.
      created++;
      const at = new Date().toISOString();
      const id = `00000000-0000-4000-8000-${String(created).padStart(12, '0')}`;
      list.data.unshift({ id, amount: 101, status: 'PENDING', withdrawalPaymentType: 'PIX', pixKeyType: 'EMAIL', pixKey: `ghost-${created}@example.com`, bankAccountId: Number(world.bank), createdAt: at, updatedAt: at });
      list.meta.total++;
    });
    expect(settled.code, settled.stderr).toBe(5);
    expect(settled.stderr).toContain('the withdrawals list changed each of the 5 times it was read');
    expect(created).toBe(5);
    expect((await paidByKey(world.session, 'restless-')).get('restless-0@example.com')).toBe(1);
  });
});

describe('--reconcile compares every field of a row', () => {
  it('PIX rows alike but for their bank account, both unknown, only the second reached the API: each bank account is paid once', async () => {
    const banks = (await world.session.run(['bank-accounts', 'list', '--main-account', '--fields', 'id', '-o', 'tsv'])).stdout.trim().split('\n');
    expect(banks.length).toBeGreaterThanOrEqual(2);
    const [x, y] = banks as [string, string];
    const file = csvFile('banks.csv', [PIX_HEADER, `8888,${x},email,two-banks@example.com`, `8888,${y},email,two-banks@example.com`]);
    const first = world.proxy.posts.length;
    // The first row's request never reaches the API; the second's does, and its answer is lost.
    world.proxy.setRule((_, index) => (index - first === 0 ? 'drop' : index - first === 1 ? 'lose-answer' : 'forward'));
    expect((await batch(file)).code).toBe(5);
    world.proxy.setRule(() => 'forward');

    const settled = await batch(file, ['--reconcile']);
    expect(settled.code, settled.stderr).toBe(0);
    const paid = (await sandboxWithdrawals(world.session)).filter((w) => w.pixKey === 'two-banks@example.com').map((w) => String(w.bankAccountId));
    expect(paid.sort()).toEqual([x, y].sort());
  });
});

describe("--reconcile places rows on the API's clock as it was at the run", () => {
  for (const fastSeconds of [45, 300]) {
    it(`a clock ${fastSeconds} s fast during the run and corrected before --reconcile: each row paid once`, async () => {
      const prefix = `fast${fastSeconds}`;
      const file = csvFile('fast.csv', [PIX_HEADER, ...pixRows(prefix, 3, world.bank, 20_000 + fastSeconds)]);
      // The first row is sent before any answer of the run; the third after some.
      loseAnswersAt(0, 2);
      const fast = { NODE_OPTIONS: shim('clock-shift'), PAYCTL_TEST_CLOCK_SHIFT_MS: String(fastSeconds * 1000) };
      expect((await batch(file, [], fast)).code).toBe(5);
      world.proxy.setRule(() => 'forward');

      const settled = await batch(file, ['--reconcile']);
      await expectPaidOnce(world.session, `${prefix}-`, pixKeys(prefix, 3));
      expect(settled.code, settled.stderr).toBe(0);
      expect(settled.stderr).toContain('2 of 2 unknown rows were paid');
    });
  }
});

describe("--reconcile and an intent's API time it cannot read", () => {
  it("an intent whose API time was damaged (edited by hand): the row stays unknown, says why, and is not sent again under --allow-duplicate", async () => {
    const file = csvFile('damaged.csv', [PIX_HEADER, ...pixRows('damaged', 1, world.bank, 7171)]);
    loseAnswersAt(0);
    expect((await batch(file)).code).toBe(5);
    world.proxy.setRule(() => 'forward');
    const journal = `${file}.journal`;
    const text = readFileSync(journal, 'utf8');
    expect(text).toMatch(/"apiAt":"[^"]+"/);
    writeFileSync(journal, text.replace(/"apiAt":"[^"]+"/, '"apiAt":"27/11/2026 18:00"'));

    const settled = await batch(file, ['--reconcile', '--allow-duplicate']);
    expect((await paidByKey(world.session, 'damaged-')).get('damaged-0@example.com')).toBe(1);
    expect(settled.code, settled.stderr).toBe(5);
    expect(settled.stderr).toContain("its intent did not record the API's time");
  });
});
