import { cpSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { fileURLToPath } from 'node:url';
import { RUN_DEADLINE_MS, runCli, startCli, tempConfigDir } from '../helpers/cli.js';
import { runInProcess } from '../helpers/in-process.js';
import { startPostgres, type TestPostgres } from '../helpers/postgres.js';
import { sandboxWithdrawals, startSandboxSession, type SandboxSession } from '../helpers/sandbox.js';
import { hasTools, needsTools } from '../helpers/tools.js';
import { startWorkers, type PayctlWorker } from '../helpers/workers.js';
import { csvFile, expectPaidOnce, fundedMainAccount, paidByKey, PIX_HEADER, pixKeys, pixRows, startProxy } from '../money/helpers.js';

/**
 * A finance team on one PostgreSQL ledger: two operators, each with a config folder of
 * their own, reaching the same sandbox account by two spellings of its URL (127.0.0.1 and
 * localhost). Every count is read from the sandbox afterwards, never from payctl.
 */
const it = needsTools('postgresql');
const ROUNDS = 20;

let session: SandboxSession;
let db: TestPostgres;
let bank: string;
let workers: PayctlWorker[];
/** Operator A's environment (127.0.0.1) and operator B's (localhost), both naming the ledger. */
let envA: Record<string, string>;
let envB: Record<string, string>;

beforeAll(async () => {
  if (!hasTools('postgresql')) return;
  db = await startPostgres();
  // Answers take 150 ms, as across a network: runs started together overlap.
  session = await startSandboxSession('acme', { latencyMs: 150 });
  bank = await fundedMainAccount(session);
  envA = { ...session.env, PGPASSWORD: db.password };
  envB = { PAYCTL_CONFIG_DIR: tempConfigDir(), PAYCTL_BASE_URL: session.sandbox.url.replace('127.0.0.1', 'localhost'), PGPASSWORD: db.password };
  const secret = session.sandbox.credentials.find((c) => c.clientId === 'acme')!.clientSecret;
  const login = await runInProcess(['auth', 'login', '--client-id', 'acme', '--client-secret-stdin'], { env: envB, input: `${secret}\n` });
  expect(login.code, login.stderr).toBe(0);
  for (const env of [envA, envB]) {
    const set = await runInProcess(['profiles', 'set', 'default', '--ledger', db.url], { env });
    expect(set.code, set.stderr).toBe(0);
  }
  workers = startWorkers(2);
});
afterAll(async () => {
  await Promise.all(workers?.map((worker) => worker.close()) ?? []);
  await session?.close();
  db?.close();
});

const batchArgs = (file: string, extra: string[] = []) => ['withdraw', 'batch', file, '--method', 'pix', '--yes', '--main-account', ...extra];

/** The same rows at two paths, as two operators keep their copies of one sheet. */
function twoCopies(prefix: string, count: number, firstAmount = 10_000): [string, string] {
  const a = csvFile('payouts.csv', [PIX_HEADER, ...pixRows(prefix, count, bank, firstAmount)]);
  const b = path.join(tempConfigDir(), 'payouts (1).csv');
  cpSync(a, b);
  return [a, b];
}

/** The claims the ledger holds for rows of this file. */
const claimsOf = async (file: string) => Number((await db.query<{ n: string }>('SELECT count(*) AS n FROM payctl_claims WHERE file = $1', [file]))[0]!.n);

async function waitUntil(what: string, check: () => Promise<boolean>): Promise<void> {
  for (const deadline = Date.now() + RUN_DEADLINE_MS; !(await check()); ) {
    if (Date.now() > deadline) throw new Error(`never: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('a team on one ledger', () => {
  it('ledger init runs from two machines at once, twice; ledger status says the version and answers', async () => {
    const inits = await Promise.all([workers[0]!.run(['ledger', 'init'], { env: envA, startAt: Date.now() + 50 }), workers[1]!.run(['ledger', 'init'], { env: envB, startAt: Date.now() + 50 })]);
    for (const init of inits) expect(init.code, init.stderr).toBe(0);
    expect((await runInProcess(['ledger', 'init'], { env: envA })).stderr).toMatch(/nothing to do/);
    const status = await runInProcess(['ledger', 'status', '--json'], { env: envB });
    expect(status.code, status.stderr).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ ledger: db.url, answers: true, schemaVersion: 1, inFlight: [] });
  });

  it(`two operators run the same batch at the same moment, ${ROUNDS} rounds: every row paid once`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const prefix = `together-${round}`;
      const [fileA, fileB] = twoCopies(prefix, 3);
      const startAt = Date.now() + 50;
      const [a, b] = await Promise.all([workers[0]!.run(batchArgs(fileA), { env: envA, startAt }), workers[1]!.run(batchArgs(fileB), { env: envB, startAt })]);
      for (const result of [a, b]) expect([0, 2], result.stderr).toContain(result.code);
      await expectPaidOnce(session, prefix, pixKeys(prefix, 3));
    }
  });

  it('a batch killed while holding claims: the other operator is refused, naming the holder, until --reconcile settles them', async () => {
    const prefix = 'killed';
    const [fileA, fileB] = twoCopies(prefix, 6);
    const running = startCli(batchArgs(fileA, ['--concurrency', '1']), envA);
    await waitUntil('two claims', async () => (await claimsOf(fileA)) >= 2);
    running.child.kill('SIGKILL');
    await running.done;
    const refused = await runInProcess(batchArgs(fileB), { env: envB });
    expect(refused.code, refused.stderr).toBe(2);
    // The first row reached the platform before the kill: the platform check, which comes first, names it as a twin.
    // A row only claimed (sent or not) is refused by the ledger, naming the holder.
    expect(refused.stderr).toMatch(new RegExp(`twin: made .*killed-0@example.com|is claimed by ${os.userInfo().username} on ${os.hostname()} \\(${fileA.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\) since `));
    const reconciled = await runInProcess(batchArgs(fileA, ['--reconcile']), { env: envA });
    expect([0, 2], reconciled.stderr).toContain(reconciled.code);
    const rerun = await runInProcess(batchArgs(fileB), { env: envB });
    expect([0, 2], rerun.stderr).toContain(rerun.code);
    await expectPaidOnce(session, prefix, pixKeys(prefix, 6));
  });

  it('the daily total hit by two operators at once: the sum sent never exceeds it', async () => {
    const day = await db.query<{ total: string }>("SELECT total FROM payctl_daily_totals WHERE day = (now() AT TIME ZONE 'America/Sao_Paulo')::date");
    const today = day.reduce((sum, row) => sum + Number(row.total), 0);
    const room = 45_000;
    // Nothing counts the limit without a ledger, so a profile without one cannot take it.
    const alone = await runInProcess(['profiles', 'set', 'default', '--max-daily-total', '1000'], { env: { PAYCTL_CONFIG_DIR: tempConfigDir() } });
    expect(alone.code).toBe(2);
    expect(alone.stderr).toMatch(/--max-daily-total is counted in the team's ledger/);
    for (const env of [envA, envB]) expect((await runInProcess(['profiles', 'set', 'default', '--max-daily-total', String(today + room)], { env })).code).toBe(0);
    try {
      const fileA = csvFile('a.csv', [PIX_HEADER, ...pixRows('daily-a', 3, bank, 10_000)]);
      const fileB = csvFile('b.csv', [PIX_HEADER, ...pixRows('daily-b', 3, bank, 10_000)]);
      const startAt = Date.now() + 50;
      const results = await Promise.all([workers[0]!.run(batchArgs(fileA), { env: envA, startAt }), workers[1]!.run(batchArgs(fileB), { env: envB, startAt })]);
      expect(results.some((result) => result.code === 2 && /--max-daily-total/.test(result.stderr))).toBe(true);
      const sent = (await sandboxWithdrawals(session)).filter((w) => w.pixKey?.startsWith('daily-')).reduce((sum, w) => sum + w.amount, 0);
      expect(sent).toBeGreaterThan(0);
      expect(sent).toBeLessThanOrEqual(room);
    } finally {
      for (const env of [envA, envB]) await runInProcess(['profiles', 'set', 'default', '--clear-max-daily-total'], { env });
    }
  });

  it('the database stopped mid-batch: exit 4, nothing sent after that; the rerun pays each remaining row once', async () => {
    const prefix = 'stopped';
    const file = csvFile('payouts.csv', [PIX_HEADER, ...pixRows(prefix, 8, bank)]);
    const running = startCli(batchArgs(file, ['--concurrency', '1']), envA);
    await waitUntil('three claims', async () => (await claimsOf(file)) >= 3);
    db.stop();
    const stopped = await running.done;
    expect(stopped.code, stopped.stderr).toBe(4);
    expect(stopped.stderr).toMatch(/ledger .* does not answer/);
    db.start();
    // Every withdrawal made was claimed first: none went out once the ledger was gone.
    const paid = [...(await paidByKey(session, prefix)).values()];
    expect(paid.every((count) => count === 1)).toBe(true);
    expect(paid.length).toBe(await claimsOf(file));
    expect(paid.length).toBeLessThan(8);
    const rerun = await runInProcess(batchArgs(file), { env: envA });
    expect(rerun.code, rerun.stderr).toBe(0);
    await expectPaidOnce(session, prefix, pixKeys(prefix, 8));
  });

  it('the password is never in argv, output, --debug or the audit trail', async () => {
    const refused = await runInProcess(['profiles', 'set', 'default', '--ledger', db.url.replace('ledger@', `ledger:${db.password}@`)], { env: envA });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/carries a password/);
    expect(refused.stdout + refused.stderr).not.toContain(db.password);
    const stateHome = tempConfigDir();
    const env = { ...envA, XDG_STATE_HOME: stateHome };
    const args = ['--debug', 'withdraw', 'pix', '--amount', '777', '--bank-account', bank, '--pix-key-type', 'email', '--pix-key', 'secret-check@example.com', '--yes', '--main-account'];
    const running = startCli(args, env);
    await waitUntil('a claim', async () => (await db.query('SELECT 1 FROM payctl_claims WHERE amount = 777')).length > 0);
    const cmdline = readFileSync(`/proc/${running.child.pid}/cmdline`, 'utf8');
    const done = await running.done;
    expect(done.code, done.stderr).toBe(0);
    expect(cmdline).not.toContain(db.password);
    expect(done.stdout + done.stderr).not.toContain(db.password);
    expect(readFileSync(path.join(stateHome, 'payctl', 'audit.ndjson'), 'utf8')).not.toContain(db.password);
    const team = await runInProcess(['audit', '--team', '--all', '--json'], { env: envB });
    expect(team.code, team.stderr).toBe(0);
    expect(team.stdout).toContain('secret-check@example.com');
    expect(team.stdout).not.toContain(db.password);
    const wrong = await runInProcess(['withdraw', 'pix', '--amount', '778', '--bank-account', bank, '--pix-key-type', 'email', '--pix-key', 'x@example.com', '--yes', '--main-account'], {
      env: { ...envA, PGPASSWORD: 'not-the-password-9' },
    });
    expect(wrong.code).toBe(4);
    expect(wrong.stderr).not.toContain('not-the-password-9');
  });

  it('node-postgres is loaded by the runs that claim, not by balance --json, even with a ledger named', async () => {
    const NODE_OPTIONS = `--require ${fileURLToPath(new URL('./shims/report-pg.cjs', import.meta.url))}`;
    const balance = await runCli(['balance', '--json', '--main-account'], { env: { ...envA, NODE_OPTIONS } });
    expect(balance.code, balance.stderr).toBe(0);
    expect(balance.stderr).toContain('pg loaded: false');
    const pix = ['withdraw', 'pix', '--amount', '779', '--bank-account', bank, '--pix-key-type', 'email', '--pix-key', 'load-check@example.com', '--yes', '--main-account'];
    const withdrawal = await runCli(pix, { env: { ...envA, NODE_OPTIONS } });
    expect(withdrawal.code, withdrawal.stderr).toBe(0);
    expect(withdrawal.stderr).toContain('pg loaded: true');
  });

  it('a single withdrawal whose answer was lost stays claimed, unknown, until withdrawals get settles it', async () => {
    // Both operators reach the account through one proxy, which loses the answer to the first POST.
    const proxy = await startProxy(session.sandbox.url, (_request, postIndex) => (postIndex === 0 ? 'lose-answer' : 'forward'));
    try {
      const pix = ['withdraw', 'pix', '--amount', '781', '--bank-account', bank, '--pix-key-type', 'email', '--pix-key', 'get-check@example.com', '--yes', '--main-account'];
      const lost = await runInProcess(pix, { env: { ...envA, PAYCTL_BASE_URL: proxy.url } });
      expect(lost.code, lost.stderr).toBe(5);
      const claim = () => db.query<{ state: string; withdrawal_id: string | null }>('SELECT state, withdrawal_id FROM payctl_claims WHERE amount = 781');
      expect(await claim()).toEqual([{ state: 'unknown', withdrawal_id: null }]);
      const [made] = (await sandboxWithdrawals(session)).filter((w) => w.pixKey === 'get-check@example.com');
      const get = await runInProcess(['withdrawals', 'get', made!.id, '--main-account'], { env: { ...envB, PAYCTL_BASE_URL: proxy.url.replace('127.0.0.1', 'localhost') } });
      expect(get.code, get.stderr).toBe(0);
      expect(await claim()).toEqual([{ state: 'done', withdrawal_id: made!.id }]);
    } finally {
      await proxy.close();
    }
  });
});
