import { describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../helpers/fake-api.js';
import { colleagueWithdraws, csvFile, paidByKey, PIX_HEADER, pixBatchThrough, sandboxBehindProxy, sandboxWithdrawals } from './helpers.js';

/**
 * The twin check reads the account's withdrawals list as --reconcile does: a
 * colleague creating a withdrawal while the pages are read cannot push a twin out
 * of view. Payments are counted in the sandbox.
 */
const world = sandboxBehindProxy();

const listPage = (request: RecordedRequest) => {
  const url = new URL(request.url, world.proxy.url);
  return url.pathname === '/withdrawals' ? url.searchParams.get('page') : null;
};

describe('the twin check reads a list that shifts while it is read', () => {
  it("a withdrawal created after page 3 answered and before page 2 does pushes the row's twin (position 200) off both pages read: still refused, nothing sent", async () => {
    await colleagueWithdraws(world.session, world.bank, 7777, 'shift-twin@example.com');
    // 199 newer withdrawals: the twin is the last item of page 2 (100 a page).
    for (let i = 0; i < 199; i++) await colleagueWithdraws(world.session, world.bank, 100 + i, `shift-filler-${i}@example.com`);

    // Page 2 is passed on only once page 3 has answered and a colleague has made one more withdrawal:
    // page 3 then no longer holds the twin, and page 2 no longer does either.
    let page3Answered!: () => void;
    const answered = new Promise<void>((resolve) => (page3Answered = resolve));
    world.proxy.rewriteGets((request, body) => {
      if (listPage(request) === '3') page3Answered();
      return body;
    });
    world.proxy.holdGets((request) => {
      if (listPage(request) !== '2') return undefined;
      world.proxy.holdGets(() => undefined);
      return answered.then(() => colleagueWithdraws(world.session, world.bank, 150, 'shift-colleague@example.com'));
    });
    const before = (await sandboxWithdrawals(world.session)).length;
    const file = csvFile('shift-twin.csv', [PIX_HEADER, `7777,${world.bank},email,shift-twin@example.com`]);
    const run = await pixBatchThrough(world.session, world.proxy, file);

    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toMatch(/line 2: R\$ 77,77 .*\n {4}twin: .*shift-twin@example\.com/);
    // The colleague's withdrawal, and nothing else.
    expect((await sandboxWithdrawals(world.session)).length).toBe(before + 1);
    expect((await paidByKey(world.session, 'shift-twin')).get('shift-twin@example.com')).toBe(1);
  });
});
