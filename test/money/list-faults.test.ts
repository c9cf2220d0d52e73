import { describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../helpers/fake-api.js';
import { colleagueWithdraws as colleagueWithdrawsIn, csvFile, paidByKey, PIX_HEADER, pixBatchThrough, sandboxBehindProxy, sandboxWithdrawals } from './helpers.js';

/**
 * The twin check and --reconcile against an API that misbehaves as real ones do: a page short of
 * what its total says, a total that stays put while a colleague's withdrawal moves the list, a list
 * given oldest first (and one too long to read whole), a `Date` in asctime form, one that is no date,
 * one running ahead of the times the API gives its withdrawals, one behind this machine's clock, a
 * withdrawal alike but for its postback URL. Payments are counted in the sandbox.
 */
const world = sandboxBehindProxy();

const batch = (file: string, extra: string[] = [], env: Record<string, string> = {}) => pixBatchThrough(world.session, world.proxy, file, extra, env);
const colleagueWithdraws = (amount: number, key: string, extra: { postbackUrl?: string } = {}) =>
  colleagueWithdrawsIn(world.session, world.bank, amount, key, extra);

const listPage = (request: RecordedRequest) => {
  const url = new URL(request.url, world.proxy.url);
  return url.pathname === '/withdrawals' ? url.searchParams.get('page') : null;
};

type ListAnswer = { data: Array<Record<string, unknown>>; meta: { total: number } };

/** Rewrites the list's answers while `run` runs, then lets them be. */
async function withListRewritten<T>(rewrite: (page: string, list: ListAnswer) => void, run: () => Promise<T>): Promise<T> {
  world.proxy.rewriteGets((request, body) => {
    const page = listPage(request);
    if (page === null) return body;
    const list = JSON.parse(body) as ListAnswer;
    rewrite(page, list);
    return JSON.stringify(list);
  });
  try {
    return await run();
  } finally {
    world.proxy.rewriteGets((_, body) => body);
  }
}

/** Answers every request with the `Date` that `rewrite` makes of the server's while `run` runs, then lets it be. */
async function withDates<T>(rewrite: (date: string) => string | undefined, run: () => Promise<T>): Promise<T> {
  world.proxy.rewriteDates(rewrite);
  try {
    return await run();
  } finally {
    world.proxy.rewriteDates((date) => date);
  }
}

/** Makes `count` withdrawals newer than whatever the test looks for. */
async function fillers(prefix: string, count: number): Promise<void> {
  for (let i = 0; i < count; i++) await colleagueWithdraws(100 + i, `${prefix}-filler-${i}@example.com`);
}

describe('a page shorter than its total says', () => {
  it("page 1 once answers 99 items while the total says more: the twin on page 2 is still seen, nothing sent", async () => {
    await colleagueWithdraws(6161, 'short-twin@example.com');
    await fillers('short', 120);
    const before = (await sandboxWithdrawals(world.session)).length;
    const file = csvFile('short-twin.csv', [PIX_HEADER, `6161,${world.bank},email,short-twin@example.com`]);
    let dropped = false;
    const run = await withListRewritten(
      (page, list) => {
        if (page !== '1' || dropped || list.data.length < 100) return;
        dropped = true;
        list.data.pop();
      },
      () => batch(file),
    );
    expect(dropped).toBe(true);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toMatch(/twin: .*short-twin@example\.com/);
    expect((await sandboxWithdrawals(world.session)).length).toBe(before);
  });
});

describe('a total that stays put while the list moves', () => {
  it("a withdrawal created after page 3 answered and before page 2 does, the total unchanged: page 2 repeats page 1's last item, the twin (position 200) is still seen, nothing sent", async () => {
    await colleagueWithdraws(6262, 'stale-twin@example.com');
    await fillers('stale', 199);
    let page3Answered!: () => void;
    const answered = new Promise<void>((resolve) => (page3Answered = resolve));
    let firstTotal: number | undefined;
    world.proxy.holdGets((request) => {
      if (listPage(request) !== '2') return undefined;
      world.proxy.holdGets(() => undefined);
      return answered.then(() => colleagueWithdraws(150, 'stale-colleague@example.com'));
    });
    const before = (await sandboxWithdrawals(world.session)).length;
    const file = csvFile('stale-twin.csv', [PIX_HEADER, `6262,${world.bank},email,stale-twin@example.com`]);
    const run = await withListRewritten(
      (page, list) => {
        // As an API whose count is cached: every page gives the total the first one gave.
        firstTotal ??= list.meta.total;
        list.meta.total = firstTotal;
        if (page === '3') page3Answered();
      },
      () => batch(file),
    );
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toMatch(/twin: .*stale-twin@example\.com/);
    // The colleague's withdrawal, and nothing else.
    expect((await sandboxWithdrawals(world.session)).length).toBe(before + 1);
  });
});

describe('--reconcile compares the postback URL a row has', () => {
  it("a row whose request never reached the API, and a colleague's withdrawal alike but for its postback URL: not taken as the row's, which is then refused as a twin", async () => {
    const file = csvFile('postback.csv', [`${PIX_HEADER},postback_url`, `6363,${world.bank},email,postback-row@example.com,http://127.0.0.1:9/ours`]);
    const first = world.proxy.posts.length;
    world.proxy.setRule((_, index) => (index === first ? 'drop' : 'forward'));
    expect((await batch(file)).code).toBe(5);
    world.proxy.setRule(() => 'forward');
    await colleagueWithdraws(6363, 'postback-row@example.com', { postbackUrl: 'http://127.0.0.1:9/theirs' });

    const settled = await batch(file, ['--reconcile']);
    expect(settled.stderr).not.toContain('1 of 1 unknown rows were paid');
    expect(settled.code, settled.stderr).toBe(2);
    expect(settled.stderr).toMatch(/twin: .*postback-row@example\.com/);
    expect((await paidByKey(world.session, 'postback-row')).get('postback-row@example.com')).toBe(1);
  });
});

/** An HTTP date in asctime form, `Fri Nov 27 18:49:22 2026`: GMT, though it names no zone. */
function asctime(date: string): string {
  const [weekday, day, month, year, time] = new Date(date).toUTCString().split(/,? /);
  return `${weekday} ${month} ${String(Number(day)).padStart(2, ' ')} ${time} ${year}`;
}

describe("--reconcile reads the API's Date in every HTTP-date form", () => {
  it('a Date in asctime form (no zone: GMT by definition) with TZ=America/Sao_Paulo: the row is found paid, not sent again under --allow-duplicate', async () => {
    await withDates(asctime, async () => {
      const file = csvFile('asctime.csv', [PIX_HEADER, `6464,${world.bank},email,asctime-row@example.com`]);
      const first = world.proxy.posts.length;
      world.proxy.setRule((_, index) => (index === first ? 'lose-answer' : 'forward'));
      // In a process of its own: TZ is read as Node starts.
      const inSaoPaulo = (extra: string[]) =>
        world.session.runProcess(['withdraw', 'batch', file, '--method', 'pix', '--yes', '--main-account', ...extra], {
          env: { PAYCTL_BASE_URL: world.proxy.url, TZ: 'America/Sao_Paulo' },
        });
      expect((await inSaoPaulo([])).code).toBe(5);
      world.proxy.setRule(() => 'forward');
      const settled = await inSaoPaulo(['--reconcile', '--allow-duplicate']);
      expect((await paidByKey(world.session, 'asctime-row')).get('asctime-row@example.com')).toBe(1);
      expect(settled.code, settled.stderr).toBe(0);
      expect(settled.stderr).toContain('1 of 1 unknown rows were paid');
    });
  });
});

describe("--reconcile when the API's Date and its createdAt disagree", () => {
  it("a Date 5 minutes ahead of the times the API gives its withdrawals: the row's withdrawal looks older than its intent, so the row stays unknown, says why, and is not sent under --allow-duplicate", async () => {
    await withDates((date) => new Date(Date.parse(date) + 5 * 60_000).toUTCString(), async () => {
      const file = csvFile('skew.csv', [PIX_HEADER, `6565,${world.bank},email,skew-row@example.com`]);
      const first = world.proxy.posts.length;
      world.proxy.setRule((_, index) => (index === first ? 'lose-answer' : 'forward'));
      expect((await batch(file)).code).toBe(5);
      world.proxy.setRule(() => 'forward');
      const settled = await batch(file, ['--reconcile', '--allow-duplicate']);
      expect((await paidByKey(world.session, 'skew-row')).get('skew-row@example.com')).toBe(1);
      expect(settled.code, settled.stderr).toBe(5);
      // About the 5 minutes either way: the withdrawal is made a moment after its intent, and the Date has whole seconds.
      expect(settled.stderr).toMatch(/has every field of this row but was made (29\d|30\d) s before its intent on the API.s Date, which was (29\d|30\d) s ahead of this machine.s clock/);
    });
  });
});

describe("--reconcile when the API's Date is behind this machine's clock", () => {
  it("a Date 5 minutes behind, and a colleague's withdrawal alike made 400 s before the row's intent: the row is not left unknown (only a Date ahead could date its withdrawal earlier), it is sent again under --allow-duplicate", async () => {
    await colleagueWithdraws(6868, 'behind-row@example.com');
    await withDates((date) => new Date(Date.parse(date) - 5 * 60_000).toUTCString(), async () => {
      const file = csvFile('behind.csv', [PIX_HEADER, `6868,${world.bank},email,behind-row@example.com`]);
      const first = world.proxy.posts.length;
      // The row's request never reaches the API.
      world.proxy.setRule((_, index) => (index === first ? 'drop' : 'forward'));
      expect((await batch(file, ['--allow-duplicate'])).code).toBe(5);
      world.proxy.setRule(() => 'forward');
      // The colleague's withdrawal as made 400 s before the row's intent on this machine's clock: 100 s before it on the API's.
      const settled = await withListRewritten(
        (_, list) => {
          for (const item of list.data) {
            if (item.pixKey === 'behind-row@example.com' && item.status === 'PENDING') item.createdAt = new Date(Date.parse(String(item.createdAt)) - 400_000).toISOString();
          }
        },
        () => batch(file, ['--reconcile', '--allow-duplicate']),
      );
      expect(settled.stderr).not.toContain('has every field of this row');
      expect(settled.code, settled.stderr).toBe(0);
      expect(settled.stderr).toContain('0 of 1 unknown rows were paid');
      expect((await paidByKey(world.session, 'behind-row')).get('behind-row@example.com')).toBe(2);
    });
  });
});

describe("the twin check when the API's Date is hours ahead of the times it gives its withdrawals", () => {
  it('a Date 30 hours ahead (past the 24 h window): the twin made a moment ago is still seen, nothing sent', async () => {
    await colleagueWithdraws(6666, 'ahead-twin@example.com');
    await withDates((date) => new Date(Date.parse(date) + 30 * 3_600_000).toUTCString(), async () => {
      const before = (await sandboxWithdrawals(world.session)).length;
      const file = csvFile('ahead-twin.csv', [PIX_HEADER, `6666,${world.bank},email,ahead-twin@example.com`]);
      const run = await batch(file);
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toMatch(/twin: .*ahead-twin@example\.com/);
      expect((await sandboxWithdrawals(world.session)).length).toBe(before);
    });
  });
});

describe("--reconcile and a Date that is no HTTP date", () => {
  it("a Date of `0` (which JavaScript reads as the year 2000): an identical withdrawal made before the run does not settle the row, which stays unknown", async () => {
    await colleagueWithdraws(6767, 'garbage-date@example.com');
    await withDates(() => '0', async () => {
      const file = csvFile('garbage-date.csv', [PIX_HEADER, `6767,${world.bank},email,garbage-date@example.com`]);
      const first = world.proxy.posts.length;
      // The row's request never reaches the API.
      world.proxy.setRule((_, index) => (index === first ? 'drop' : 'forward'));
      expect((await batch(file, ['--allow-duplicate'])).code).toBe(5);
      world.proxy.setRule(() => 'forward');
      const settled = await batch(file, ['--reconcile', '--allow-duplicate']);
      expect(settled.stderr).not.toContain('1 of 1 unknown rows were paid');
      expect(settled.code, settled.stderr).toBe(5);
      expect(settled.stderr).toContain("its intent did not record the API's time");
      expect((await paidByKey(world.session, 'garbage-date')).get('garbage-date@example.com')).toBe(1);
    });
  });
});

describe('the twin check against a list the API gives oldest first', () => {
  it('a history of 100 old withdrawals on page 1: the twin made a moment ago, on a later page, is still seen, nothing sent', async () => {
    await colleagueWithdraws(6868, 'oldest-first-twin@example.com');
    const history = Array.from({ length: 100 }, (_, i) => {
      const at = new Date(Date.UTC(2024, 0, 1, 0, i)).toISOString();
      const id = `00000000-0000-4000-8000-${String(100 + i).padStart(12, '0')}`;
      return { id, amount: 100 + i, liquidAmount: 100 + i, status: 'COMPLETED', withdrawalPaymentType: 'PIX', pixKeyType: 'EMAIL', pixKey: `history-${i}@example.com`, bankAccountId: Number(world.bank), createdAt: at, updatedAt: at };
    });
    // Each page as an API listing oldest first would give it: the account's history, then the sandbox's withdrawals oldest first.
    const pages = new Map<RecordedRequest, { data: unknown[]; total: number }>();
    world.proxy.holdGets(async (request) => {
      const page = listPage(request);
      if (page === null) return;
      const url = new URL(request.url, world.proxy.url);
      const limit = Number(url.searchParams.get('limit'));
      const all = [...history, ...(await sandboxWithdrawals(world.session)).reverse()];
      pages.set(request, { data: all.slice((Number(page) - 1) * limit, Number(page) * limit), total: all.length });
    });
    world.proxy.rewriteGets((request, body) => {
      const answer = pages.get(request);
      return answer ? JSON.stringify({ ...(JSON.parse(body) as object), data: answer.data, meta: { total: answer.total } }) : body;
    });
    try {
      const before = (await sandboxWithdrawals(world.session)).length;
      const file = csvFile('oldest-first.csv', [PIX_HEADER, `6868,${world.bank},email,oldest-first-twin@example.com`]);
      const run = await batch(file);
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toMatch(/twin: .*oldest-first-twin@example\.com/);
      expect((await sandboxWithdrawals(world.session)).length).toBe(before);
    } finally {
      world.proxy.holdGets(() => undefined);
      world.proxy.rewriteGets((_, body) => body);
    }
  });

  it('a history of 10,001 old withdrawals: the twin check, which reads at most 100 pages, says the list is not newest first and holds more than it reads, not that the window does; nothing sent', async () => {
    const history = Array.from({ length: 10_001 }, (_, i) => {
      const at = new Date(Date.UTC(2024, 0, 1) + i * 60_000).toISOString();
      const id = `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
      const destination = { pixKeyType: 'EMAIL', pixKey: `old-${i}@example.com`, bankAccountId: Number(world.bank) };
      return { id, amount: 100 + i, liquidAmount: 100 + i, status: 'COMPLETED', withdrawalPaymentType: 'PIX', ...destination, createdAt: at, updatedAt: at };
    });
    world.proxy.rewriteGets((request, body) => {
      const page = listPage(request);
      if (page === null) return body;
      const limit = Number(new URL(request.url, world.proxy.url).searchParams.get('limit'));
      const data = history.slice((Number(page) - 1) * limit, Number(page) * limit);
      return JSON.stringify({ ...(JSON.parse(body) as object), data, meta: { total: history.length } });
    });
    try {
      const before = (await sandboxWithdrawals(world.session)).length;
      const file = csvFile('long-history.csv', [PIX_HEADER, `6969,${world.bank},email,long-history@example.com`]);
      const run = await batch(file);
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toContain('the withdrawals list is not given newest first, so its twins may be anywhere in it, and it holds more than the 10000 withdrawals');
      expect(run.stderr).not.toContain('in the last 24h');
      expect(run.stderr).not.toContain('shorten the profile');
      expect((await sandboxWithdrawals(world.session)).length).toBe(before);
    } finally {
      world.proxy.rewriteGets((_, body) => body);
    }
  });
});
