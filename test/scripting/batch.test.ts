import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, cleanEnv, tempConfigDir } from '../helpers/cli.js';
import { runInProcess } from '../helpers/in-process.js';
import { answeredBalance, fakeJwt, sendJson, startFakeApi } from '../helpers/fake-api.js';
import { sandboxWithdrawals, startSandboxSession, type SandboxSession } from '../helpers/sandbox.js';

let session: SandboxSession;
let bankAccountId: string;

beforeAll(async () => {
  session = await startSandboxSession('acme');
  const credit = await session.run(['api', 'POST', '/sandbox/balance', '--main-account', '--data', JSON.stringify({ pix: 500_000_000, card: 500_000_000 })]);
  expect(credit.code, credit.stderr).toBe(0);
  bankAccountId = (await session.run(['bank-accounts', 'list', '--main-account', '--fields', 'id', '-o', 'tsv'])).stdout.split('\n')[0]!;
  expect(bankAccountId).toMatch(/^\d+$/);
});
afterAll(() => session?.close());

/** The main account's withdrawals, read through the sandbox's own API: never payctl's word. */
const withdrawals = () => sandboxWithdrawals(session);

const csvFile = (name: string, lines: string[]) => {
  const file = path.join(tempConfigDir(), name);
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
};

const journalLineCount = (journal: string) => (existsSync(journal) ? readFileSync(journal, 'utf8').split('\n').length - 1 : 0);

/**
 * Starts a batch and SIGKILLs it once its journal has grown by `afterLines` lines: a point in the
 * run defined by what it did, not by the clock, so a slow machine reaches the same state later
 * rather than a different one. Resolves when the process is gone (also when it ended first).
 */
function runAndKill(args: string[], journal: string, afterLines: number): Promise<void> {
  const target = journalLineCount(journal) + afterLines;
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: cleanEnv(session.env), stdio: 'ignore' });
    const poll = setInterval(() => {
      if (journalLineCount(journal) >= target) child.kill('SIGKILL');
    }, 5);
    child.on('close', () => {
      clearInterval(poll);
      resolve();
    });
  });
}

describe('withdraw pix --from-csv', () => {
  it('pays each of 500 rows exactly once across runs killed at random points, reporting unknown rows until reconciled', async () => {
    const rows = Array.from({ length: 500 }, (_, i) => `${10_000 + i},${bankAccountId},email,batch-row-${i}@example.com`);
    const file = csvFile('payouts.csv', ['amount,bank_account_id,pix_key_type,pix_key', ...rows]);
    const journal = `${file}.journal`;
    const args = ['withdraw', 'pix', '--from-csv', file, '--yes', '--main-account', '--concurrency', '8', '-o', 'json'];
    // Each run killed after 1 to 120 new journal lines (an intent or an outcome each).
    const killPoints = Array.from({ length: 4 }, () => 1 + Math.floor(Math.random() * 120));
    for (const lines of killPoints) await runAndKill(args, journal, lines);
    expect(existsSync(journal), `journal after kills at ${killPoints.join(', ')} new lines`).toBe(true);

    const journalLines = readFileSync(journal, 'utf8')
      .trim()
      .split('\n')
      .filter((l) => l.startsWith('{') && l.endsWith('}'))
      .map((l) => JSON.parse(l) as { type: string; key: string });
    const settled = new Set(journalLines.filter((r) => r.type === 'done' || r.type === 'failed').map((r) => r.key));
    const unknownCount = new Set(journalLines.filter((r) => r.type === 'intent' && !settled.has(r.key)).map((r) => r.key)).size;

    // A plain rerun pays what is left but refuses rows whose outcome is unknown.
    const rerun = await session.run(args);
    const rerunReport = JSON.parse(rerun.stdout) as Array<{ outcome: string }>;
    expect(rerunReport.filter((r) => r.outcome === 'unknown')).toHaveLength(unknownCount);
    if (unknownCount > 0) {
      expect(rerun.code).toBe(5);
      // In json modes stderr is the JSON error alone.
      expect(JSON.parse(rerun.stderr)).toMatchObject({ error: { message: expect.stringContaining(`${unknownCount} of unknown outcome`), exitCode: 5 } });
    } else {
      expect(rerun.code, rerun.stderr).toBe(0);
    }

    const reconciled = await session.run([...args, '--reconcile']);
    expect(reconciled.code, reconciled.stderr).toBe(0);
    const report = JSON.parse(reconciled.stdout) as Array<{ line: number; outcome: string; withdrawalId: string }>;
    expect(report).toHaveLength(500);
    expect(report.filter((r) => !['already-done', 'reconciled', 'sent'].includes(r.outcome))).toEqual([]);
    expect(new Set(report.map((r) => r.withdrawalId)).size).toBe(500);

    const expectEachRowPaidOnce = async (when: string) => {
      const paid = (await withdrawals()).filter((w) => w.pixKey?.startsWith('batch-row-'));
      for (let i = 0; i < 500; i++) {
        const matches = paid.filter((w) => w.pixKey === `batch-row-${i}@example.com` && w.amount === 10_000 + i);
        expect(matches, `row ${i} ${when} (kills after ${killPoints.join(', ')} new journal lines)`).toHaveLength(1);
      }
      expect(paid).toHaveLength(500);
    };
    await expectEachRowPaidOnce('after the reconcile');

    // Once everything is done, a rerun sends nothing, whatever is done to the lines: a
    // blank line after the header, a row deleted, the rows reordered.
    const edits: Array<[string, (lines: string[]) => string[]]> = [
      ['unchanged', (lines) => lines],
      ['blank line after the header', ([header, ...rest]) => [header!, '', ...rest]],
      ['row deleted', (lines) => lines.filter((line) => !line.includes('batch-row-250@'))],
      ['rows reordered', ([header, ...rest]) => [header!, ...rest.filter(Boolean).reverse()]],
    ];
    for (const [edit, change] of edits) {
      writeFileSync(file, `${change(readFileSync(file, 'utf8').trimEnd().split('\n')).join('\n')}\n`);
      const again = await session.run(args);
      expect(again.code, `${edit}: ${again.stderr}`).toBe(0);
      const outcomes = (JSON.parse(again.stdout) as Array<{ outcome: string }>).map((r) => r.outcome);
      expect(outcomes.length, edit).toBeGreaterThanOrEqual(499);
      expect(outcomes.filter((outcome) => outcome !== 'already-done'), edit).toEqual([]);
      await expectEachRowPaidOnce(`after a rerun with ${edit}`);
    }
  });

  it('checks every row before sending any, naming each bad line', async () => {
    const before = (await withdrawals()).length;
    const file = csvFile('bad.csv', [
      'amount,bank_account_id,pix_key_type,pix_key,postback_url',
      `1000,${bankAccountId},email,ok@example.com,`,
      `12.50,${bankAccountId},email,ok@example.com,`,
      `1000,${bankAccountId},cpf,111.111.111-11,`,
      `1000,,email,ok@example.com,`,
      `1000,${bankAccountId},email,ok@example.com,ftp://nope`,
    ]);
    const result = await session.run(['withdraw', 'pix', '--from-csv', file, '--yes']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('line 3: amount "12.50" reads as reais, and the amount column is in cents: as reais it is 1250 cents');
    expect(result.stderr).toContain('line 4: pix_key');
    expect(result.stderr).toContain('line 5: missing bank_account_id');
    expect(result.stderr).toContain('line 6: postback_url');
    expect(result.stderr).not.toContain('line 2');
    expect((await withdrawals()).length).toBe(before);
  });

  it('shows count, total and per-account totals, and without a terminal or --yes refuses', async () => {
    const file = csvFile('confirm.csv', ['amount,bank_account_id', `1500,${bankAccountId}`, `2500,${bankAccountId}`]);
    const before = await withdrawals();
    const refused = await session.run(['withdraw', 'card', '--from-csv', file, '--main-account']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('refused without confirmation');
    expect(existsSync(`${file}.journal`)).toBe(false);
    expect((await withdrawals()).length, 'after the refused run').toBe(before.length);

    const dryRun = await session.run(['withdraw', 'card', '--from-csv', file, '--main-account', '--dry-run']);
    expect(dryRun.code, dryRun.stderr).toBe(0);
    expect(dryRun.stderr).toContain('withdrawals:  2');
    expect(dryRun.stderr).toContain('R$ 40,00 (4000 cents)');
    expect(dryRun.stderr).toContain(`main account → bank account ${bankAccountId}: 2 withdrawals, R$ 40,00 (4000 cents)`);
    expect(dryRun.stderr).toContain('batch: 2 rows: 2 to send, 0 already done');
    expect(dryRun.stdout.match(/^POST .*$/gm)).toEqual(Array(2).fill(`POST ${session.sandbox.url}/withdrawals/withdraw`));
    expect(dryRun.stdout.match(/"amount": \d+/g)).toEqual(['"amount": 1500', '"amount": 2500']);
    expect(existsSync(`${file}.journal`)).toBe(false);
    expect((await withdrawals()).length, 'after the dry run').toBe(before.length);

    const sent = await session.run(['withdraw', 'card', '--from-csv', file, '--main-account', '--yes', '-o', 'csv']);
    expect(sent.code, sent.stderr).toBe(0);
    expect(sent.stdout.trimEnd().split('\n').slice(1).map((line) => line.split(',')[1])).toEqual(['sent', 'sent']);
    expect(sent.stderr).toContain('2 done (2 now');
    // Exactly two more withdrawals in the sandbox: one card withdrawal per row.
    const after = await withdrawals();
    expect(after.length, 'after the --yes run').toBe(before.length + 2);
    const known = new Set(before.map((w) => w.id));
    const made = after.filter((w) => !known.has(w.id));
    expect(made.map((w) => [w.withdrawalPaymentType, w.amount, w.bankAccountId]).sort()).toEqual([
      ['CARD', 1500, Number(bankAccountId)],
      ['CARD', 2500, Number(bankAccountId)],
    ]);
  });

  it('exits 1 with the reasons when rows are refused, and a rerun tries only those', async () => {
    const file = csvFile('refused.csv', ['amount,bank_account_id', `1700,${bankAccountId}`, '1700,999999']);
    const before = await withdrawals();
    const first = await session.run(['withdraw', 'boleto', '--from-csv', file, '--main-account', '--yes']);
    expect(first.code).toBe(1);
    expect(first.stderr).toMatch(/failed\s+line 3: .*returnCode -7100/);
    // The sandbox's own count: the first run paid line 2 once, and line 3 (refused) not at all.
    const afterFirst = await withdrawals();
    expect(afterFirst.length, 'after the first run').toBe(before.length + 1);
    const known = new Set(before.map((w) => w.id));
    const [paid, ...more] = afterFirst.filter((w) => !known.has(w.id));
    expect(more).toEqual([]);
    expect(paid).toMatchObject({ withdrawalPaymentType: 'BOLETO', amount: 1700, bankAccountId: Number(bankAccountId) });
    const second = await session.run(['withdraw', 'boleto', '--from-csv', file, '--main-account', '--yes', '-o', 'json']);
    expect(second.code).toBe(1);
    const outcomes = (JSON.parse(second.stdout) as Array<{ outcome: string }>).map((r) => r.outcome);
    expect(outcomes).toEqual(['already-done', 'failed']);
    // The rerun sent nothing: line 2 is done (the sandbox's withdrawal) and line 3 is refused again.
    const afterSecond = await withdrawals();
    expect(afterSecond.length, 'after the rerun').toBe(afterFirst.length);
    expect(afterSecond.map((w) => w.id).sort()).toEqual(afterFirst.map((w) => w.id).sort());
    expect((JSON.parse(second.stdout) as Array<{ withdrawalId?: string }>)[0]!.withdrawalId).toBe(paid!.id);
  });
});

describe('withdraw --from-csv with an answer that never comes', () => {
  it('records the row as unknown, refuses it on rerun, and --reconcile settles it from withdrawals list without sending again', async () => {
    const created = {
      id: '6f1c1d7e-2a43-4d4e-9d8e-0b7a3c2f1e10',
      amount: 4321,
      liquidAmount: 4300,
      status: 'PENDING',
      withdrawalPaymentType: 'PIX',
      pixKeyType: 'EMAIL',
      pixKey: 'lost@example.com',
      bankAccountId: 7,
      createdAt: '',
      updatedAt: '',
    };
    let listed: unknown[] = [];
    const api = await startFakeApi((request, response) => {
      if (answeredBalance(request, response)) return;
      if (request.method === 'POST') {
        created.createdAt = created.updatedAt = new Date().toISOString();
        listed = [created];
        response.socket?.destroy();
        return;
      }
      sendJson(response, 200, { data: listed, meta: { total: listed.length }, message: 'ok' });
    });
    try {
      const env = { PAYCTL_CONFIG_DIR: tempConfigDir(), PAYCTL_BASE_URL: api.url, PAYCTL_TOKEN: fakeJwt(Math.floor(Date.now() / 1000) + 3600) };
      const file = csvFile('lost.csv', ['amount,bank_account_id,pix_key_type,pix_key', '4321,7,email,lost@example.com']);
      const args = ['withdraw', 'pix', '--from-csv', file, '--yes', '-o', 'json'];
      const first = await runInProcess(args, { env });
      expect(first.code).toBe(5);
      expect(JSON.parse(first.stdout)[0].outcome).toBe('unknown');
      const rerun = await runInProcess(args, { env });
      expect(rerun.code).toBe(5);
      expect(JSON.parse(rerun.stdout)[0]).toMatchObject({ line: 2, outcome: 'unknown' });
      expect(JSON.parse(rerun.stderr)).toMatchObject({ error: { message: '1 of 1 rows are not paid: 1 of unknown outcome', exitCode: 5 } });
      expect(api.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
      const reconciled = await runInProcess([...args, '--reconcile'], { env });
      expect(reconciled.code, reconciled.stderr).toBe(0);
      expect(JSON.parse(reconciled.stdout)[0]).toMatchObject({ outcome: 'reconciled', withdrawalId: created.id });
      expect(api.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
    } finally {
      await api.close();
    }
  });
});

describe('duplicate guard for a single withdrawal', () => {
  it('refuses the same amount, method, bank account and key within the duplicate window, unless --allow-duplicate', async () => {
    const pix = ['withdraw', 'pix', '--main-account', '--bank-account', bankAccountId, '--pix-key-type', 'email', '--pix-key', 'twice@example.com', '--yes'];
    const first = await session.run([...pix, '--amount', '31415']);
    expect(first.code, first.stderr).toBe(0);
    const second = await session.run([...pix, '--amount', '31415']);
    expect(second.code).toBe(2);
    expect(second.stderr).toContain('possible duplicate');
    expect(second.stderr).toContain('--allow-duplicate');
    expect((await session.run([...pix, '--amount', '31416'])).code).toBe(0);
    const allowed = await session.run([...pix, '--amount', '31415', '--allow-duplicate']);
    expect(allowed.code, allowed.stderr).toBe(0);
    const twins = (await withdrawals()).filter((w) => w.pixKey === 'twice@example.com' && w.amount === 31415);
    expect(twins).toHaveLength(2);

    const card = ['withdraw', 'card', '--main-account', '--bank-account', bankAccountId, '--amount', '27182', '--yes'];
    expect((await session.run(card)).code).toBe(0);
    const cardAgain = await session.run(card);
    expect(cardAgain.code).toBe(2);
    expect(cardAgain.stderr).toContain(`by CARD to bank account ${bankAccountId},`);
  });
});

describe('refusals in json modes, where stderr holds only the JSON error', () => {
  const jsonError = (stderr: string) => (JSON.parse(stderr) as { error: { message: string; exitCode: number } }).error;

  it("name each problem of a batch file, which a person's stderr lists above the error", async () => {
    const file = csvFile('problems.csv', ['amount,bank_account_id,pix_key_type,pix_key', `12.50,${bankAccountId},email,a@example.com`, `1500,,email,b@example.com`]);
    const refused = await session.run(['withdraw', 'batch', file, '--method', 'pix', '--yes', '--main-account', '--json']);
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe('');
    expect(refused.stderr.trimEnd().split('\n')).toHaveLength(1);
    const { message } = jsonError(refused.stderr);
    expect(message).toMatch(/problems\.csv: 2 problems \(line 2: amount .*; line 3: .*bank_account_id.*\): nothing was sent$/);
    expect(message).not.toContain('listed above');
  });

  it('name the twins a withdrawal was refused for', async () => {
    const args = ['withdraw', 'pix', '--amount', '4321', '--bank-account', bankAccountId, '--pix-key-type', 'email', '--pix-key', 'json-twin@example.com', '--main-account', '--yes', '--json'];
    const paid = await session.run([...args, '--jq', '.id']);
    expect(paid.code, paid.stderr).toBe(0);
    const twin = await session.run(args);
    expect(twin.code).toBe(2);
    const { message } = jsonError(twin.stderr);
    expect(message).toContain(`id ${paid.stdout.trim()}`);
    expect(message).toContain('R$ 43,21 by PIX');
    const batch = await session.run(['withdraw', 'batch', csvFile('twin.csv', ['amount,bank_account_id,pix_key_type,pix_key', `4321,${bankAccountId},email,json-twin@example.com`]), '--method', 'pix', '--main-account', '--yes', '-o', 'ndjson']);
    expect(batch.code).toBe(2);
    expect(jsonError(batch.stderr).message).toMatch(new RegExp(`\\(line 2: R\\$ 43,21 .*; twin: .*id ${paid.stdout.trim()}\\): nothing was sent$`));
  });
});
