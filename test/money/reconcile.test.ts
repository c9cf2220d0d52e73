import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startCli, tempConfigDir } from '../helpers/cli.js';
import { runInProcess } from '../helpers/in-process.js';
import { answeredBalance, fakeJwt, sendJson, startFakeApi } from '../helpers/fake-api.js';
import { waitUntil } from '../team/helpers.js';
import { csvFile, expectPaidOnce, paidByKey, PIX_HEADER, pixBatchThrough, pixKeys, pixRows, sandboxBehindProxy, shim } from './helpers.js';

/**
 * Rows of unknown outcome: the sandbox behind a proxy that loses answers or
 * answers 500 after the sandbox acted, so the withdrawals really exist.
 */
const world = sandboxBehindProxy();

const batch = (file: string, extra: string[] = [], env: Record<string, string> = {}) => pixBatchThrough(world.session, world.proxy, file, extra, env);
const postsTo = (prefix: string) => world.proxy.posts.filter((p) => p.body.includes(`"${prefix}-`)).length;

describe("--reconcile reads the time window on the API's clock", () => {
  for (const shiftSeconds of [120, -120]) {
    it(`with this machine's clock ${shiftSeconds > 0 ? 'ahead of' : 'behind'} the API's by 120 s: the skew is reported and nothing is paid twice`, async () => {
      const prefix = `skew${shiftSeconds > 0 ? 'ahead' : 'behind'}`;
      const env = { NODE_OPTIONS: shim('clock-shift'), PAYCTL_TEST_CLOCK_SHIFT_MS: String(shiftSeconds * 1000) };
      const file = csvFile('skew.csv', [PIX_HEADER, ...pixRows(prefix, 6, world.bank)]);
      const first = world.proxy.posts.length;
      // The first row's intent is made before any answer (so only reconcile's own reading of the API's clock
      // places it); the fifth's after some (the run recorded the API's time with it).
      world.proxy.setRule((_, index) => ([0, 4].includes(index - first) ? 'lose-answer' : 'forward'));
      const lost = await batch(file, [], env);
      expect(lost.code, lost.stderr).toBe(5);
      world.proxy.setRule(() => 'forward');

      const started = performance.now();
      const settled = await batch(file, ['--reconcile', '-o', 'json'], env);
      const runSeconds = (performance.now() - started) / 1000;
      expect(settled.code, settled.stderr).toBe(0);
      const direction = shiftSeconds > 0 ? 'behind' : 'ahead of';
      const [, reported] = new RegExp(`reconcile: main account: the API's clock is (\\d+) s ${direction} this machine's`).exec(settled.stderr) ?? [];
      // Within a second, plus however long an answer took to reach payctl, which the run's own duration bounds.
      expect(Math.abs(Number(reported) - 120), settled.stderr).toBeLessThanOrEqual(1 + runSeconds);
      expect(settled.stderr).toContain('2 of 2 unknown rows were paid');
      expect((JSON.parse(settled.stdout) as Array<{ outcome: string }>).filter((r) => r.outcome === 'reconciled')).toHaveLength(2);
      expect(postsTo(prefix)).toBe(6);
      await expectPaidOnce(world.session, `${prefix}-`, pixKeys(prefix, 6));
    });
  }
});

describe('a 5xx answer to a batch POST', () => {
  it('makes the row unknown (exit 5), a rerun does not send it again, and --reconcile settles it', async () => {
    const file = csvFile('five.csv', [PIX_HEADER, ...pixRows('five', 4, world.bank)]);
    const first = world.proxy.posts.length;
    world.proxy.setRule((_, index) => (index - first === 2 ? 'answer-500' : 'forward'));
    const failed = await batch(file, ['-o', 'json']);
    expect(failed.code, failed.stderr).toBe(5);
    const report = JSON.parse(failed.stdout) as Array<{ line: number; outcome: string; error: string }>;
    expect(report.map((r) => r.outcome)).toEqual(['sent', 'sent', 'unknown', 'sent']);
    expect(report[2]!.error).toContain('returnCode -7000');
    world.proxy.setRule(() => 'forward');

    const rerun = await batch(file);
    expect(rerun.code).toBe(5);
    expect(rerun.stderr).toMatch(/unknown\s+line 4/);
    expect(postsTo('five')).toBe(4);

    const settled = await batch(file, ['--reconcile']);
    expect(settled.code, settled.stderr).toBe(0);
    expect(settled.stderr).toContain('1 of 1 unknown rows were paid');
    expect(postsTo('five')).toBe(4);
    await expectPaidOnce(world.session, 'five-', pixKeys('five', 4));
  });
});

describe('a batch killed -9 once its POSTs reached the API, before their answers', () => {
  it('its rerun sends none of them again (exit 5, they are of unknown outcome); --reconcile settles them and pays every row once', async () => {
    const prefix = 'killed-at-post';
    const file = csvFile('killed.csv', [PIX_HEADER, ...pixRows(prefix, 12, world.bank)]);
    const first = world.proxy.posts.length;
    // The sandbox makes the first four withdrawals; their answers never reach payctl, so no fifth row starts.
    world.proxy.holdAnswers((_, index) => (index - first < 4 ? new Promise(() => {}) : undefined));
    try {
      const running = startCli(['withdraw', 'batch', file, '--method', 'pix', '--yes', '--main-account', '--concurrency', '4'], { ...world.session.env, PAYCTL_BASE_URL: world.proxy.url });
      await waitUntil('four withdrawals made', async () => (await paidByKey(world.session, `${prefix}-`)).size === 4);
      running.child.kill('SIGKILL');
      expect((await running.done).signal).toBe('SIGKILL');
    } finally {
      world.proxy.holdAnswers(() => undefined);
    }
    const rerun = await batch(file);
    expect(rerun.code, rerun.stderr).toBe(5);
    expect(rerun.stderr).toMatch(/unknown\s+line 2/);
    expect([...(await paidByKey(world.session, `${prefix}-`)).values()].filter((count) => count > 1)).toEqual([]);
    const settled = await batch(file, ['--reconcile']);
    expect(settled.code, settled.stderr).toBe(0);
    await expectPaidOnce(world.session, `${prefix}-`, pixKeys(prefix, 12));
  });
});

describe('one withdrawal settles at most one row', () => {
  it('two identical rows both of unknown outcome, one of which reached the API: one is reconciled, the other sent again', async () => {
    const twin = `6100,${world.bank},email,twin-unknown@example.com`;
    const file = csvFile('twins.csv', [PIX_HEADER, twin, twin]);
    const first = world.proxy.posts.length;
    // The first reaches the sandbox and its answer is lost; the second never reaches it.
    world.proxy.setRule((_, index) => (index - first === 0 ? 'lose-answer' : 'drop'));
    // An audit log of this test's own, to see that the dry run below leaves it as it is.
    const state = { XDG_STATE_HOME: tempConfigDir() };
    const lost = await batch(file, ['--allow-duplicate-rows'], state);
    expect(lost.code, lost.stderr).toBe(5);
    expect(lost.stderr).toContain('2 of unknown outcome');
    world.proxy.setRule(() => 'forward');
    expect((await paidByKey(world.session, 'twin-unknown')).get('twin-unknown@example.com')).toBe(1);

    // A dry run of the reconcile looks, and records only the row it would send again; it writes nothing.
    const journal = readFileSync(`${file}.journal`);
    const audit = readFileSync(path.join(state.XDG_STATE_HOME, 'payctl', 'audit.ndjson'));
    const posts = world.proxy.posts.length;
    const plan = await batch(file, ['--allow-duplicate-rows', '--reconcile', '--dry-run', '-o', 'json'], state);
    expect(plan.code, plan.stderr).toBe(0);
    expect((JSON.parse(plan.stdout) as Array<{ body: { pixKey: string } }>).map((r) => r.body.pixKey)).toEqual(['twin-unknown@example.com']);
    expect(plan.stderr).toContain('batch: 2 rows: 1 to send, 1 already done\n');
    expect(readFileSync(`${file}.journal`)).toEqual(journal);
    expect(readFileSync(path.join(state.XDG_STATE_HOME, 'payctl', 'audit.ndjson'))).toEqual(audit);
    expect(world.proxy.posts.length).toBe(posts);
    expect((await paidByKey(world.session, 'twin-unknown')).get('twin-unknown@example.com')).toBe(1);

    const settled = await batch(file, ['--allow-duplicate-rows', '--reconcile', '-o', 'json'], state);
    expect(settled.code, settled.stderr).toBe(0);
    const report = JSON.parse(settled.stdout) as Array<{ outcome: string; withdrawalId: string }>;
    expect(report.map((r) => r.outcome).sort()).toEqual(['reconciled', 'sent']);
    expect(new Set(report.map((r) => r.withdrawalId)).size).toBe(2);
    expect((await paidByKey(world.session, 'twin-unknown')).get('twin-unknown@example.com')).toBe(2);
  });
});

describe('when reconcile cannot decide', () => {
  it('an API that sends no Date header: the row stays unknown, is never sent again, and the reason is given', async () => {
    const created = {
      id: '6f1c1d7e-2a43-4d4e-9d8e-0b7a3c2f1e11',
      amount: 4321,
      liquidAmount: 4300,
      status: 'PENDING',
      withdrawalPaymentType: 'PIX',
      pixKeyType: 'EMAIL',
      pixKey: 'nodate@example.com',
      bankAccountId: 7,
      createdAt: '',
      updatedAt: '',
    };
    let listed: unknown[] = [];
    const api = await startFakeApi((request, response) => {
      response.sendDate = false;
      if (answeredBalance(request, response)) return;
      if (request.method === 'POST') {
        created.createdAt = created.updatedAt = new Date().toISOString();
        listed = [created];
        return void response.socket?.destroy();
      }
      sendJson(response, 200, { data: listed, meta: { total: listed.length }, message: 'ok' });
    });
    try {
      const env = { PAYCTL_CONFIG_DIR: tempConfigDir(), PAYCTL_BASE_URL: api.url, PAYCTL_TOKEN: fakeJwt(Math.floor(Date.now() / 1000) + 3600) };
      const file = csvFile('nodate.csv', [PIX_HEADER, '4321,7,email,nodate@example.com']);
      const args = ['withdraw', 'batch', file, '--method', 'pix', '--yes'];
      expect((await runInProcess(args, { env })).code).toBe(5);
      // Twice: for a person (the reason on stderr), then for a script (json: the row on stdout, stderr the JSON error alone).
      const told = await runInProcess([...args, '--reconcile'], { env });
      expect(told.code).toBe(5);
      expect(told.stderr).toContain('the API sent no Date header, so its clock is unknown');
      const reconciled = await runInProcess([...args, '--reconcile', '-o', 'json'], { env });
      expect(reconciled.code).toBe(5);
      expect(JSON.parse(reconciled.stderr)).toMatchObject({ error: { exitCode: 5 } });
      expect(JSON.parse(reconciled.stdout)[0]).toMatchObject({ outcome: 'unknown', error: expect.stringContaining('cannot be settled') });
      expect(api.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
    } finally {
      await api.close();
    }
  });

  it('a list item that could be the row but lacks the fields to tell: the row stays unknown', async () => {
    let listed: unknown[] = [];
    const api = await startFakeApi((request, response) => {
      if (answeredBalance(request, response)) return;
      if (request.method === 'POST') {
        // The API's list gives the withdrawal without its PIX key.
        listed = [
          { id: '6f1c1d7e-2a43-4d4e-9d8e-0b7a3c2f1e12', amount: 4400, withdrawalPaymentType: 'PIX', status: 'PENDING', createdAt: new Date().toISOString() },
        ];
        return void response.socket?.destroy();
      }
      sendJson(response, 200, { data: listed, meta: { total: listed.length }, message: 'ok' });
    });
    try {
      const env = { PAYCTL_CONFIG_DIR: tempConfigDir(), PAYCTL_BASE_URL: api.url, PAYCTL_TOKEN: fakeJwt(Math.floor(Date.now() / 1000) + 3600) };
      const file = csvFile('partial.csv', [PIX_HEADER, '4400,7,email,partial@example.com']);
      const args = ['withdraw', 'batch', file, '--method', 'pix', '--yes'];
      expect((await runInProcess(args, { env })).code).toBe(5);
      const reconciled = await runInProcess([...args, '--reconcile'], { env });
      expect(reconciled.code).toBe(5);
      expect(reconciled.stderr).toContain('may be this row');
      expect(api.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
    } finally {
      await api.close();
    }
  });
});
