import { spawnSync } from 'node:child_process';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect } from 'vitest';
import { runCli, startCli, tempConfigDir, type RunResult } from '../helpers/cli.js';
import { runInProcess } from '../helpers/in-process.js';
import { startPostgres } from '../helpers/postgres.js';
import { startSecretService } from '../helpers/secret-service.js';
import { sandboxWithdrawals } from '../helpers/sandbox.js';
import { needsTools } from '../helpers/tools.js';
import { csvFile, expectPaidOnce, paidByKey, PIX_HEADER, pixKeys, pixRows, startProxy } from '../money/helpers.js';
import { batchArgs, claimsOf, teamOfFile, waitUntil } from './helpers.js';

/**
 * A team ledger's connection (test/team/helpers.ts): the server stopped mid-batch, the password
 * kept out of sight and read from its sources, SSL modes, and which runs load node-postgres.
 */
const it = needsTools('postgresql');
const keychainIt = needsTools('postgresql', 'dbus-daemon', 'dbus-send', 'gnome-keyring-daemon', 'secret-tool');

const team = teamOfFile({ initialized: true });


describe('a team ledger\'s connection', () => {
  it('the database stopped mid-batch: exit 4, nothing sent after that; the claim left in flight is listed, never taken over; the rerun pays each remaining row once', async () => {
    const prefix = 'stopped';
    const file = csvFile('payouts.csv', [PIX_HEADER, ...pixRows(prefix, 8, team.bank)]);
    // The fourth row's request is held until the database is down: its claim cannot be settled.
    const proxy = await startProxy(team.session.sandbox.url);
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    proxy.holdPosts((_, index) => (index === 3 ? held : undefined));
    const env = { ...team.envA, PAYCTL_BASE_URL: proxy.url };
    try {
      const running = startCli(batchArgs(file, ['--concurrency', '1']), env);
      await waitUntil('the fourth request', async () => proxy.posts.length === 4);
      await team.db.stop();
      release();
      const stopped = await running.done;
      expect(stopped.code, stopped.stderr).toBe(4);
      expect(stopped.stderr).toMatch(/ledger .* does not answer/);
      await team.db.start();
      // Every withdrawal made was claimed first: none went out once the ledger was gone, not even a row claimed ahead.
      expect([...(await paidByKey(team.session, prefix)).values()]).toEqual([1, 1, 1, 1]);
      expect(await claimsOf(team.db, file)).toBeGreaterThan(4);
      const inFlight = async () => {
        const status = await runInProcess(['ledger', 'status', '--json'], { env: team.envB });
        expect(status.code, status.stderr).toBe(0);
        return (JSON.parse(status.stdout) as { inFlight: Array<Record<string, unknown>> }).inFlight.filter((claim) => claim.file === file);
      };
      const left = [{ amount: 10_003, state: 'claimed', runEnded: true, user: os.userInfo().username, host: os.hostname() }];
      // With the rows claimed ahead and never sent, which the rerun settles: its journal shows them not sent.
      expect(await inFlight()).toEqual(expect.arrayContaining([expect.objectContaining(left[0])]));
      expect((await inFlight()).length).toBeGreaterThan(1);
      const rerun = await runInProcess(batchArgs(file), { env });
      expect(rerun.code, rerun.stderr).toBe(0);
      await expectPaidOnce(team.session, prefix, pixKeys(prefix, 8));
      // The rerun skips the rows its journal has paid and leaves their claims alone: the fourth row's, and an earlier
      // row's whose settlement, committed behind its row, the stop cut off. --reconcile settles them with the journal's withdrawals.
      const afterRerun = await inFlight();
      expect(afterRerun).toEqual(expect.arrayContaining([expect.objectContaining(left[0])]));
      for (const claim of afterRerun) expect(claim).toMatchObject({ state: 'claimed', runEnded: true, amount: expect.toSatisfy((amount: number) => amount <= 10_003) });
      const reconciled = await runInProcess(batchArgs(file, ['--reconcile']), { env });
      expect(reconciled.code, reconciled.stderr).toBe(0);
      expect(await inFlight()).toEqual([]);
      const [made] = (await sandboxWithdrawals(team.session)).filter((w) => w.pixKey === `${prefix}-3@example.com`);
      expect(await team.db.query('SELECT state, withdrawal_id FROM payctl_claims WHERE file = $1 AND amount = 10003', [file])).toEqual([{ state: 'done', withdrawal_id: made!.id }]);
      await expectPaidOnce(team.session, prefix, pixKeys(prefix, 8));
    } finally {
      release();
      await proxy.close();
    }
  });

  it('the password is never in argv, output, --debug or the audit trail', async () => {
    const refused = await runInProcess(['profiles', 'set', 'default', '--ledger', team.db.url.replace('ledger@', `ledger:${team.db.password}@`)], { env: team.envA });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/carries a password/);
    expect(refused.stdout + refused.stderr).not.toContain(team.db.password);
    // One in a config file edited by hand is refused as well, never shown, and nothing moves.
    const handEdited = tempConfigDir();
    cpSync(team.envA.PAYCTL_CONFIG_DIR!, handEdited, { recursive: true });
    const config = path.join(handEdited, 'config.json');
    writeFileSync(config, readFileSync(config, 'utf8').replace('postgres://ledger@', `postgres://ledger:${team.db.password}@`));
    for (const args of [['ledger', 'status'], ['withdraw', 'pix', '--amount', '776', '--bank-account', team.bank, '--pix-key-type', 'email', '--pix-key', 'hand-edited@example.com', '--yes', '--main-account']]) {
      const run = await runInProcess(args, { env: { ...team.envA, PAYCTL_CONFIG_DIR: handEdited } });
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toContain('the ledger of profile "default" in the config file carries a password');
      expect(run.stdout + run.stderr).not.toContain(team.db.password);
    }
    expect((await sandboxWithdrawals(team.session)).filter((w) => w.pixKey === 'hand-edited@example.com')).toHaveLength(0);
    // The profile is still shown, its ledger's password masked.
    for (const args of [['profiles', 'show'], ['profiles', 'list', '--json']]) {
      const shown = await runInProcess(args, { env: { ...team.envA, PAYCTL_CONFIG_DIR: handEdited } });
      expect(shown.code, shown.stderr).toBe(0);
      expect(shown.stdout).toContain('postgres://ledger:***@127.0.0.1');
      expect(shown.stdout + shown.stderr).not.toContain(team.db.password);
    }
    const stateHome = tempConfigDir();
    const env = { ...team.envA, XDG_STATE_HOME: stateHome };
    const args = ['--debug', 'withdraw', 'pix', '--amount', '777', '--bank-account', team.bank, '--pix-key-type', 'email', '--pix-key', 'secret-check@example.com', '--yes', '--main-account'];
    // The withdrawal's request is held, so payctl is still running, its claim made, when its argv is read.
    const proxy = await startProxy(team.session.sandbox.url);
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    proxy.holdPosts(() => held);
    let cmdline: string;
    let done: RunResult;
    try {
      const running = startCli(args, { ...env, PAYCTL_BASE_URL: proxy.url });
      await waitUntil('the withdrawal\'s request', async () => proxy.posts.length === 1);
      expect((await team.db.query('SELECT 1 FROM payctl_claims WHERE amount = 777')).length).toBe(1);
      cmdline = readFileSync(`/proc/${running.child.pid}/cmdline`, 'utf8');
      release();
      done = await running.done;
    } finally {
      release();
      await proxy.close();
    }
    expect(done.code, done.stderr).toBe(0);
    expect(cmdline).not.toContain(team.db.password);
    expect(done.stdout + done.stderr).not.toContain(team.db.password);
    expect(readFileSync(path.join(stateHome, 'payctl', 'audit.ndjson'), 'utf8')).not.toContain(team.db.password);
    const teamAudit = await runInProcess(['audit', '--team', '--all', '--json'], { env: team.envB });
    expect(teamAudit.code, teamAudit.stderr).toBe(0);
    expect(teamAudit.stdout).toContain('secret-check@example.com');
    expect(teamAudit.stdout).not.toContain(team.db.password);
    const wrong = await runInProcess(['withdraw', 'pix', '--amount', '778', '--bank-account', team.bank, '--pix-key-type', 'email', '--pix-key', 'x@example.com', '--yes', '--main-account'], {
      env: { ...team.envA, PGPASSWORD: 'not-the-password-9' },
    });
    expect(wrong.code).toBe(4);
    expect(wrong.stderr).not.toContain('not-the-password-9');
  });

  it('sslmode is honoured: require against a server without SSL is exit 4 saying so, nothing sent; disable, and prefer (the default), connect', async () => {
    const pix = ['withdraw', 'pix', '--amount', '782', '--bank-account', team.bank, '--pix-key-type', 'email', '--pix-key', 'ssl-check@example.com', '--yes', '--main-account'];
    const made = () => sandboxWithdrawals(team.session).then((all) => all.filter((w) => w.pixKey === 'ssl-check@example.com').length);
    const bad = await runInProcess(['profiles', 'set', 'default', '--ledger', `${team.db.url}?sslmode=requires`], { env: team.envA });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--ledger\'s sslmode "requires" is not one of disable, allow, prefer, require, verify-ca, verify-full');
    for (const env of [{ ...team.envA, PAYCTL_LEDGER: `${team.db.url}?sslmode=require` }, { ...team.envA, PGSSLMODE: 'verify-full' }]) {
      const refused = await runInProcess(pix, { env });
      expect(refused.code, refused.stderr).toBe(4);
      expect(refused.stderr).toMatch(/does not answer \(its server does not offer SSL, which sslmode=(require|verify-full \(PGSSLMODE\)) requires\): nothing was sent/);
      expect(refused.stderr).not.toContain('SECURITY WARNING');
    }
    expect(await made()).toBe(0);
    const disabled = await runInProcess(pix, { env: { ...team.envA, PAYCTL_LEDGER: `${team.db.url}?sslmode=disable` } });
    expect(disabled.code, disabled.stderr).toBe(0);
    expect(await made()).toBe(1);
    const status = await runInProcess(['ledger', 'status', '--json'], { env: { ...team.envA, PGSSLMODE: 'allow' } });
    expect(JSON.parse(status.stdout)).toMatchObject({ answers: true, schemaVersion: 3 });
  });

  it('sslmode against a server with SSL on and SSL-only: require connects; verify-full is exit 4 without its authority, nothing sent, and pays with it (sslrootcert); disable is exit 4 saying the server wants SSL', async () => {
    const secure = await startPostgres({ ssl: true, sslOnly: true });
    try {
      // The server takes nothing but SSL from 127.0.0.1 (pg_hba.conf hostssl): what connects went over SSL.
      const env = (query: string) => ({ ...team.envA, PGPASSWORD: secure.password, PAYCTL_LEDGER: `${secure.url}?${query}` });
      const init = await runInProcess(['ledger', 'init'], { env: env('sslmode=require') });
      expect(init.code, init.stderr).toBe(0);
      const status = await runInProcess(['ledger', 'status', '--json'], { env: env('sslmode=require') });
      expect(status.code, status.stderr).toBe(0);
      expect(JSON.parse(status.stdout)).toMatchObject({ answers: true, schemaVersion: 3 });
      const key = 'ssl-on-check@example.com';
      const pix = ['withdraw', 'pix', '--amount', '786', '--bank-account', team.bank, '--pix-key-type', 'email', '--pix-key', key, '--yes', '--main-account'];
      const made = () => sandboxWithdrawals(team.session).then((all) => all.filter((w) => w.pixKey === key).length);
      const unverified = await runInProcess(pix, { env: env('sslmode=verify-full') });
      expect(unverified.code, unverified.stderr).toBe(4);
      expect(unverified.stderr).toMatch(/does not answer \(its server's certificate is not trusted \(self-signed certificate\), which sslmode=verify-full requires: give the authority that signed it as sslrootcert=FILE in the URL\): nothing was sent/);
      const plain = await runInProcess(pix, { env: env('sslmode=disable') });
      expect(plain.code, plain.stderr).toBe(4);
      expect(plain.stderr).toMatch(/does not answer \(its server takes this connection only over SSL, which sslmode=disable refuses\): nothing was sent/);
      expect(await made()).toBe(0);
      const verified = await runInProcess(pix, { env: env(`sslmode=verify-full&sslrootcert=${encodeURIComponent(secure.certificate!)}`) });
      expect(verified.code, verified.stderr).toBe(0);
      expect(await made()).toBe(1);
    } finally {
      await secure.close();
    }
  });

  it('the password from ~/.pgpass when PGPASSWORD is not set; a wrong one is exit 4', async () => {
    const home = tempConfigDir();
    const { PGPASSWORD: _, ...withoutPassword } = team.envA;
    const status = (env: Record<string, string>) => runCli(['ledger', 'status', '--json'], { env: { ...withoutPassword, ...env } }).then((r) => JSON.parse(r.stdout));
    expect(await status({ HOME: home })).toMatchObject({ answers: false });
    // No D-Bus session here: the keychain cannot be read, and the message says so rather than that it has no entry.
    const none = await runCli(['ledger', 'status'], { env: { ...withoutPassword, HOME: home, DBUS_SESSION_BUS_ADDRESS: `unix:path=${path.join(home, 'no-bus')}` } });
    expect(none.code, none.stderr).toBe(4);
    expect(none.stderr).toContain(`asks for a password and none was found in PGPASSWORD, ~/.pgpass or the keychain entry ledger:${team.db.url}, which could not be read (the system keychain (Secret Service) cannot be used: `);
    writeFileSync(path.join(home, '.pgpass'), `127.0.0.1:${team.db.port}:payctl:ledger:${team.db.password}\n`, { mode: 0o600 });
    expect(await status({ HOME: home })).toMatchObject({ answers: true, schemaVersion: 3 });
    const wrong = await runCli(['ledger', 'status'], { env: { ...withoutPassword, HOME: home, PGPASSWORD: 'not-the-password-8' } });
    expect(wrong.code).toBe(4);
    expect(wrong.stdout + wrong.stderr).toMatch(/password authentication failed/);
    expect(wrong.stdout + wrong.stderr).not.toContain('not-the-password-8');
  });

  keychainIt('the password from the keychain (entry ledger:URL) when neither PGPASSWORD nor ~/.pgpass gives one', async () => {
    const service = await startSecretService();
    try {
      const { PGPASSWORD: _, ...withoutPassword } = team.envA;
      const env = { ...withoutPassword, HOME: tempConfigDir(), DBUS_SESSION_BUS_ADDRESS: service.address };
      const before = await runCli(['ledger', 'status', '--json'], { env });
      expect(JSON.parse(before.stdout)).toMatchObject({ answers: false });
      const why = await runCli(['ledger', 'status'], { env });
      expect(why.stderr).toContain(`asks for a password and none was found in PGPASSWORD, ~/.pgpass or the keychain entry ledger:${team.db.url})`);
      const store = spawnSync('secret-tool', ['store', '--label', 'payctl ledger', 'service', 'payctl', 'username', `ledger:${team.db.url}`], {
        env: { PATH: process.env.PATH, DBUS_SESSION_BUS_ADDRESS: service.address },
        input: team.db.password,
      });
      expect(store.status, String(store.stderr)).toBe(0);
      const after = await runCli(['ledger', 'status', '--json'], { env });
      expect(JSON.parse(after.stdout), after.stderr).toMatchObject({ answers: true, schemaVersion: 3 });
      const pix = ['withdraw', 'pix', '--amount', '783', '--bank-account', team.bank, '--pix-key-type', 'email', '--pix-key', 'keychain-check@example.com', '--yes', '--main-account', '--debug'];
      const paid = await runCli(pix, { env });
      expect(paid.code, paid.stderr).toBe(0);
      expect(paid.stdout + paid.stderr).not.toContain(team.db.password);
    } finally {
      await service.close();
    }
  });

  it('node-postgres is loaded by the runs that claim, not by balance --json, even with a ledger named', async () => {
    const NODE_OPTIONS = `--require ${fileURLToPath(new URL('./shims/report-pg.cjs', import.meta.url))}`;
    const balance = await runCli(['balance', '--json', '--main-account'], { env: { ...team.envA, NODE_OPTIONS } });
    expect(balance.code, balance.stderr).toBe(0);
    expect(balance.stderr).toContain('pg loaded: false');
    const pix = ['withdraw', 'pix', '--amount', '779', '--bank-account', team.bank, '--pix-key-type', 'email', '--pix-key', 'load-check@example.com', '--yes', '--main-account'];
    const withdrawal = await runCli(pix, { env: { ...team.envA, NODE_OPTIONS } });
    expect(withdrawal.code, withdrawal.stderr).toBe(0);
    expect(withdrawal.stderr).toContain('pg loaded: true');
  });

});
