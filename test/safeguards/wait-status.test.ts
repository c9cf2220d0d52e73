import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliInTerminal, tempConfigDir } from '../helpers/cli.js';
import { runInProcess } from '../helpers/in-process.js';
import { startSandboxSession, type SandboxSession } from '../helpers/sandbox.js';
import { fakeJwt } from '../helpers/fake-api.js';
import { sandboxWithdrawals } from '../money/helpers.js';
import { json, parsed, plain } from '../commands/helpers.js';

/** withdraw --wait to COMPLETED, to FAILED and past its timeout; status against a sandbox and without a token. */

const pix = (bank: number, amount: number, key: string, extra: string[] = []) =>
  ['withdraw', 'pix', '--amount', String(amount), '--bank-account', String(bank), '--pix-key-type', 'email', '--pix-key', key, '--yes', ...extra];

async function session(settleAfterMs: number, failedShare: number) {
  const s = await startSandboxSession('acme', { settleAfterMs, settleFailedShare: failedShare });
  parsed(await s.run(['sandbox', 'credit', '--pix', '1000000', '--json']));
  const bank = (await json<Array<{ id: number }>>(s, ['bank-accounts', 'list']))[0]!.id;
  return { s, bank };
}

describe('withdraw --wait', () => {
  let done: SandboxSession;
  let failing: SandboxSession;
  let doneBank: number;
  let failingBank: number;
  beforeAll(async () => {
    ({ s: done, bank: doneBank } = await session(800, 0));
    ({ s: failing, bank: failingBank } = await session(800, 1));
  });
  afterAll(async () => {
    await done?.close();
    await failing?.close();
  });

  it('to COMPLETED: exit 0, the settled withdrawal on stdout, made once', async () => {
    const before = (await sandboxWithdrawals(done)).length;
    const result = await done.run(pix(doneBank, 1601, 'wait-ok@acme.com.br', ['--wait', '--json']));
    expect(result.code, result.stderr).toBe(0);
    const withdrawal = JSON.parse(result.stdout);
    expect(withdrawal).toMatchObject({ amount: 1601, status: 'COMPLETED' });
    expect(result.stderr).toContain(`withdrawal ${withdrawal.id} is COMPLETED`);
    const after = await sandboxWithdrawals(done);
    expect(after.length).toBe(before + 1);
    expect(after.find((w) => w.id === withdrawal.id)).toBeDefined();
  });

  it('to FAILED: exit 1, the FAILED withdrawal on stdout and the reason on stderr, made once', async () => {
    const before = (await sandboxWithdrawals(failing)).length;
    const result = await failing.run(pix(failingBank, 1602, 'wait-failed@acme.com.br', ['--wait', '--json']));
    expect(result.code).toBe(1);
    const withdrawal = JSON.parse(result.stdout);
    expect(withdrawal).toMatchObject({ amount: 1602, status: 'FAILED' });
    // In json modes stderr is the JSON error alone.
    expect(JSON.parse(result.stderr)).toMatchObject({ error: { message: expect.stringContaining(`withdrawal ${withdrawal.id} FAILED`), exitCode: 1 } });
    // A FAILED withdrawal is not sent again: the sandbox holds exactly one more, the one on stdout.
    const after = await sandboxWithdrawals(failing);
    expect(after.length).toBe(before + 1);
    expect(after.filter((w) => w.pixKey === 'wait-failed@acme.com.br')).toEqual([expect.objectContaining({ id: withdrawal.id, amount: 1602 })]);
  });

  it('past --wait-timeout: exit 5, the withdrawal still PENDING and made once, with the command that follows it', async () => {
    const s = await startSandboxSession('acme');
    try {
      parsed(await s.run(['sandbox', 'credit', '--pix', '100000', '--json']));
      const bank = (await json<Array<{ id: number }>>(s, ['bank-accounts', 'list']))[0]!.id;
      const before = (await sandboxWithdrawals(s)).length;
      const result = await s.run(pix(bank, 1603, 'wait-long@acme.com.br', ['--wait', '--wait-timeout', '1', '--json']));
      expect(result.code).toBe(5);
      const withdrawal = JSON.parse(result.stdout);
      expect(withdrawal).toMatchObject({ status: 'PENDING' });
      expect(JSON.parse(result.stderr)).toMatchObject({ error: { message: expect.stringContaining('is still PENDING after 1 s'), exitCode: 5 } });
      // Running out of patience does not send it again: the sandbox holds exactly one more, the one on stdout.
      const afterJson = await sandboxWithdrawals(s);
      expect(afterJson.length).toBe(before + 1);
      expect(afterJson.filter((w) => w.pixKey === 'wait-long@acme.com.br')).toEqual([expect.objectContaining({ id: withdrawal.id, amount: 1603 })]);
      // For a person, the hint names the command that follows it.
      const told = await s.run(pix(bank, 1604, 'wait-long-too@acme.com.br', ['--wait', '--wait-timeout', '1']));
      expect(told.code).toBe(5);
      const id = /withdrawal ([0-9a-f-]{36}) was made and is still PENDING after 1 s/.exec(told.stderr)?.[1];
      expect(id, told.stderr).toBeDefined();
      expect(told.stderr).toContain(`hint: do not send it again; follow it with: payctl withdrawals get ${id}`);
      const afterPerson = await sandboxWithdrawals(s);
      expect(afterPerson.length).toBe(before + 2);
      expect(afterPerson.filter((w) => w.pixKey === 'wait-long-too@acme.com.br')).toEqual([expect.objectContaining({ id, amount: 1604 })]);
    } finally {
      await s.close();
    }
  });

  it('at a terminal, a status line on stderr while it waits', async () => {
    const result = await runCliInTerminal(pix(doneBank, 1604, 'wait-tty@acme.com.br', ['--wait']), { env: done.env, stderrOnTerminal: true });
    expect(result.code, result.stdout).toBe(0);
    expect(result.stdout).toMatch(/waiting for withdrawal [0-9a-f-]+: PENDING \(\d+ s\)/);
  });

  it('a bad --wait-timeout is exit 2 naming the flag, nothing sent', async () => {
    const before = (await sandboxWithdrawals(done)).length;
    const result = await done.run(pix(doneBank, 1605, 'wait-bad@acme.com.br', ['--wait', '--wait-timeout', '0']));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--wait-timeout');
    expect((await sandboxWithdrawals(done)).length).toBe(before);
  });
});

describe('withdrawals get --wait', () => {
  it('follows a withdrawal made elsewhere (here by the API directly) to COMPLETED, FAILED, or past --wait-timeout, sending nothing', async () => {
    const s = await startSandboxSession('acme');
    try {
      parsed(await s.run(['sandbox', 'credit', '--pix', '100000', '--json']));
      const bank = (await json<Array<{ id: number }>>(s, ['bank-accounts', 'list']))[0]!.id;
      const made = async (amount: number) =>
        parsed<{ id: string }>(await s.run(['api', 'POST', '/withdrawals/withdraw', '--data', JSON.stringify({
          amount, bankAccountId: bank, withdrawalMethod: 'pix', pixKeyType: 'EMAIL', pixKey: `follow-${amount}@acme.com.br`,
        }), '--json']));
      const [completes, fails, stays] = [await made(1801), await made(1802), await made(1803)];
      const before = (await sandboxWithdrawals(s)).length;

      // Settled by someone else while payctl waits: the wait ends when it reads the final state.
      const waiting = s.run(['withdrawals', 'get', completes.id, '--wait', '--json']);
      parsed(await s.run(['sandbox', 'settle', completes.id, '--status', 'COMPLETED', '--json']));
      const completed = await waiting;
      expect(completed.code, completed.stderr).toBe(0);
      expect(JSON.parse(completed.stdout)).toMatchObject({ id: completes.id, status: 'COMPLETED' });

      parsed(await s.run(['sandbox', 'settle', fails.id, '--status', 'FAILED', '--json']));
      const failed = await s.run(['withdrawals', 'get', fails.id, '--wait', '--json']);
      expect(failed.code).toBe(1);
      expect(JSON.parse(failed.stdout)).toMatchObject({ id: fails.id, status: 'FAILED' });

      const pending = await s.run(['withdrawals', 'get', stays.id, '--wait', '--wait-timeout', '1']);
      expect(pending.code).toBe(5);
      expect(pending.stderr).toContain(`withdrawal ${stays.id} was made and is still PENDING after 1 s`);
      expect(pending.stderr).toContain(`follow it with: payctl withdrawals get ${stays.id}`);

      const bad = await s.run(['withdrawals', 'get', stays.id, '--wait', '--wait-timeout', 'soon']);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain('--wait-timeout');
      expect((await sandboxWithdrawals(s)).length).toBe(before);
    } finally {
      await s.close();
    }
  });
});

describe('status', () => {
  let s: SandboxSession;
  beforeAll(async () => {
    s = await startSandboxSession('acme');
  });
  afterAll(() => s?.close());

  it('json: profile, token, balances, withdrawals in processing and recent failures', async () => {
    const bank = (await json<Array<{ id: number }>>(s, ['bank-accounts', 'list']))[0]!.id;
    parsed(await s.run(['sandbox', 'credit', '--pix', '100000', '--json']));
    const pending = parsed<{ id: string }>(await s.run(pix(bank, 1701, 'status-pending@acme.com.br', ['--json'])));
    const failed = parsed<{ id: string }>(await s.run(pix(bank, 1702, 'status-failed@acme.com.br', ['--json'])));
    parsed(await s.run(['sandbox', 'settle', failed.id, '--status', 'FAILED', '--json']));
    type Listed = Array<{ id: string }>;
    const status = await json<{ balances: unknown; processing: Listed; failed: Listed; processingCount: number }>(s, ['status']);
    expect(status).toMatchObject({ profile: 'default', env: 'local', baseUrl: s.sandbox.url, tokenStore: 'file', tokenUsable: true, subaccount: null });
    expect(status.balances).toEqual({ pix: expect.any(Number), card: expect.any(Number), boleto: expect.any(Number), inProcessing: expect.any(Number) });
    expect(status.processing.map((w) => w.id)).toContain(pending.id);
    expect(status.failed.map((w) => w.id)).toContain(failed.id);
    expect(status.processingCount).toBe(status.processing.length);
    const tsv = await s.run(['status']);
    expect(tsv.code).toBe(0);
    expect(tsv.stdout).toMatch(/^tokenStore\tfile$/m);
    expect(tsv.stdout).toMatch(new RegExp(`^processing\\t.*${pending.id}`, 'm'));
  });

  it('at a terminal: one screen with the balances in BRL and the withdrawals in processing', async () => {
    const result = await runCliInTerminal(['status'], { env: s.env });
    expect(result.code, result.stderr).toBe(0);
    const screen = plain(result.stdout);
    expect(screen).toMatch(/balances pix\s+R\$ [\d.]+,\d\d/);
    expect(screen).toContain('withdrawals in processing:');
  });

  it('in a sub-account, it says which: by the name payctl knows, else by id alone', async () => {
    const sub = (await json<Array<{ splits: Array<{ subaccountId: string }> }>>(s, ['subs', 'list', '--limit', '100'])).flatMap((x) => x.splits)[0]!.subaccountId;
    expect(await json(s, ['status', '--subaccount', sub])).toMatchObject({ subaccount: sub, subaccountName: null });
    const named = (await json<Array<{ id: string; name: string }>>(s, ['subaccounts', 'list'])).find((one) => one.id === sub)!;
    expect(await json(s, ['status', '--subaccount', sub])).toMatchObject({ subaccount: sub, subaccountName: named.name });
  });

  it('without a token: what is known here, then exit 3; an expired one says so', async () => {
    const env = { PAYCTL_CONFIG_DIR: tempConfigDir(), PAYCTL_BASE_URL: s.sandbox.url };
    const none = await runInProcess(['status', '--json'], { env });
    expect(none.code).toBe(3);
    expect(JSON.parse(none.stdout)).toMatchObject({ profile: 'default', tokenStore: null, tokenUsable: false, balances: null, processing: null });
    expect(JSON.parse(none.stderr)).toMatchObject({ error: { message: expect.stringContaining('no token for profile "default"'), exitCode: 3 } });
    const expired = await runInProcess(['status'], { env: { ...env, PAYCTL_TOKEN: fakeJwt(Math.floor(Date.now() / 1000) - 60) } });
    expect(expired.code).toBe(3);
    expect(expired.stdout).toMatch(/^tokenStore\tenv$/m);
    expect(expired.stdout).toMatch(/^tokenUsable\tfalse$/m);
    expect(expired.stderr).toMatch(/expired at/);
  });
});
