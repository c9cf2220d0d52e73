import type http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli, RUN_DEADLINE_MS, startCli, tempConfigDir } from '../helpers/cli.js';
import { answeredBalance, fakeJwt, sendJson, startFakeApi, type FakeApi, type RecordedRequest } from '../helpers/fake-api.js';
import { csvFile, PIX_HEADER } from '../money/helpers.js';

/**
 * Reads asked at once, where one failing decides the run: payctl ends with that failure and gives up
 * the reads still in flight (their requests closed), instead of waiting for answers it no longer
 * wants. Each run has a timeout of an hour: one that waited would outlive the test's deadline.
 */

let api: FakeApi | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

/** A request the server never answers, and whether payctl closed it. */
interface Held {
  request: RecordedRequest;
  what: string;
  closed: boolean;
}

/**
 * A fake API: `answer` answers a request (true), or leaves it to be held (false). `refuse` names the
 * request that fails (404), once `holdsBefore` requests are held, so that they are in flight when it fails.
 */
async function server(options: {
  answer: (request: RecordedRequest, response: http.ServerResponse) => boolean;
  refuse: (request: RecordedRequest) => boolean;
  holdsBefore: number;
}) {
  const held: Held[] = [];
  let refusal: (() => void) | undefined;
  const refuseOnceHeld = () => {
    if (refusal && held.length >= options.holdsBefore) {
      refusal();
      refusal = undefined;
    }
  };
  api = await startFakeApi((request, response) => {
    if (options.refuse(request)) {
      refusal = () => sendJson(response, 404, { data: { message: 'refused by the test', returnCode: -7000 } });
    } else if (!options.answer(request, response)) {
      const entry = { request, what: `${request.method} ${pathOf(request)}`, closed: false };
      held.push(entry);
      response.on('close', () => (entry.closed = !response.writableFinished));
    }
    refuseOnceHeld();
  });
  const env = { PAYCTL_CONFIG_DIR: tempConfigDir(), PAYCTL_BASE_URL: api.url, PAYCTL_TOKEN: fakeJwt(Math.floor(Date.now() / 1000) + 3600) };
  return { env, held };
}

const pathOf = (request: RecordedRequest) => new URL(request.url, 'http://fake').pathname;
const pageOf = (request: RecordedRequest) => Number(new URL(request.url, 'http://fake').searchParams.get('page') ?? 1);

/** Every held request was closed by payctl. */
async function expectGivenUp(held: readonly Held[]): Promise<void> {
  expect(held.length).toBeGreaterThan(0);
  await expect.poll(() => held.filter(({ closed }) => !closed).map(({ what }) => what), { timeout: RUN_DEADLINE_MS }).toEqual([]);
}

const BANK_ACCOUNT = { id: 7, holderName: 'ANA SOUZA', bankCode: '001', routingNumber: '1234', accountNumber: '12345-6', document: '52998224725' };
const answerBankAccount = (request: RecordedRequest, response: http.ServerResponse) =>
  pathOf(request) === '/bank_accounts/7' && (sendJson(response, 200, { data: BANK_ACCOUNT, message: 'ok' }), true);
const PIX = ['withdraw', 'pix', '--bank-account', '7', '--amount', '1000', '--pix-key-type', 'email', '--pix-key', 'ana@example.com', '--yes', '--timeout', '3600'];

/** A newest-first withdrawals list of `total` items made just now, none like the withdrawals these tests make. */
const recentPage = (page: number, total: number) =>
  Array.from({ length: Math.max(0, Math.min(100, total - (page - 1) * 100)) }, (_, i) => ({
    id: `w-${page}-${i}`,
    amount: 500_000 + i,
    withdrawalPaymentType: 'PIX',
    bankAccountId: 99,
    pixKeyType: 'EMAIL',
    pixKey: `other-${page}-${i}@example.com`,
    status: 'COMPLETED',
    createdAt: new Date().toISOString(),
  }));

describe('reads asked at once, one failing', () => {
  it("withdraw: the bank account not found while the balance is being read: the run ends, the balance's read given up", async () => {
    const { env, held } = await server({
      answer: () => false,
      refuse: (request) => pathOf(request) === '/bank_accounts/7',
      holdsBefore: 1,
    });
    const failed = await runCli(PIX, { env });
    expect(failed.code, failed.stderr).toBe(1);
    expect(failed.stderr).toContain('refused by the test (returnCode -7000, HTTP 404)');
    expect(held.map(({ what }) => what)).toEqual(['GET /withdrawals/balance']);
    await expectGivenUp(held);
  });

  it("withdraw: a page of the twin check's withdrawals fails while later ones are read: the run ends, those given up, nothing sent", async () => {
    const total = 400;
    const { env, held } = await server({
      answer: (request, response) => {
        if (answeredBalance(request, response) || answerBankAccount(request, response)) return true;
        if (pathOf(request) !== '/withdrawals' || pageOf(request) !== 1) return false;
        sendJson(response, 200, { data: recentPage(1, total), meta: { total }, message: 'ok' });
        return true;
      },
      refuse: (request) => pathOf(request) === '/withdrawals' && pageOf(request) === 2,
      holdsBefore: 2,
    });
    const failed = await runCli(PIX, { env });
    expect(failed.code, failed.stderr).toBe(1);
    expect(failed.stderr).toContain('refused by the test (returnCode -7000, HTTP 404)');
    expect(held.map(({ request }) => pageOf(request)).sort()).toEqual([3, 4]);
    await expectGivenUp(held);
    expect(api!.requests.filter((request) => request.method === 'POST')).toEqual([]);
  });

  it('customers get: a card that cannot be read while others are: the run ends, the other cards given up', async () => {
    const customer = '0b8d3a52-7c1e-4f7a-9a55-3d2f1c0e9b11';
    const cards = ['1f0c2b3a-4d5e-4f60-8a7b-9c8d7e6f5a41', '2f0c2b3a-4d5e-4f60-8a7b-9c8d7e6f5a42', '3f0c2b3a-4d5e-4f60-8a7b-9c8d7e6f5a43'];
    const subscriptions = cards.map((cardId, i) => ({ id: `s-${i}`, customerId: customer, cardId, splits: [], status: 'ACTIVE', amount: 1000 }));
    const { env, held } = await server({
      answer: (request, response) => {
        if (pathOf(request) === `/customers/${customer}`) sendJson(response, 200, { data: { id: customer, firstName: 'Ana' }, message: 'ok' });
        else if (pathOf(request) === '/subscriptions') sendJson(response, 200, { data: subscriptions, meta: { total: 3, totalPages: 1 }, message: 'ok' });
        else return false;
        return true;
      },
      refuse: (request) => pathOf(request) === `/cards/${cards[0]}`,
      holdsBefore: 2,
    });
    const failed = await runCli(['customers', 'get', customer, '-o', 'table', '--timeout', '3600'], { env });
    expect(failed.code, failed.stderr).toBe(1);
    expect(failed.stderr).toContain('refused by the test (returnCode -7000, HTTP 404)');
    expect(held.map(({ what }) => what).sort()).toEqual([`GET /cards/${cards[1]}`, `GET /cards/${cards[2]}`]);
    await expectGivenUp(held);
  });
});

describe('withdraw batch: the twin check and the balances, read at once', () => {
  const batchArgs = () => ['withdraw', 'batch', csvFile('rows.csv', [PIX_HEADER, '1000,7,email,ana@example.com']), '--method', 'pix', '--yes', '--timeout', '3600'];

  /**
   * The balance refused at once; the withdrawals list (`listed`) answered only once that refusal is
   * on the wire, so that the balance fails first.
   */
  async function balanceFailsFirst(listed: unknown[]) {
    let refusalSent: () => void;
    const balanceRefused = new Promise<void>((resolve) => (refusalSent = resolve));
    api = await startFakeApi(async (request, response) => {
      if (pathOf(request) === '/withdrawals/balance') {
        response.on('finish', refusalSent);
        sendJson(response, 404, { data: { message: 'refused by the test', returnCode: -7000 } });
      } else if (pathOf(request) === '/withdrawals') {
        await balanceRefused;
        sendJson(response, 200, { data: listed, meta: { total: listed.length }, message: 'ok' });
      } else sendJson(response, 404, { data: { message: 'not in this test', returnCode: -1 } });
    });
    return { PAYCTL_CONFIG_DIR: tempConfigDir(), PAYCTL_BASE_URL: api.url, PAYCTL_TOKEN: fakeJwt(Math.floor(Date.now() / 1000) + 3600) };
  }

  it('the balance fails before the twin check finds a twin: the twin refusal ends the run, every time', async () => {
    const twin = { ...recentPage(1, 1)[0], id: 'twin-1', amount: 1000, bankAccountId: 7, pixKey: 'ana@example.com' };
    const refused = await runCli(batchArgs(), { env: await balanceFailsFirst([twin]) });
    expect(refused.code, refused.stderr).toBe(2);
    expect(refused.stderr).toContain('1 of 1 rows match withdrawals already on the platform');
    expect(refused.stderr).toContain('twin-1');
    expect(refused.stderr).not.toContain('refused by the test');
    expect(api!.requests.filter((request) => request.method === 'POST')).toEqual([]);
  });

  it('the balance fails and the twin check finds none: the run ends with the balance failure, nothing sent', async () => {
    const failed = await runCli(batchArgs(), { env: await balanceFailsFirst([]) });
    expect(failed.code, failed.stderr).toBe(1);
    expect(failed.stderr).toContain('refused by the test (returnCode -7000, HTTP 404)');
    expect(api!.requests.filter((request) => request.method === 'POST')).toEqual([]);
  });

  it("the twin check's read fails while the balance is read: the run ends with it, the balance given up, nothing sent", async () => {
    const { env, held } = await server({
      answer: () => false,
      refuse: (request) => pathOf(request) === '/withdrawals',
      holdsBefore: 1,
    });
    const failed = await runCli(batchArgs(), { env });
    expect(failed.code, failed.stderr).toBe(1);
    expect(failed.stderr).toContain('refused by the test (returnCode -7000, HTTP 404)');
    expect(held.map(({ what }) => what)).toEqual(['GET /withdrawals/balance']);
    await expectGivenUp(held);
    expect(api!.requests.filter((request) => request.method === 'POST')).toEqual([]);
  });

  it("--reconcile: a page of the withdrawals read fails while later ones are read: the run ends, those given up, nothing sent", async () => {
    const total = 400;
    let reconciling = false;
    const { env, held } = await server({
      answer: (request, response) => {
        if (answeredBalance(request, response)) return true;
        // The first run's withdrawal reaches the API and its answer is lost: the row is of unknown outcome.
        if (request.method === 'POST') {
          response.socket?.destroy();
          return true;
        }
        if (pathOf(request) !== '/withdrawals' || (reconciling && pageOf(request) !== 1)) return false;
        sendJson(response, 200, reconciling ? { data: recentPage(1, total), meta: { total }, message: 'ok' } : { data: [], meta: { total: 0 }, message: 'ok' });
        return true;
      },
      refuse: (request) => reconciling && pathOf(request) === '/withdrawals' && pageOf(request) === 2,
      holdsBefore: 2,
    });
    const args = batchArgs();
    const lost = await runCli(args, { env });
    expect(lost.code, lost.stderr).toBe(5);
    reconciling = true;
    const failed = await runCli([...args, '--reconcile'], { env });
    expect(failed.code, failed.stderr).toBe(1);
    expect(failed.stderr).toContain('refused by the test (returnCode -7000, HTTP 404)');
    expect(held.map(({ request }) => pageOf(request)).sort()).toEqual([3, 4]);
    await expectGivenUp(held);
    expect(api!.requests.filter((request) => request.method === 'POST')).toHaveLength(1);
  });

  /**
   * A batch of two rows, both made (`made-1`, `made-2`) and then followed with --wait: every read of a
   * withdrawal is held, but the one `refuse` names, refused once `holdsBefore` are held.
   */
  async function twoRowsWaitedFor(refuse: (request: RecordedRequest) => boolean, holdsBefore: number) {
    let made = 0;
    const { env, held } = await server({
      answer: (request, response) => {
        if (answeredBalance(request, response)) return true;
        if (request.method === 'POST') sendJson(response, 200, { data: { id: `made-${++made}`, status: 'PENDING' }, message: 'ok' });
        else if (pathOf(request) === '/withdrawals') sendJson(response, 200, { data: [], meta: { total: 0 }, message: 'ok' });
        else return false;
        return true;
      },
      refuse,
      holdsBefore,
    });
    const file = csvFile('rows.csv', [PIX_HEADER, '1000,7,email,ana@example.com', '2000,7,email,bia@example.com']);
    const args = ['withdraw', 'batch', file, '--method', 'pix', '--yes', '--wait', '--wait-timeout', '3600', '--timeout', '3600'];
    return { args, env, held, made: () => made };
  }

  it("--wait: one withdrawal's read fails while another's is in flight: the rows reported, then the run ends with it, that read given up", async () => {
    const { args, env, held, made } = await twoRowsWaitedFor((request) => pathOf(request) === '/withdrawals/made-1', 1);
    const failed = await runCli(args, { env });
    expect(failed.code, failed.stderr).toBe(1);
    expect(failed.stderr).toContain('refused by the test (returnCode -7000, HTTP 404)');
    expect(held.map(({ what }) => what)).toEqual(['GET /withdrawals/made-2']);
    await expectGivenUp(held);
    expect(made()).toBe(2);
    // Both rows were paid: the report says so, with their ids, before the error.
    for (const id of ['made-1', 'made-2']) expect(failed.stdout).toMatch(new RegExp(`\\bsent\\b.*\\b${id}\\b`));
    expect(failed.stderr).toMatch(/^waited: .* \(a read failed: see the error below\)$/m);
  });

  it('--wait: Ctrl-C while both withdrawals are being read: the reads given up, the wait stops as the README says (exit 130)', async () => {
    const { args, env, held, made } = await twoRowsWaitedFor(() => false, 0);
    const run = startCli(args, env);
    await expect.poll(() => held.length, { timeout: RUN_DEADLINE_MS }).toBe(2);
    run.child.kill('SIGINT');
    const stopped = await run.done;
    expect(stopped.code, stopped.stderr).toBe(130);
    expect(stopped.stderr).toContain('waited: 0 COMPLETED, 0 FAILED, 2 still unsettled when the wait was stopped');
    expect(stopped.stderr).toContain('error: interrupted while waiting: 2 withdrawals made and not settled yet (lines 2, 3)');
    expect(held.map(({ what }) => what).sort()).toEqual(['GET /withdrawals/made-1', 'GET /withdrawals/made-2']);
    await expectGivenUp(held);
    expect(made()).toBe(2);
  });
});
