import { cpSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, splitReceivers } from '../commands/helpers.js';
import { startCli, tempConfigDir } from '../helpers/cli.js';
import type { SandboxSession } from '../helpers/sandbox.js';
import type { PayctlWorker } from '../helpers/workers.js';
import { waitUntil } from '../team/helpers.js';
import { csvFile, expectPaidOnce, paidByKey, PIX_HEADER, pixKeys, pixRows, sandboxWithdrawals, startProxy, startRacingSandbox, type RacingSandbox } from './helpers.js';

/**
 * Without a team ledger, a batch's twin check and its sending are one step on this machine, as a
 * single withdrawal's are: runs of the same rows started at the same moment, each a payctl process
 * of its own (workers, so that they start together), pay once. Counts are read from the sandbox.
 */
let s: SandboxSession;
let bank: string;
let workers: PayctlWorker[];

let race: RacingSandbox | undefined;

beforeAll(async () => {
  race = await startRacingSandbox(2);
  ({ session: s, bank, workers } = race);
});
afterAll(() => race?.close());

const batch = (file: string) => ['withdraw', 'batch', file, '--method', 'pix', '--yes', '--main-account'];
const pix = (amount: number, key: string) => ['withdraw', 'pix', '--main-account', '--amount', String(amount), '--bank-account', bank, '--pix-key-type', 'email', '--pix-key', key, '--yes'];

/** Another terminal of the same user: a config folder of its own, the base URL spelled its way. */
function operator(host: 'localhost' | '127.0.0.1'): Record<string, string> {
  const configDir = tempConfigDir();
  cpSync(s.configDir, configDir, { recursive: true });
  return { ...s.env, PAYCTL_CONFIG_DIR: configDir, PAYCTL_BASE_URL: `http://${host}:${new URL(s.sandbox.url).port}/` };
}

/** Two commands, one per worker process, started at one instant; resolves once both have ended. */
function runTogether(first: { args: string[]; env: Record<string, string> }, second: { args: string[]; env: Record<string, string> }) {
  const startAt = Date.now() + 50;
  return Promise.all([workers[0]!.run(first.args, { env: first.env, startAt }), workers[1]!.run(second.args, { env: second.env, startAt })]);
}

describe('a batch and another run of its rows started at the same moment, no team ledger', () => {
  it('two copies of one unpaid CSV under two names (two journals, two config folders, localhost and 127.0.0.1): 3 withdrawals, not 6', async () => {
    const lines = [PIX_HEADER, ...pixRows('copies', 3, bank)];
    const dir = tempConfigDir();
    const [a, b] = await runTogether(
      { args: batch(csvFile('payouts.csv', lines, dir)), env: operator('localhost') },
      { args: batch(csvFile('payouts (1).csv', lines, dir)), env: operator('127.0.0.1') },
    );
    expect([a.code, b.code].sort(), `${a.stderr}\n---\n${b.stderr}`).toEqual([0, 2]);
    const second = a.code === 2 ? a : b;
    expect(second.stderr).toContain('3 of 3 rows match withdrawals already on the platform, made in the last 24h (listed above): nothing was sent');
    expect(second.stderr).toMatch(/twin: made .* PIX key copies-0@example.com, \w+, id \S+/);
    await expectPaidOnce(s, 'copies-', pixKeys('copies', 3));
  });

  it('a batch and a single `withdraw pix` of its last row: that row is paid once', async () => {
    // Rows one at a time: the last leaves well after the single has checked and sent, as a long file's would.
    const file = csvFile('payouts.csv', [PIX_HEADER, ...pixRows('mixed', 10, bank)]);
    const [batchRun, singleRun] = await runTogether(
      { args: [...batch(file), '--concurrency', '1'], env: operator('localhost') },
      { args: pix(10_009, 'mixed-9@example.com'), env: operator('127.0.0.1') },
    );
    expect([batchRun.code, singleRun.code].sort(), `${batchRun.stderr}\n---\n${singleRun.stderr}`).toEqual([0, 2]);
    // Whichever took the account first sent; the other found its withdrawal and sent nothing.
    if (batchRun.code === 0) {
      expect(singleRun.stderr).toContain('possible duplicate: the same withdrawal was made in the last 24h in the main account (listed above): nothing was sent');
      await expectPaidOnce(s, 'mixed-', pixKeys('mixed', 10));
    } else {
      expect(batchRun.stderr).toContain('1 of 10 rows match withdrawals already on the platform, made in the last 24h (listed above): nothing was sent');
      await expectPaidOnce(s, 'mixed-', ['mixed-9@example.com']);
    }
  });

  it('two copies of a file paying from the main account and a sub-account, their accounts in opposite orders: each row paid once, no run stuck on the other', async () => {
    const [sub] = await splitReceivers(s);
    const credit = await s.run(['api', 'POST', '/sandbox/balance', '--subaccount', sub!, '--data', JSON.stringify({ pix: 900_000_000 })]);
    expect(credit.code, credit.stderr).toBe(0);
    const subBank = (await json<Array<{ id: number }>>(s, ['bank-accounts', 'list', '--subaccount', sub!]))[0]!.id;
    const mainRows = pixRows('both-main', 2, bank).map((row) => `${row},`);
    const subRows = pixRows('both-sub', 2, subBank).map((row) => `${row},${sub}`);
    const dir = tempConfigDir();
    // Each run locks the accounts in one order whatever the file's: in the file's, each would hold one and wait for the other.
    const [a, b] = await runTogether(
      { args: batch(csvFile('payouts.csv', [`${PIX_HEADER},subaccount`, ...mainRows, ...subRows], dir)), env: operator('localhost') },
      { args: batch(csvFile('payouts (1).csv', [`${PIX_HEADER},subaccount`, ...subRows, ...mainRows], dir)), env: operator('127.0.0.1') },
    );
    expect([a.code, b.code].sort(), `${a.stderr}\n---\n${b.stderr}`).toEqual([0, 2]);
    expect((a.code === 2 ? a : b).stderr).toContain('4 of 4 rows match withdrawals already on the platform');
    await expectPaidOnce(s, 'both-main-', pixKeys('both-main', 2));
    const inSub = (await sandboxWithdrawals(s, sub)).filter((w) => w.pixKey?.startsWith('both-sub-'));
    expect(inSub.map((w) => w.pixKey).sort()).toEqual(pixKeys('both-sub', 2));
  });

  it('a withdrawal started while a batch is sending in its account says it waits, and whom for, then goes on once the batch is done', async () => {
    const proxy = await startProxy(s.sandbox.url);
    try {
      // The batch's only POST waits at the proxy until released: the batch holds the account meanwhile.
      const first = proxy.posts.length;
      let release = () => {};
      const released = new Promise<void>((resolve) => (release = resolve));
      proxy.holdPosts((_, index) => (index === first ? released : undefined));
      const env = { ...s.env, PAYCTL_BASE_URL: proxy.url };
      const running = startCli(batch(csvFile('held.csv', [PIX_HEADER, ...pixRows('held', 1, bank)])), env);
      await waitUntil('the batch is sending', async () => proxy.posts.length > first);
      const single = startCli(pix(10_600, 'waits@example.com'), env);
      await single.waitFor(/waiting up to 30 s for another payctl making a withdrawal in the main account \(pid \d+ on host /);
      expect(proxy.posts.length).toBe(first + 1);
      release();
      const [batchEnd, singleEnd] = await Promise.all([running.done, single.done]);
      expect(batchEnd.code, batchEnd.stderr).toBe(0);
      expect(singleEnd.code, singleEnd.stderr).toBe(0);
      expect((await paidByKey(s, 'held')).get('held-0@example.com')).toBe(1);
      expect((await paidByKey(s, 'waits')).get('waits@example.com')).toBe(1);
    } finally {
      await proxy.close();
    }
  });

  it('a batch killed -9 while sending leaves the account free: a withdrawal started next is sent at once (a dry run meanwhile plans at once)', async () => {
    const proxy = await startProxy(s.sandbox.url);
    try {
      // The batch's first POST never reaches the sandbox: it is killed mid-send, holding the account.
      const first = proxy.posts.length;
      proxy.holdPosts((_, index) => (index === first ? new Promise<void>(() => {}) : undefined));
      const env = { ...s.env, PAYCTL_BASE_URL: proxy.url };
      const running = startCli([...batch(csvFile('killed.csv', [PIX_HEADER, ...pixRows('killed', 3, bank)])), '--concurrency', '1'], env);
      await waitUntil('the batch is sending', async () => proxy.posts.length > first);
      // A dry run takes no lock: it plans at once while the batch holds the account.
      const plan = await s.run([...batch(csvFile('plan.csv', [PIX_HEADER, ...pixRows('plan', 2, bank)])), '--dry-run'], { env });
      expect(plan.code, plan.stderr).toBe(0);
      expect(plan.stderr).not.toContain('another payctl');
      running.child.kill('SIGKILL');
      expect((await running.done).signal).toBe('SIGKILL');
      const next = await s.run(pix(10_500, 'after-kill@example.com'), { env });
      expect(next.code, next.stderr).toBe(0);
      // Taken at once: a live holder is waited for, and the wait is said.
      expect(next.stderr).not.toContain('waiting up to');
      expect((await paidByKey(s, 'after-kill')).get('after-kill@example.com')).toBe(1);
    } finally {
      await proxy.close();
    }
  });
});
