import { cpSync, existsSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { RUN_DEADLINE_MS, runCli, startCli, tempConfigDir } from '../helpers/cli.js';
import { runInProcess } from '../helpers/in-process.js';
import { sandboxWithdrawals } from '../helpers/sandbox.js';
import { hasTools, needsTools } from '../helpers/tools.js';
import { platformAccount } from '../../src/withdrawal/lock.js';
import { startWorkers, type PayctlWorker } from '../helpers/workers.js';
import { csvFile, expectPaidOnce, paidByKey, PIX_HEADER, pixKeys, pixRows, startProxy } from '../money/helpers.js';
import { batchArgs, batchStoppedByCtrlC, claimsOf, teamOfFile, waitUntil } from './helpers.js';

/**
 * A finance team on one PostgreSQL ledger (test/team/helpers.ts): claims, races between the two
 * operators, twins, limits and the team's audit. The ledger's connection (the server stopped,
 * passwords, SSL, what loads node-postgres) is in ledger-connection.test.ts: two files, so that
 * vitest runs them side by side (each mostly waits on the sandbox's 150 ms answers).
 */
const it = needsTools('postgresql');
const ROUNDS = 20;
/**
 * The rounds of a race run this many at a time, each lane with its own pair of worker processes
 * and each round with its own rows and files: a round mostly waits on the sandbox's 150 ms answers,
 * and twenty of them one after another made this file the suite's longest.
 */
const LANES = 4;

const team = teamOfFile();
let workers: PayctlWorker[];

beforeAll(() => {
  if (hasTools('postgresql')) workers = startWorkers(2 * LANES);
});
afterAll(() => Promise.all(workers?.map((worker) => worker.close()) ?? []));

/** The same rows at two paths, as two operators keep their copies of one sheet. */
function twoCopies(prefix: string, count: number, firstAmount = 10_000): [string, string] {
  const a = csvFile('payouts.csv', [PIX_HEADER, ...pixRows(prefix, count, team.bank, firstAmount)]);
  const b = path.join(tempConfigDir(), 'payouts (1).csv');
  cpSync(a, b);
  return [a, b];
}

describe('a team on one ledger', () => {
  it('ledger init runs from two machines at once, twice; ledger status says the version and answers', async () => {
    const inits = await Promise.all([workers[0]!.run(['ledger', 'init'], { env: team.envA, startAt: Date.now() + 50 }), workers[1]!.run(['ledger', 'init'], { env: team.envB, startAt: Date.now() + 50 })]);
    for (const init of inits) expect(init.code, init.stderr).toBe(0);
    expect((await runInProcess(['ledger', 'init'], { env: team.envA })).stderr).toMatch(/nothing to do/);
    const status = await runInProcess(['ledger', 'status', '--json'], { env: team.envB });
    expect(status.code, status.stderr).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ ledger: team.db.url, answers: true, schemaVersion: 3, inFlight: [] });
  });

  it('ledger init does not wait for a run in progress: its lock is not the lock of run 1', async () => {
    // What a batch holds for as long as it runs: the advisory lock on its run id ("payc", id) in a session of its own.
    const run = new pg.Client({ host: '127.0.0.1', port: team.db.port, user: 'ledger', password: team.db.password, database: 'payctl' });
    await run.connect();
    try {
      await run.query('SELECT pg_advisory_lock($1, $2)', [0x70617963, 1]);
      const init = await runCli(['ledger', 'init'], { env: team.envA });
      expect(init.code, init.stderr).toBe(0);
      expect(init.stderr).toMatch(/nothing to do/);
    } finally {
      await run.end();
    }
  });

  it('a ledger at schema version 1 is refused until ledger init upgrades it, from two machines at once: the index of claims by withdrawal id is made once, claims get their payment', async () => {
    const index = () => team.db.query<{ indexdef: string }>("SELECT indexdef FROM pg_indexes WHERE indexname = 'payctl_claims_withdrawal'");
    expect(await index()).toHaveLength(1);
    // As a ledger made by the payctl before: version 1, without the indexes, with a table of daily totals.
    await team.db.query('DROP INDEX payctl_claims_withdrawal');
    await team.db.query('DROP INDEX payctl_claims_day');
    await team.db.query('CREATE TABLE payctl_daily_totals (account text NOT NULL, day date NOT NULL, total bigint NOT NULL, PRIMARY KEY (account, day))');
    await team.db.query('DROP INDEX payctl_claims_payment');
    await team.db.query('ALTER TABLE payctl_claims DROP COLUMN payment');
    await team.db.query('DELETE FROM payctl_schema WHERE version >= 2');
    // A single withdrawal claimed by that payctl, on an account of its own.
    const [old] = await team.db.query<{ id: string }>("INSERT INTO payctl_runs (username, host, pid) VALUES ('old', 'box', 1) RETURNING id");
    const oldSingle = 'single ["pix",785,1,"older@example.com"]';
    await team.db.query("INSERT INTO payctl_claims (account, identity, amount, day, state, run_id, username, host) VALUES ('http://old.example main', $1, 785, now()::date, 'done', $2, 'old', 'box')", [oldSingle, old!.id]);
    const pix = ['withdraw', 'pix', '--amount', '785', '--bank-account', team.bank, '--pix-key-type', 'email', '--pix-key', 'upgrade-check@example.com', '--yes', '--main-account'];
    const refused = await runInProcess(pix, { env: team.envA });
    expect(refused.code, refused.stderr).toBe(2);
    expect(refused.stderr).toContain('is at schema version 1, this payctl needs 3: nothing was sent');
    expect((await sandboxWithdrawals(team.session)).filter((w) => w.pixKey === 'upgrade-check@example.com')).toHaveLength(0);
    const startAt = Date.now() + 50;
    const inits = await Promise.all([workers[0]!.run(['ledger', 'init'], { env: team.envA, startAt }), workers[1]!.run(['ledger', 'init'], { env: team.envB, startAt })]);
    for (const init of inits) expect(init.code, init.stderr).toBe(0);
    expect(inits.map((init) => init.stderr.includes('schema version 1 → 3')).sort()).toEqual([false, true]);
    expect((await index())[0]!.indexdef).toMatch(/\(account, withdrawal_id\) WHERE \(withdrawal_id IS NOT NULL\)/);
    expect(await team.db.query('SELECT version FROM payctl_schema ORDER BY version')).toEqual([{ version: 1 }, { version: 2 }, { version: 3 }]);
    // The single withdrawal claimed before names its payment as a claim made now does.
    expect(await team.db.query("SELECT payment FROM payctl_claims WHERE account = 'http://old.example main'")).toEqual([{ payment: '["pix",785,1,"older@example.com"]' }]);
    expect(await team.db.query("SELECT to_regclass('payctl_daily_totals') AS found")).toEqual([{ found: null }]);
  });

  it(`two operators run the same batch at the same moment, ${ROUNDS} rounds: every row paid once`, async () => {
    const race = async (round: number, [first, second]: PayctlWorker[]) => {
      const prefix = `together-${round}`;
      const [fileA, fileB] = twoCopies(prefix, 3);
      const startAt = Date.now() + 50;
      const [a, b] = await Promise.all([first!.run(batchArgs(fileA), { env: team.envA, startAt }), second!.run(batchArgs(fileB), { env: team.envB, startAt })]);
      for (const result of [a, b]) expect([0, 2], result.stderr).toContain(result.code);
      await expectPaidOnce(team.session, prefix, pixKeys(prefix, 3));
    };
    await Promise.all(
      Array.from({ length: LANES }, async (_, lane) => {
        for (let round = lane; round < ROUNDS; round += LANES) await race(round, workers.slice(2 * lane, 2 * lane + 2));
      }),
    );
  });

  it('a batch killed while holding claims: the other operator is refused, naming the holder, until --reconcile settles them', async () => {
    const prefix = 'killed';
    const [fileA, fileB] = twoCopies(prefix, 6);
    // Its first POST is held before the platform: the kill finds the run holding claims however late it comes
    // (on a busy machine a run could otherwise pay every row first, and the other operator meet only twins).
    // Both operators go through the proxy: a claim is of the platform account its base URL names.
    const proxy = await startProxy(team.session.sandbox.url);
    proxy.holdPosts(() => new Promise(() => {}));
    const envA = { ...team.envA, PAYCTL_BASE_URL: proxy.url };
    const envB = { ...team.envB, PAYCTL_BASE_URL: proxy.url };
    try {
      const running = startCli(batchArgs(fileA, ['--concurrency', '1']), envA);
      await waitUntil('a POST held', async () => proxy.posts.length >= 1);
      running.child.kill('SIGKILL');
      await running.done;
      proxy.holdPosts(() => undefined);
      const refused = await runInProcess(batchArgs(fileB), { env: envB });
      expect(refused.code, refused.stderr).toBe(2);
      expect(refused.stderr).toMatch(new RegExp(`is claimed by ${os.userInfo().username}@${os.hostname()} \\(file ${fileA.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\) since `));
      // In json modes stderr holds only the JSON error: it lists the rows refused, and by whom.
      const refusedJson = await runInProcess(batchArgs(fileB, ['--json']), { env: envB });
      expect(refusedJson.code, refusedJson.stderr).toBe(2);
      const { message } = (JSON.parse(refusedJson.stderr) as { error: { message: string } }).error;
      expect(message).toMatch(/the team's ledger refused them \(failed   line 2: .*is claimed by /);
      expect(message).not.toContain('(listed above)');
      expect(await sandboxWithdrawals(team.session)).not.toContainEqual(expect.objectContaining({ pixKey: `${prefix}-0@example.com` }));
      const reconciled = await runInProcess(batchArgs(fileA, ['--reconcile']), { env: envA });
      expect([0, 2], reconciled.stderr).toContain(reconciled.code);
      const rerun = await runInProcess(batchArgs(fileB), { env: envB });
      expect([0, 2], rerun.stderr).toContain(rerun.code);
      await expectPaidOnce(team.session, prefix, pixKeys(prefix, 6));
    } finally {
      await proxy.close();
    }
  });

  it('rows are claimed ahead, a group to a commit; a batch killed so leaves them in flight, and its rerun settles those its journal never sent and pays every row once', async () => {
    const prefix = 'ahead';
    const file = csvFile('payouts.csv', [PIX_HEADER, ...pixRows(prefix, 24, team.bank)]);
    // Past the first two answers, the platform's answers are held: the kill finds rows in flight however late it
    // comes (a test slowed by a busy machine once saw a run that had paid all 24 rows, none left in flight).
    // Every run goes through the proxy: the journal remembers its base URL.
    const proxy = await startProxy(team.session.sandbox.url);
    proxy.holdAnswers((_, index) => (index >= 2 ? new Promise(() => {}) : undefined));
    const env = { ...team.envA, PAYCTL_BASE_URL: proxy.url };
    try {
      const running = startCli(batchArgs(file, ['--concurrency', '4']), env);
      await waitUntil('twelve claims', async () => (await claimsOf(team.db, file)) >= 12);
      running.child.kill('SIGKILL');
      await running.done;
      proxy.holdAnswers(() => undefined);
      // A claim's time is its transaction's start (now()): one transaction per claim would give as many as there are claims.
      const [{ claims, commits }] = await team.db.query<{ claims: string; commits: string }>(
        'SELECT count(*) AS claims, count(DISTINCT claimed_at) AS commits FROM payctl_claims WHERE file = $1',
        [file],
      ) as [{ claims: string; commits: string }];
      expect(Number(commits)).toBeLessThanOrEqual(Number(claims) / 3);
      const status = await runInProcess(['ledger', 'status', '--json'], { env });
      const inFlight = (JSON.parse(status.stdout) as { inFlight: Array<{ file: string; runEnded: boolean }> }).inFlight.filter((claim) => claim.file === file);
      expect(inFlight.length).toBeGreaterThan(0);
      expect(inFlight.every((claim) => claim.runEnded)).toBe(true);
      // Rows sent without an answer recorded are settled from the platform; those claimed and never sent by the journal's account.
      const rerun = await runInProcess(batchArgs(file, ['--reconcile']), { env });
      expect(rerun.code, rerun.stderr).toBe(0);
      await expectPaidOnce(team.session, prefix, pixKeys(prefix, 24));
      expect(await team.db.query("SELECT count(*)::int AS n FROM payctl_claims WHERE file = $1 AND state IN ('claimed', 'unknown')", [file])).toEqual([{ n: 0 }]);
    } finally {
      await proxy.close();
    }
  });

  it('a batch that fails before it sends (the API unreachable) while its ledger is still opening ends, the ledger closed', async () => {
    const file = csvFile('payouts.csv', [PIX_HEADER, ...pixRows('no-api', 1, team.bank)]);
    // The way to the database is held until the batch has failed (its journal's lock released): the ledger opens after that.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const connections: net.Socket[] = [];
    const proxy = net.createServer((socket) => {
      connections.push(socket);
      socket.on('error', () => {});
      void held.then(() => {
        const upstream = net.connect(Number(new URL(team.db.url).port), '127.0.0.1').on('error', () => socket.destroy());
        connections.push(upstream);
        socket.pipe(upstream).pipe(socket);
      });
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const ledger = team.db.url.replace(/:\d+\//, `:${(proxy.address() as net.AddressInfo).port}/`);
    try {
      const running = startCli(batchArgs(file), { ...team.envA, PAYCTL_BASE_URL: 'http://127.0.0.1:9', PAYCTL_LEDGER: ledger });
      await waitUntil('the ledger connecting, then the batch over', async () => connections.length > 0 && !existsSync(`${file}.journal.lock`));
      release();
      // A deadline, not a measure: a ledger opened after the run's end would keep it alive for ever.
      const ended = await Promise.race([running.done, sleep(RUN_DEADLINE_MS, undefined, { ref: false })]);
      running.child.kill('SIGKILL');
      expect(ended, 'payctl never ended').toBeDefined();
      expect([3, 4], ended!.stderr).toContain(ended!.code);
    } finally {
      release();
      for (const socket of connections) socket.destroy();
      proxy.close();
    }
  });

  it("twins are named with the operator and file the ledger knows; --allow-duplicate pays a batch's copy, the ledger letting it past its paid claims", async () => {
    const prefix = 'named';
    const [fileA, fileB] = twoCopies(prefix, 2, 60_000);
    const paid = await runInProcess(batchArgs(fileA), { env: team.envA });
    expect(paid.code, paid.stderr).toBe(0);
    const refused = await runInProcess(batchArgs(fileB), { env: team.envB });
    expect(refused.code, refused.stderr).toBe(2);
    const me = `${os.userInfo().username}@${os.hostname()}`;
    for (const made of (await sandboxWithdrawals(team.session)).filter((w) => w.pixKey?.startsWith(`${prefix}-`))) {
      expect(refused.stderr).toContain(`PIX key ${made.pixKey}, PENDING, id ${made.id}, by ${me} (file ${fileA})\n`);
    }
    await expectPaidOnce(team.session, prefix, pixKeys(prefix, 2));
    const single = ['withdraw', 'pix', '--amount', '60000', '--bank-account', team.bank, '--pix-key-type', 'email', '--pix-key', `${prefix}-0@example.com`, '--yes', '--main-account'];
    const again = await runInProcess(single, { env: team.envB });
    expect(again.code, again.stderr).toBe(2);
    expect(again.stderr).toMatch(new RegExp(`PIX key ${prefix}-0@example.com, PENDING, id [\\w-]+, by ${me.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(file `));
    const allowed = await runInProcess(batchArgs(fileB, ['--allow-duplicate']), { env: team.envB });
    expect(allowed.code, allowed.stderr).toBe(0);
    expect([...(await paidByKey(team.session, prefix)).values()]).toEqual([2, 2]);
  });

  it("a paid claim refuses the same payment for the profile's duplicate window, on the ledger's clock; one in flight refuses it past the window", async () => {
    // Through a proxy whose withdrawals list hides the payment, as a list read just before it
    // was made would: the ledger alone stands between the two.
    const proxy = await startProxy(team.session.sandbox.url);
    const configDir = tempConfigDir();
    cpSync(team.envA.PAYCTL_CONFIG_DIR!, configDir, { recursive: true });
    const env = { ...team.envA, PAYCTL_CONFIG_DIR: configDir, PAYCTL_BASE_URL: proxy.url };
    try {
      expect((await runInProcess(['profiles', 'set', 'default', '--duplicate-window', '1m'], { env })).code).toBe(0);
      const key = 'window@example.com';
      const pix = ['withdraw', 'pix', '--amount', '901', '--bank-account', team.bank, '--pix-key-type', 'email', '--pix-key', key, '--yes', '--main-account'];
      const made = () => sandboxWithdrawals(team.session).then((all) => all.filter((w) => w.pixKey === key).length);
      expect((await runInProcess(pix, { env })).code).toBe(0);
      proxy.rewriteGets((_, body) => body.replaceAll(key, 'someone-else@example.com'));
      const within = await runInProcess(pix, { env });
      expect(within.code, within.stderr).toBe(2);
      expect(within.stderr).toMatch(/this withdrawal of R\$ 9,01 \(901 cents\) was already paid by .* in the team's ledger/);
      expect(await made()).toBe(1);
      await team.db.query("UPDATE payctl_claims SET claimed_at = now() - interval '61 seconds' WHERE amount = 901");
      const past = await runInProcess(pix, { env });
      expect(past.code, past.stderr).toBe(0);
      expect(await made()).toBe(2);
      // The outcome of the last is not known (a run cut off): it holds however old it is.
      await team.db.query("UPDATE payctl_claims SET state = 'unknown', claimed_at = now() - interval '1 hour' WHERE amount = 901 AND claimed_at > now() - interval '1 minute'");
      const unknown = await runInProcess(pix, { env });
      expect(unknown.code, unknown.stderr).toBe(2);
      expect(unknown.stderr).toMatch(/this withdrawal of R\$ 9,01 \(901 cents\) is claimed by .*, outcome unknown, in the team's ledger/);
      expect(await made()).toBe(2);
    } finally {
      await team.db.query("UPDATE payctl_claims SET state = 'done' WHERE amount = 901");
      await proxy.close();
    }
  });

  it("one payment claimed as rows of two files that differ (a reference column) or as a single withdrawal: another operator's claim refuses it; rows of one file sharing a payment are paid", async () => {
    // Operator B's withdrawals list hides the payments, as a list read just before they were made would: the ledger alone stands between.
    // Both reach the platform through the proxy: a claim is of the platform account its base URL names.
    const prefix = 'one-payment';
    const rows = pixRows(prefix, 2, team.bank, 70_000);
    const fileA = csvFile('payouts.csv', [PIX_HEADER, ...rows]);
    const proxy = await startProxy(team.session.sandbox.url);
    const envB = { ...team.envB, PAYCTL_BASE_URL: proxy.url.replace('127.0.0.1', 'localhost') };
    try {
      const paid = await runInProcess(batchArgs(fileA), { env: { ...team.envA, PAYCTL_BASE_URL: proxy.url } });
      expect(paid.code, paid.stderr).toBe(0);
      proxy.rewriteGets((_, body) => body.replaceAll(`${prefix}-`, 'someone-else-'));
      const colleague = csvFile('payouts-nov.csv', [`${PIX_HEADER},reference`, ...rows.map((row, i) => `${row},nov-${i}`)]);
      const refused = await runInProcess(batchArgs(colleague), { env: envB });
      expect(refused.code, refused.stderr).toBe(2);
      expect(refused.stderr).toContain(`this withdrawal of R$ 700,00 (70000 cents) was already paid by ${os.userInfo().username}@${os.hostname()} (file ${fileA}) at `);
      const single = ['withdraw', 'pix', '--amount', '70001', '--bank-account', team.bank, '--pix-key-type', 'email', '--pix-key', `${prefix}-1@example.com`, '--yes', '--main-account'];
      const again = await runInProcess(single, { env: envB });
      expect(again.code, again.stderr).toBe(2);
      expect(again.stderr).toMatch(/this withdrawal of R\$ 700,01 \(70001 cents\) was already paid by .* in the team's ledger/);
      expect(again.stderr).toContain('hint: it is paid: do not send it again, unless it is meant to be paid twice (--allow-duplicate)');
      await expectPaidOnce(team.session, prefix, pixKeys(prefix, 2));

      // Rows of one file told apart by their references are that many payments, on the first run and after a row is added.
      const shared = 'shared-payment@example.com';
      const sharedRow = `71000,${team.bank},email,${shared}`;
      const twice = csvFile('twice.csv', [`${PIX_HEADER},reference`, `${sharedRow},first`, `${sharedRow},second`]);
      expect((await runInProcess(batchArgs(twice), { env: envB })).code).toBe(0);
      writeFileSync(twice, `${PIX_HEADER},reference\n${sharedRow},first\n${sharedRow},second\n${sharedRow},third\n`);
      const third = await runInProcess(batchArgs(twice), { env: envB });
      expect(third.code, third.stderr).toBe(0);
      expect((await sandboxWithdrawals(team.session)).filter((w) => w.pixKey === shared)).toHaveLength(3);
    } finally {
      await proxy.close();
    }
  });

  it('a batch killed with a row of a payment in flight: its rerun sends the same payment\'s other row (another reference), not refused by that claim', async () => {
    const shared = 'killed-sibling@example.com';
    const row = `72000,${team.bank},email,${shared}`;
    const others = pixRows('killed-sibling-other', 3, team.bank, 73_000).map((line) => `${line},other`);
    const file = csvFile('siblings.csv', [`${PIX_HEADER},reference`, `${row},first`, ...others, `${row},second`]);
    // Run by itself (vitest -t), this test finds the ledger as the file's first test leaves it.
    expect((await runInProcess(['ledger', 'init'], { env: team.envA })).code).toBe(0);
    // The first POST never reaches the platform; the kill leaves the first row of unknown outcome and its claim in flight.
    const proxy = await startProxy(team.session.sandbox.url);
    proxy.holdPosts(() => new Promise(() => {}));
    const env = { ...team.envA, PAYCTL_BASE_URL: proxy.url };
    try {
      const running = startCli(batchArgs(file, ['--concurrency', '1']), env);
      await waitUntil('a POST held', async () => proxy.posts.length >= 1);
      running.child.kill('SIGKILL');
      await running.done;
      proxy.holdPosts(() => undefined);
      const inFlight = await team.db.query<{ n: number }>("SELECT count(*)::int AS n FROM payctl_claims WHERE file = $1 AND payment LIKE $2 AND state = 'claimed'", [file, `%${shared}%`]);
      expect(inFlight[0]!.n).toBeGreaterThanOrEqual(1);
      const rerun = await runInProcess(batchArgs(file), { env });
      expect(rerun.stderr).not.toContain('is claimed by');
      expect(rerun.stderr).toMatch(/failed, \d+ unknown/);
      expect(rerun.stderr).toMatch(/ 0 failed,/);
      expect((await sandboxWithdrawals(team.session)).filter((w) => w.pixKey === shared)).toHaveLength(1);
      const reconciled = await runInProcess(batchArgs(file, ['--reconcile']), { env });
      expect(reconciled.code, reconciled.stderr).toBe(0);
      expect((await sandboxWithdrawals(team.session)).filter((w) => w.pixKey === shared)).toHaveLength(2);
    } finally {
      await proxy.close();
    }
  });

  it("a paid row removed from a file, and a row of the same payment added (another reference): the rerun pays the new row, the removed row's claim its own", async () => {
    const shared = 'removed-sibling@example.com';
    const row = `74000,${team.bank},email,${shared}`;
    const file = csvFile('edited.csv', [`${PIX_HEADER},reference`, `${row},first`, `${row},second`]);
    expect((await runInProcess(['ledger', 'init'], { env: team.envA })).code).toBe(0);
    const paid = await runInProcess(batchArgs(file), { env: team.envA });
    expect(paid.code, paid.stderr).toBe(0);
    writeFileSync(file, `${PIX_HEADER},reference\n${row},second\n${row},third\n`);
    const rerun = await runInProcess(batchArgs(file), { env: team.envA });
    expect(rerun.code, rerun.stderr).toBe(0);
    expect((await sandboxWithdrawals(team.session)).filter((w) => w.pixKey === shared)).toHaveLength(3);
  });

  it('the daily total hit by two operators at once: the sum sent never exceeds it', async () => {
    // Today's total so far: the claims of this account (the limit is an account's) that may have paid (not refused,
    // not absent). Other tests reach the sandbox through proxies: to the ledger, other accounts.
    const day = await team.db.query<{ total: string }>(
      "SELECT coalesce(sum(amount), 0) AS total FROM payctl_claims WHERE account = $1 AND day = (now() AT TIME ZONE 'America/Sao_Paulo')::date AND state IN ('claimed', 'unknown', 'done')",
      [platformAccount(team.session.sandbox.url, undefined)],
    );
    const today = Number(day[0]!.total);
    const room = 45_000;
    // Nothing counts the limit without a ledger, so a profile without one cannot take it.
    const alone = await runInProcess(['profiles', 'set', 'default', '--max-daily-total', '1000'], { env: { PAYCTL_CONFIG_DIR: tempConfigDir() } });
    expect(alone.code).toBe(2);
    expect(alone.stderr).toMatch(/--max-daily-total is counted in the team's ledger/);
    for (const env of [team.envA, team.envB]) expect((await runInProcess(['profiles', 'set', 'default', '--max-daily-total', String(today + room)], { env })).code).toBe(0);
    try {
      const fileA = csvFile('a.csv', [PIX_HEADER, ...pixRows('daily-a', 3, team.bank, 10_000)]);
      const fileB = csvFile('b.csv', [PIX_HEADER, ...pixRows('daily-b', 3, team.bank, 10_000)]);
      const startAt = Date.now() + 50;
      const results = await Promise.all([
        workers[0]!.run(batchArgs(fileA), { env: team.envA, startAt }),
        workers[1]!.run(batchArgs(fileB), { env: team.envB, startAt }),
      ]);
      expect(results.some((result) => result.code === 2 && /--max-daily-total/.test(result.stderr))).toBe(true);
      const sent = (await sandboxWithdrawals(team.session)).filter((w) => w.pixKey?.startsWith('daily-')).reduce((sum, w) => sum + w.amount, 0);
      expect(sent).toBeGreaterThan(0);
      expect(sent).toBeLessThanOrEqual(room);
    } finally {
      for (const env of [team.envA, team.envB]) await runInProcess(['profiles', 'set', 'default', '--clear-max-daily-total'], { env });
    }
  });

  it('api writing to the withdrawal route is claimed: it counts towards --max-daily-total, above it nothing is sent; a body whose amount is not a number is refused', async () => {
    const account = platformAccount(team.session.sandbox.url, undefined);
    const day = await team.db.query<{ total: string }>(
      "SELECT coalesce(sum(amount), 0) AS total FROM payctl_claims WHERE account = $1 AND day = (now() AT TIME ZONE 'America/Sao_Paulo')::date AND state IN ('claimed', 'unknown', 'done')",
      [account],
    );
    expect((await runInProcess(['profiles', 'set', 'default', '--max-daily-total', String(Number(day[0]!.total) + 1000)], { env: team.envA })).code).toBe(0);
    const key = 'api-daily@example.com';
    const api = (amount: unknown) => {
      const body = path.join(tempConfigDir(), 'body.json');
      writeFileSync(body, JSON.stringify({ withdrawalMethod: 'pix', amount, bankAccountId: Number(team.bank), pixKeyType: 'EMAIL', pixKey: key }));
      return runInProcess(['api', 'POST', '/withdrawals/withdraw', '--main-account', '--data', `@${body}`], { env: team.envA });
    };
    const paid = () => sandboxWithdrawals(team.session).then((all) => all.filter((w) => w.pixKey === key).map((w) => w.amount));
    try {
      const above = await api(50_000);
      expect(above.code, above.stderr).toBe(2);
      expect(above.stderr).toMatch(/would take today's total of the team's withdrawals from this account to .*, above the profile's --max-daily-total/);
      expect(await paid()).toEqual([]);
      const within = await api(600);
      expect(within.code, within.stderr).toBe(0);
      const made = JSON.parse(within.stdout) as { id: string };
      expect(await team.db.query('SELECT state, withdrawal_id FROM payctl_claims WHERE account = $1 AND amount = 600', [account])).toEqual([{ state: 'done', withdrawal_id: made.id }]);
      // What api sent counts: a single withdrawal that would pass the total with it is refused.
      const single = await runInProcess(['withdraw', 'pix', '--amount', '500', '--bank-account', team.bank, '--pix-key-type', 'email', '--pix-key', key, '--yes', '--main-account'], { env: team.envA });
      expect(single.code, single.stderr).toBe(2);
      expect(single.stderr).toMatch(/--max-daily-total/);
      const unreadable = await api('600');
      expect(unreadable.code, unreadable.stderr).toBe(2);
      expect(unreadable.stderr).toContain(`a withdrawal's amount must be a positive whole number of cents to be claimed in the team's ledger ${team.db.url}, and --data's amount is "600"`);
      // One below a cent would lower the day's total were its answer lost; a missing body is named as such.
      const negative = await api(-50_000);
      expect(negative.code, negative.stderr).toBe(2);
      expect(negative.stderr).toContain("--data's amount is -50000: nothing was sent");
      const noBody = await runInProcess(['api', 'POST', '/withdrawals/withdraw', '--main-account'], { env: team.envA });
      expect(noBody.code, noBody.stderr).toBe(2);
      expect(noBody.stderr).toContain('and no body was given (--data): nothing was sent');
      expect(await paid()).toEqual([600]);
    } finally {
      await runInProcess(['profiles', 'set', 'default', '--clear-max-daily-total'], { env: team.envA });
    }
  });

  it("a row's audit intent is committed with its claim, before its POST; the team's trail holds one write per row, done, and none for a row held by another's claim", async () => {
    const prefix = 'one-commit';
    const [fileA, fileB] = twoCopies(prefix, 3, 20_000);
    const proxy = await startProxy(team.session.sandbox.url);
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    proxy.holdPosts(() => held);
    try {
      const running = startCli(batchArgs(fileA), { ...team.envA, PAYCTL_BASE_URL: proxy.url });
      await waitUntil('three requests', async () => proxy.posts.length === 3);
      // While the POSTs are held no claim is settled yet: each row's intent was written by its claim's transaction.
      const together = await team.db.query<{ amount: string }>(
        `SELECT c.amount FROM payctl_claims c JOIN payctl_audit a ON a.xmin = c.xmin
         WHERE c.file = $1 AND a.record->>'type' = 'intent' AND a.record->'body'->>'amount' = c.amount::text ORDER BY c.amount`,
        [fileA],
      );
      expect(together.map((row) => Number(row.amount))).toEqual([20_000, 20_001, 20_002]);
      // The other operator's copy, through the same API, is refused by the held claims, nothing of it in the team's trail.
      const refused = await runInProcess(batchArgs(fileB), { env: { ...team.envB, PAYCTL_BASE_URL: proxy.url.replace('127.0.0.1', 'localhost') } });
      expect(refused.code, refused.stderr).toBe(2);
      expect(refused.stderr).toMatch(/is claimed by /);
      release();
      const done = await running.done;
      expect(done.code, done.stderr).toBe(0);
    } finally {
      release();
      await proxy.close();
    }
    await expectPaidOnce(team.session, prefix, pixKeys(prefix, 3));
    const teamAudit = await runInProcess(['audit', '--team', '--all', '--json'], { env: team.envB });
    expect(teamAudit.code, teamAudit.stderr).toBe(0);
    const writes = (JSON.parse(teamAudit.stdout) as Array<{ body: { pixKey?: string }; outcome: string; resourceId: string | null }>).filter((entry) => entry.body?.pixKey?.startsWith(`${prefix}-`));
    const made = (await sandboxWithdrawals(team.session)).filter((w) => w.pixKey?.startsWith(`${prefix}-`));
    expect(writes.map((entry) => [entry.outcome, entry.resourceId]).sort()).toEqual(made.map((w) => ['done', w.id]).sort());
  });

  it("a batch stopped by Ctrl-C: the team's trail and the local one show each row done or not sent, none of unknown outcome, and the rerun pays every row once", async () => {
    const prefix = 'stopped';
    const file = csvFile('payouts.csv', [PIX_HEADER, ...pixRows(prefix, 12, team.bank)]);
    const proxy = await startProxy(team.session.sandbox.url);
    try {
      const stopped = await batchStoppedByCtrlC(proxy, 'holdPosts', batchArgs(file, ['--concurrency', '2']), { ...team.envA, PAYCTL_BASE_URL: proxy.url }, 2);
      expect(stopped.code, stopped.stderr).toBe(130);
      // Rows claimed ahead (their intents committed with their claims) and rows whose intents were written ahead locally.
      for (const args of [['audit', '--team', '--all', '--json'], ['audit', '--all', '--json']]) {
        const audit = await runInProcess(args, { env: team.envA });
        expect(audit.code, audit.stderr).toBe(0);
        const outcomes = (JSON.parse(audit.stdout) as Array<{ body: { pixKey?: string }; outcome: string }>)
          .filter((entry) => entry.body?.pixKey?.startsWith(`${prefix}-`))
          .map((entry) => entry.outcome);
        expect(outcomes.filter((outcome) => outcome === 'done'), args.join(' ')).toHaveLength(2);
        expect(outcomes.filter((outcome) => outcome === 'not sent').length, args.join(' ')).toBeGreaterThanOrEqual(2);
        expect(outcomes.filter((outcome) => outcome !== 'done' && outcome !== 'not sent'), args.join(' ')).toEqual([]);
      }
      const rerun = await runInProcess(batchArgs(file), { env: { ...team.envA, PAYCTL_BASE_URL: proxy.url } });
      expect(rerun.code, rerun.stderr).toBe(0);
    } finally {
      await proxy.close();
    }
    await expectPaidOnce(team.session, prefix, pixKeys(prefix, 12));
  });

  it('a batch whose process has exited left every settlement in the ledger: each claim done with its withdrawal, each audit outcome with it', async () => {
    const prefix = 'settled-at-exit';
    const file = csvFile('payouts.csv', [PIX_HEADER, ...pixRows(prefix, 30, team.bank)]);
    // A process: its end does not wait for the ledger's connections to close.
    const run = await runCli(batchArgs(file, ['--concurrency', '8']), { env: team.envA });
    expect(run.code, run.stderr).toBe(0);
    await expectPaidOnce(team.session, prefix, pixKeys(prefix, 30));
    const made = new Map((await sandboxWithdrawals(team.session)).flatMap((w) => (w.pixKey?.startsWith(`${prefix}-`) ? [[w.pixKey, w.id] as const] : [])));
    const claims = await team.db.query<{ state: string; withdrawal_id: string | null }>('SELECT state, withdrawal_id FROM payctl_claims WHERE file = $1', [file]);
    expect(claims.map((claim) => [claim.state, claim.withdrawal_id]).sort()).toEqual([...made.values()].map((id) => ['done', id]).sort());
    const outcomes = await team.db.query<{ key: string; id: string | null }>(
      `SELECT i.record->'body'->>'pixKey' AS key, o.record->>'resourceId' AS id FROM payctl_audit i
       JOIN payctl_audit o ON o.record->>'id' = i.record->>'id' AND o.record->>'type' = 'outcome'
       WHERE i.record->>'type' = 'intent' AND i.record->'body'->>'pixKey' LIKE $1`,
      [`${prefix}-%`],
    );
    expect(outcomes.map((outcome) => [outcome.key, outcome.id]).sort()).toEqual([...made].sort());
  });

  it("a held claim names its holder as USER@HOST and since when in the user's time zone, as the tables print times", async () => {
    const key = 'tokyo-check@example.com';
    const pix = ['withdraw', 'pix', '--amount', '784', '--bank-account', team.bank, '--pix-key-type', 'email', '--pix-key', key, '--yes', '--main-account'];
    // A run killed while its POST is held before the platform: only the ledger knows of it, claimed by a run that ended.
    // Both operators go through the proxy: the account is named after the origin reached.
    const proxy = await startProxy(team.session.sandbox.url);
    proxy.holdPosts(() => new Promise(() => {}));
    try {
      const running = startCli(pix, { ...team.envA, PAYCTL_BASE_URL: proxy.url });
      await waitUntil('the POST at the proxy', async () => proxy.posts.length > 0);
      running.child.kill('SIGKILL');
      await running.done;
      // 03:04 UTC is 12:04 in Tokyo (UTC+9, no daylight saving time).
      await team.db.query("UPDATE payctl_claims SET claimed_at = '2026-11-26T03:04:05Z' WHERE amount = 784");
      const held = await runCli(pix, { env: { ...team.envB, PAYCTL_BASE_URL: proxy.url.replace('127.0.0.1', 'localhost'), TZ: 'Asia/Tokyo' } });
      expect(held.code, held.stderr).toBe(2);
      expect(held.stderr).toContain(`is claimed by ${os.userInfo().username}@${os.hostname()} since 2026-11-26 12:04, in the team's ledger`);
      expect(proxy.posts).toHaveLength(1);
      expect((await sandboxWithdrawals(team.session)).filter((w) => w.pixKey === key)).toHaveLength(0);
    } finally {
      await team.db.query("UPDATE payctl_claims SET state = 'absent' WHERE amount = 784");
      await proxy.close();
    }
  });

  it('a single withdrawal whose answer was lost stays claimed, unknown, until withdrawals get settles it', async () => {
    // Both operators reach the account through one proxy, which loses the answer to the first POST.
    const proxy = await startProxy(team.session.sandbox.url, (_request, postIndex) => (postIndex === 0 ? 'lose-answer' : 'forward'));
    try {
      const pix = ['withdraw', 'pix', '--amount', '781', '--bank-account', team.bank, '--pix-key-type', 'email', '--pix-key', 'get-check@example.com', '--yes', '--main-account'];
      const lost = await runInProcess(pix, { env: { ...team.envA, PAYCTL_BASE_URL: proxy.url } });
      expect(lost.code, lost.stderr).toBe(5);
      const claim = () => team.db.query<{ state: string; withdrawal_id: string | null }>('SELECT state, withdrawal_id FROM payctl_claims WHERE amount = 781');
      expect(await claim()).toEqual([{ state: 'unknown', withdrawal_id: null }]);
      const [made] = (await sandboxWithdrawals(team.session)).filter((w) => w.pixKey === 'get-check@example.com');
      const get = await runInProcess(['withdrawals', 'get', made!.id, '--main-account'], { env: { ...team.envB, PAYCTL_BASE_URL: proxy.url.replace('127.0.0.1', 'localhost') } });
      expect(get.code, get.stderr).toBe(0);
      expect(await claim()).toEqual([{ state: 'done', withdrawal_id: made!.id }]);
    } finally {
      await proxy.close();
    }
  });
});
