import { copyFileSync, cpSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempConfigDir } from '../helpers/cli.js';
import { serveOnLoopback } from '../helpers/fake-api.js';
import { startSandboxSession, type SandboxSession } from '../helpers/sandbox.js';
import { startWorkers, type PayctlWorker } from '../helpers/workers.js';
import { colleagueWithdraws, csvFile, expectPaidOnce, fundedMainAccount, paidByKey, PIX_HEADER, pixKeys, pixRows, sandboxWithdrawals } from './helpers.js';

/**
 * Money moves once across a team: every withdrawal is compared with the account's
 * withdrawals on the platform, and locks are named after the platform account, so
 * copies of a file, other config folders and other spellings of the base URL meet.
 * Every count is read from the sandbox. Runs are in the test process (session.run) unless
 * a test needs processes: a time zone, two operators racing.
 */
let s: SandboxSession;
let bank: string;

beforeAll(async () => {
  s = await startSandboxSession('acme');
  bank = await fundedMainAccount(s);
});
afterAll(async () => {
  await s?.close();
});

const batch = (file: string, extra: string[] = []) => ['withdraw', 'batch', file, '--method', 'pix', '--yes', '--main-account', ...extra];

/** Another operator: a config folder of their own, logged in to the same account, with the base URL spelled their way. */
function operator(session: SandboxSession, host: 'localhost' | '127.0.0.1'): Record<string, string> {
  const configDir = tempConfigDir();
  cpSync(session.configDir, configDir, { recursive: true });
  return { ...session.env, PAYCTL_CONFIG_DIR: configDir, PAYCTL_BASE_URL: `http://${host}:${new URL(session.sandbox.url).port}/` };
}

describe('a batch is checked against the withdrawals on the platform', () => {
  it('a copy, a re-export and a colleague\'s file of a paid CSV pay nothing again (twins named, exit 2); with --allow-duplicate they are paid', async () => {
    const rows = pixRows('copy', 3, bank, 20_000);
    const first = csvFile('payouts.csv', [`${PIX_HEADER},reference`, ...rows.map((row, i) => `${row},nov-${i}`)]);
    const paid = await s.run(batch(first));
    expect(paid.code, paid.stderr).toBe(0);
    await expectPaidOnce(s, 'copy-', pixKeys('copy', 3));

    const copy = path.join(path.dirname(first), 'payouts (1).csv');
    copyFileSync(first, copy);
    // The same rows with the columns in another order, the lines reversed and no references.
    const reExport = csvFile('payouts-2026-11.csv', [
      'pix_key,amount,pix_key_type,bank_account_id',
      ...rows.reverse().map((row) => {
        const [amount, account, type, key] = row.split(',');
        return `${key},${amount},${type},${account}`;
      }),
    ]);
    const colleague = operator(s, '127.0.0.1');
    const colleagueFile = csvFile('payouts.csv', [PIX_HEADER, ...pixRows('copy', 3, bank, 20_000)]);
    for (const [file, env] of [[copy, s.env], [reExport, s.env], [colleagueFile, colleague]] as const) {
      const again = await s.run(batch(file), { env });
      expect(again.code, again.stderr).toBe(2);
      expect(again.stderr).toContain('3 of 3 rows match withdrawals already on the platform, made in the last 24h (listed above): nothing was sent');
      const first = (await sandboxWithdrawals(s)).find((w) => w.pixKey === 'copy-0@example.com')!;
      expect(again.stderr).toMatch(new RegExp(`twin: made \\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2} \\(local time\\), R\\$ 200,00 by PIX to bank account ${bank}, PIX key copy-0@example.com, \\w+, id ${first.id}`));
      expect(again.stderr).toContain('pass --allow-duplicate to send every row anyway');
      await expectPaidOnce(s, 'copy-', pixKeys('copy', 3));
    }

    const allowed = await s.run(batch(copy, ['--allow-duplicate']));
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(allowed.stderr).toContain('duplicates:   3 of 3 rows match withdrawals already on the platform, made in the last 24h: sent anyway (--allow-duplicate)');
    expect([...(await paidByKey(s, 'copy-')).values()]).toEqual([2, 2, 2]);

    // A rerun of a paid file is not a twin of itself: the journal's rows stay already done.
    const rerun = await s.run(batch(first));
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(rerun.stdout.match(/already-done/g)).toHaveLength(3);
    expect([...(await paidByKey(s, 'copy-')).values()]).toEqual([2, 2, 2]);
  });

  it('two operators (two config folders, two copies at different paths, localhost and 127.0.0.1) one after the other: every row paid once', async () => {
    const lines = [PIX_HEADER, ...pixRows('team', 3, bank, 30_000)];
    const alice = await s.run(batch(csvFile('payouts.csv', lines)), { env: operator(s, 'localhost') });
    expect(alice.code, alice.stderr).toBe(0);
    const bob = await s.run(batch(csvFile('payouts.csv', lines)), { env: operator(s, '127.0.0.1') });
    expect(bob.code, bob.stderr).toBe(2);
    expect(bob.stderr).toContain('3 of 3 rows match withdrawals already on the platform');
    await expectPaidOnce(s, 'team-', pixKeys('team', 3));
  });

  it('the duplicate window is the profile\'s: validated, exit 2 naming the flag', async () => {
    const bad = await s.run(['profiles', 'set', 'default', '--duplicate-window', '3 days']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--duplicate-window "3 days" is invalid: must be a span such as 30m, 24h or 7d (s, m, h, d, w), from 1m to 30d');
    const tooLong = await s.run(['profiles', 'set', 'default', '--duplicate-window', '31d']);
    expect(tooLong.code).toBe(2);
    expect(tooLong.stderr).toContain('--duplicate-window "31d" is invalid');
  });
});

describe('a batch journal belongs to a platform account, not to a spelling of its URL', () => {
  it('a rerun through localhost of a batch paid through 127.0.0.1 uses its journal: paid rows skipped, an added row paid; another origin is refused', async () => {
    const rows = pixRows('spelled', 3, bank, 50_000);
    const file = csvFile('payouts.csv', [PIX_HEADER, ...rows.slice(0, 2)]);
    const first = await s.run(batch(file));
    expect(first.code, first.stderr).toBe(0);
    const localhost = { PAYCTL_BASE_URL: `http://localhost:${new URL(s.sandbox.url).port}/` };
    writeFileSync(file, `${[PIX_HEADER, ...rows].join('\n')}\n`);
    const rerun = await s.run(batch(file), { env: localhost });
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(rerun.stdout.match(/already-done/g)).toHaveLength(2);
    await expectPaidOnce(s, 'spelled-', pixKeys('spelled', 3));

    // 127.0.0.2 is this machine too, but another origin: another platform, as far as anyone can tell.
    const elsewhere = await s.run(batch(file), { env: { PAYCTL_BASE_URL: s.sandbox.url.replace('127.0.0.1', '127.0.0.2') } });
    expect(elsewhere.code, elsewhere.stderr).toBe(2);
    expect(elsewhere.stderr).toContain(`belongs to a pix batch against ${s.sandbox.url}`);
    await expectPaidOnce(s, 'spelled-', pixKeys('spelled', 3));
  });
});

describe('two single withdrawals raced through two config folders and two spellings of the base URL', () => {
  /**
   * The rounds run in four lanes side by side, each on a platform of its own (a sandbox: the guard's
   * lock is the account's, so lanes on one account would take turns) with its own pair of worker
   * processes: a round mostly waits on the 150 ms answers, and 20 one after another took 26 s.
   */
  const LANES = 4;
  let lanes: Array<{ session: SandboxSession; bank: string; workers: PayctlWorker[] }> = [];
  beforeAll(async () => {
    lanes = await Promise.all(
      Array.from({ length: LANES }, async () => {
        const session = await startSandboxSession('acme', { latencyMs: 150 });
        return { session, bank: await fundedMainAccount(session), workers: startWorkers(2) };
      }),
    );
  });
  afterAll(async () => {
    await Promise.all(lanes.flatMap(({ session, workers }) => [session.close(), ...workers.map((worker) => worker.close())]));
  });

  it('20 rounds at 150 ms latency: exactly one payment a round', async () => {
    const lane = async ({ session, bank: laneBank, workers }: (typeof lanes)[number], first: number) => {
      const envs = [operator(session, 'localhost'), operator(session, '127.0.0.1')];
      for (let round = first; round < 20; round += LANES) {
        const amount = 40_000 + round;
        const args = ['withdraw', 'pix', '--main-account', '--amount', String(amount), '--bank-account', laneBank, '--pix-key-type', 'email', '--pix-key', 'raced@example.com', '--yes'];
        const startAt = Date.now() + 50;
        const results = await Promise.all(workers.map((worker, i) => worker.run(args, { env: envs[i]!, startAt })));
        expect(results.map((r) => r.code).sort(), `round ${round}:\n${results.map((r) => r.stderr).join('\n---\n')}`).toEqual([0, 2]);
        expect(results.find((r) => r.code === 2)!.stderr).toContain('possible duplicate: the same withdrawal was made in the last 24h in the main account (listed above): nothing was sent');
        const paid = (await sandboxWithdrawals(session)).filter((w) => w.pixKey === 'raced@example.com' && w.amount === amount);
        expect(paid, `round ${round}`).toHaveLength(1);
      }
    };
    await Promise.all(lanes.map((each, first) => lane(each, first)));
  });
});

describe('times without a zone are UTC, whatever TZ is', () => {
  let proxy: { url: string; close(): Promise<void> };
  beforeAll(async () => {
    // Every `createdAt` without its zone, as some APIs write UTC.
    proxy = await rewritingProxy(s.sandbox.url, (body) => body.replace(/("createdAt":"[^"]*?)Z"/g, '$1"'));
  });
  afterAll(async () => {
    await proxy?.close();
  });

  it('TZ=Asia/Tokyo, a 1h window and an API answering 2026-11-26T13:47:48.288: the repeat of a single withdrawal is refused', async () => {
    const env = { ...s.env, PAYCTL_CONFIG_DIR: tempConfigDir(), PAYCTL_BASE_URL: proxy.url, TZ: 'Asia/Tokyo' };
    cpSync(s.configDir, env.PAYCTL_CONFIG_DIR, { recursive: true });
    const set = await s.run(['profiles', 'set', 'default', '--duplicate-window', '1h'], { env });
    expect(set.code, set.stderr).toBe(0);
    const args = ['withdraw', 'pix', '--main-account', '--amount', '12345', '--bank-account', bank, '--pix-key-type', 'email', '--pix-key', 'tokyo@example.com', '--yes'];
    // Processes: TZ is the process's own, and a run in the test process would keep the test's zone.
    const first = await s.runProcess(args, { env });
    expect(first.code, first.stderr).toBe(0);
    const again = await s.runProcess(args, { env });
    expect(again.code, again.stderr).toBe(2);
    const made = (await sandboxWithdrawals(s)).filter((w) => w.pixKey === 'tokyo@example.com');
    expect(made).toHaveLength(1);
    const tokyo = new Date(made[0]!.createdAt).toLocaleString('sv-SE', { timeZone: 'Asia/Tokyo' }).slice(0, 16);
    expect(again.stderr).toContain(`made ${tokyo} (local time), R$ 123,45 by PIX to bank account ${bank}, PIX key tokyo@example.com`);
  });
});

describe('a twin is the same method, amount, bank account and key', () => {
  it('the same PIX key and amount to another bank account is paid; to the same one again, refused', async () => {
    const banks = (await s.run(['bank-accounts', 'list', '--main-account', '--fields', 'id', '-o', 'tsv'])).stdout.trim().split('\n');
    expect(banks.length).toBeGreaterThanOrEqual(2);
    const pix = (account: string) => ['withdraw', 'pix', '--main-account', '--amount', '24680', '--bank-account', account, '--pix-key-type', 'email', '--pix-key', 'two-banks@example.com', '--yes'];
    for (const account of banks.slice(0, 2)) {
      const paid = await s.run(pix(account));
      expect(paid.code, paid.stderr).toBe(0);
    }
    const again = await s.run(pix(banks[0]!));
    expect(again.code, again.stderr).toBe(2);
    expect(again.stderr).toContain(`by PIX to bank account ${banks[0]}, PIX key two-banks@example.com`);
    expect(again.stderr).not.toContain(`to bank account ${banks[1]},`);
    expect((await sandboxWithdrawals(s)).filter((w) => w.pixKey === 'two-banks@example.com').map((w) => w.bankAccountId).sort()).toEqual(banks.slice(0, 2).map(Number).sort());
  });

  it('the same amount to the same bank account by another PIX key is paid', async () => {
    const pix = (key: string) => ['withdraw', 'pix', '--main-account', '--amount', '35791', '--bank-account', bank, '--pix-key-type', 'email', '--pix-key', key, '--yes'];
    for (const key of ['key-a@example.com', 'key-b@example.com']) {
      const paid = await s.run(pix(key));
      expect(paid.code, paid.stderr).toBe(0);
    }
    expect((await sandboxWithdrawals(s)).filter((w) => w.amount === 35_791).map((w) => w.pixKey).sort()).toEqual(['key-a@example.com', 'key-b@example.com']);
  });

  it("a colleague's withdrawal made by another tool, its key spelled otherwise (an e-mail in capitals), is the same key: refused, single or in a batch", async () => {
    await colleagueWithdraws(s, bank, 46_802, 'Spelled.Otherwise@Example.COM');
    const single = await s.run(['withdraw', 'pix', '--main-account', '--amount', '46802', '--bank-account', bank, '--pix-key-type', 'email', '--pix-key', 'spelled.otherwise@example.com', '--yes']);
    expect(single.code, single.stderr).toBe(2);
    expect(single.stderr).toContain('PIX key Spelled.Otherwise@Example.COM');
    const file = csvFile('payouts.csv', [PIX_HEADER, `46802,${bank},email,spelled.OTHERWISE@example.com`]);
    const inBatch = await s.run(batch(file));
    expect(inBatch.code, inBatch.stderr).toBe(2);
    expect(inBatch.stderr).toContain('1 of 1 rows match withdrawals already on the platform');
    expect((await sandboxWithdrawals(s)).filter((w) => w.amount === 46_802)).toHaveLength(1);
  });
});

describe('a listed withdrawal payctl cannot fully read', () => {
  it('without its withdrawalPaymentType, it still stops the same withdrawal (exit 2, nothing sent)', async () => {
    const args = ['withdraw', 'card', '--main-account', '--amount', '13579', '--bank-account', bank, '--yes'];
    const first = await s.run(args);
    expect(first.code, first.stderr).toBe(0);
    const proxy = await rewritingProxy(s.sandbox.url, (body) => body.replace(/"withdrawalPaymentType":"[A-Z]+",?/g, ''));
    try {
      const again = await s.run(args, { env: { PAYCTL_BASE_URL: proxy.url } });
      expect(again.code, again.stderr).toBe(2);
      expect(again.stderr).toMatch(/^ {2}made .* R\$ 135,79 by unknown to bank account \d+, \w+, id /m);
    } finally {
      await proxy.close();
    }
    expect((await sandboxWithdrawals(s)).filter((w) => w.amount === 13_579)).toHaveLength(1);
  });
  it('without its createdAt, it counts as in the window and still stops the same withdrawal (exit 2, nothing sent)', async () => {
    const args = ['withdraw', 'card', '--main-account', '--amount', '24579', '--bank-account', bank, '--yes'];
    const first = await s.run(args);
    expect(first.code, first.stderr).toBe(0);
    const proxy = await rewritingProxy(s.sandbox.url, (body) => body.replace(/"createdAt":/g, '"madeAt":'));
    try {
      const again = await s.run(args, { env: { PAYCTL_BASE_URL: proxy.url } });
      expect(again.code, again.stderr).toBe(2);
      expect(again.stderr).toMatch(/^ {2}made unknown \(local time\), R\$ 245,79 by CARD to bank account \d+, \w+, id /m);
    } finally {
      await proxy.close();
    }
    expect((await sandboxWithdrawals(s)).filter((w) => w.amount === 24_579)).toHaveLength(1);
  });
  it('in a batch, withdrawals without their withdrawalPaymentType still stop their rows, and only theirs (exit 2, nothing sent)', async () => {
    const rows = pixRows('unread', 3, bank, 31_000);
    const paid = await s.run(batch(csvFile('payouts.csv', [PIX_HEADER, ...rows])));
    expect(paid.code, paid.stderr).toBe(0);
    const proxy = await rewritingProxy(s.sandbox.url, (body) => body.replace(/"withdrawalPaymentType":"[A-Z]+",?/g, ''));
    try {
      const again = await s.run(batch(csvFile('payouts.csv', [PIX_HEADER, ...rows, ...pixRows('unread-new', 1, bank, 31_000)])), { env: { PAYCTL_BASE_URL: proxy.url } });
      expect(again.code, again.stderr).toBe(2);
      expect(again.stderr).toContain('3 of 4 rows match withdrawals already on the platform');
      expect(again.stderr).toMatch(/twin: made .* R\$ 310,00 by unknown to bank account \d+, PIX key unread-0@example.com, /);
    } finally {
      await proxy.close();
    }
    // unread-new-0 included: nothing else of the prefix was paid.
    await expectPaidOnce(s, 'unread-', pixKeys('unread', 3));
  });
});

/** A proxy in front of the sandbox whose answers' bodies pass through `rewrite`. */
async function rewritingProxy(target: string, rewrite: (body: string) => string) {
  const server = await serveOnLoopback((request, req, res) => {
    const upstream = http.request(`${target}${request.url}`, { method: request.method, headers: { ...request.headers, host: new URL(target).host } }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const body = rewrite(text);
        const headers = { ...answer.headers, 'content-length': String(Buffer.byteLength(body)) };
        res.writeHead(answer.statusCode ?? 502, headers);
        res.end(body);
      });
    });
    upstream.on('error', () => req.socket.destroy());
    upstream.end(request.body);
  });
  return { url: `http://127.0.0.1:${server.port}`, close: server.close };
}
