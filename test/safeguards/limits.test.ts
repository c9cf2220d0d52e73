import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliInTerminal, tempConfigDir } from '../helpers/cli.js';
import { runInProcess } from '../helpers/in-process.js';
import { startSandboxSession, type SandboxSession } from '../helpers/sandbox.js';
import { csvFile, sandboxWithdrawals } from '../money/helpers.js';
import { json, parsed } from '../commands/helpers.js';

/**
 * Limits per profile: refused above, --yes or not, nothing sent (counted in the
 * sandbox through its own API); paid at the limit. profiles set and show.
 */

let s: SandboxSession;
let bank: number;
const LIMIT = 5000;
const BATCH_LIMIT = 6000;

beforeAll(async () => {
  s = await startSandboxSession('acme');
  bank = (await json<Array<{ id: number }>>(s, ['bank-accounts', 'list']))[0]!.id;
  parsed(await s.run(['sandbox', 'credit', '--pix', '1000000', '--json']));
  const set = await s.run(['profiles', 'set', 'default', '--max-withdrawal', String(LIMIT), '--max-batch-total', String(BATCH_LIMIT)]);
  expect(set.code, set.stderr).toBe(0);
});
afterAll(() => s?.close());

const pix = (amount: number, key: string, extra: string[] = []) =>
  ['withdraw', 'pix', '--amount', String(amount), '--bank-account', String(bank), '--pix-key-type', 'email', '--pix-key', key, ...extra];
const count = async () => (await sandboxWithdrawals(s)).length;

describe('withdrawal limits', () => {
  it('profiles show lists the limits', async () => {
    expect(await json(s, ['profiles', 'show'])).toMatchObject({ maxWithdrawal: LIMIT, maxBatchTotal: BATCH_LIMIT });
  });

  it('a single withdrawal of limit + 1 is refused with --yes, exit 2 naming the limit and the profile, nothing sent', async () => {
    const before = await count();
    for (const method of [pix(LIMIT + 1, 'over@acme.com.br', ['--yes']), ['withdraw', 'card', '--amount', String(LIMIT + 1), '--bank-account', String(bank), '--yes']]) {
      const result = await s.run(method);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`error: R$ 50,01 (5001 cents) is above the largest withdrawal profile "default" allows (--max-withdrawal R$ 50,00 (5000 cents)): nothing was sent`);
      expect(result.stderr).toContain('payctl profiles set default --max-withdrawal CENTS');
    }
    expect((await s.run(pix(LIMIT + 1, 'dry@acme.com.br', ['--dry-run']))).code).toBe(2);
    expect(await count()).toBe(before);
  });

  it('at the limit, the withdrawal is paid', async () => {
    const before = await count();
    const created = parsed(await s.run(pix(LIMIT, 'at-limit@acme.com.br', ['--yes', '--json'])));
    expect(created).toMatchObject({ amount: LIMIT, status: 'PENDING' });
    expect(await count()).toBe(before + 1);
  });

  it('a batch whose total is limit + 1 is refused with --yes, nothing sent; a row above the single limit too', async () => {
    const before = await count();
    const over = csvFile('over.csv', ['amount,bank_account_id,pix_key_type,pix_key', `3000,${bank},email,b1@acme.com.br`, `${BATCH_LIMIT - 3000 + 1},${bank},email,b2@acme.com.br`]);
    const result = await s.run(['withdraw', 'batch', over, '--method', 'pix', '--yes']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`the batch's total R$ 60,01 (6001 cents) is above the largest batch profile "default" allows (--max-batch-total R$ 60,00 (6000 cents)): nothing was sent`);
    const bigRow = csvFile('row.csv', ['amount,bank_account_id,pix_key_type,pix_key', `100,${bank},email,c1@acme.com.br`, `${LIMIT + 1},${bank},email,c2@acme.com.br`]);
    const row = await s.run(['withdraw', 'batch', bigRow, '--method', 'pix', '--yes']);
    expect(row.code).toBe(2);
    expect(row.stderr).toMatch(/line 3 is above the largest withdrawal profile "default" allows/);
    expect(await count()).toBe(before);
  });

  it('a batch whose total is the limit is paid', async () => {
    const before = await count();
    const file = csvFile('at.csv', ['amount,bank_account_id,pix_key_type,pix_key', `3000,${bank},email,d1@acme.com.br`, `${BATCH_LIMIT - 3000},${bank},email,d2@acme.com.br`]);
    const result = await s.run(['withdraw', 'batch', file, '--method', 'pix', '--yes']);
    expect(result.code, result.stderr).toBe(0);
    expect(await count()).toBe(before + 2);
  });

  it('a batch header naming a column twice is refused naming it (exit 2), nothing sent', async () => {
    const before = await count();
    const file = csvFile('twice.csv', ['amount,bank_account_id,pix_key_type,pix_key,amount', `100,${bank},email,twice@acme.com.br,250000`]);
    const result = await s.run(['withdraw', 'batch', file, '--method', 'pix', '--yes']);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain('column amount named more than once in the header');
    expect(await count()).toBe(before);
  });

  it('api POST to the withdrawal route is held to --max-withdrawal, however the route is spelled; an unreadable amount is refused under a limit', async () => {
    const before = await count();
    const body = (amount: unknown) => JSON.stringify({ amount, bankAccountId: bank, withdrawalMethod: 'pix', pixKeyType: 'EMAIL', pixKey: 'api-over@acme.com.br' });
    for (const [route, data] of [
      ['/withdrawals/withdraw', body(900000)],
      ['withdrawals//withdraw/', body(LIMIT + 1)],
      ['/withdrawals/%77ithdraw', body(LIMIT + 1)],
      ['/WITHDRAWALS/withdraw', body(LIMIT + 1)],
    ] as const) {
      const result = await s.run(['api', 'POST', route, '--data', data]);
      expect(result.code, `${route}: ${result.stderr}`).toBe(2);
      expect(result.stderr).toContain('is above the largest withdrawal profile "default" allows (--max-withdrawal R$ 50,00 (5000 cents)): nothing was sent');
    }
    for (const data of [body('900000'), body(null), JSON.stringify([{ amount: 900000 }])]) {
      const result = await s.run(['api', 'POST', '/withdrawals/withdraw', '--data', data]);
      expect(result.code, `${data}: ${result.stderr}`).toBe(2);
      expect(result.stderr).toContain("the body's amount is not a number");
    }
    expect(await count()).toBe(before);
    const atLimit = await s.run(['api', 'POST', '/withdrawals/withdraw', '--data', body(LIMIT).replace('api-over', 'api-at')]);
    expect(atLimit.code, atLimit.stderr).toBe(0);
    expect(await count()).toBe(before + 1);
  });

  it('cleared, the limit no longer applies', async () => {
    const dir = tempConfigDir();
    const env = { PAYCTL_CONFIG_DIR: dir, PAYCTL_BASE_URL: s.sandbox.url };
    expect((await runInProcess(['profiles', 'set', 'default', '--max-withdrawal', '100'], { env })).code).toBe(0);
    expect((await runInProcess(['profiles', 'set', 'default', '--clear-max-withdrawal'], { env })).code).toBe(0);
    expect(JSON.parse((await runInProcess(['profiles', 'show', '--json'], { env })).stdout)).toMatchObject({ maxWithdrawal: null });
  });
});

describe('profiles set', () => {
  const env = () => ({ PAYCTL_CONFIG_DIR: tempConfigDir() });
  const add = (e: Record<string, string>, name: string, url: string, kind: string) => runInProcess(['profiles', 'add', name, '--base-url', url, '--env', kind], { env: e });

  it('bad values are exit 2 naming the flag and the rule; a limit and its clearing together are refused', async () => {
    const e = env();
    for (const [args, message] of [
      [['--max-withdrawal', '12.50'], '--max-withdrawal'],
      [['--max-batch-total', '0'], '--max-batch-total'],
      [['--max-withdrawal', '100', '--clear-max-withdrawal'], '--max-withdrawal and --clear-max-withdrawal cannot be used together'],
      [['--token-store', 'vault'], "'vault' is invalid"],
      [['--csv-separator', 'x'], '--csv-separator'],
      [[], 'nothing to set'],
    ] as const) {
      const result = await runInProcess(['profiles', 'set', 'default', ...args], { env: e });
      expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(2);
      expect(result.stderr).toContain(message);
    }
    const missing = await runInProcess(['profiles', 'set', 'nope', '--max-withdrawal', '100'], { env: e });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('profile "nope" does not exist');
  });

  it('the csv separator is the profile\'s: -o csv then uses it', async () => {
    const e = { PAYCTL_CONFIG_DIR: s.configDir, PAYCTL_BASE_URL: s.sandbox.url };
    const other = { ...e, PAYCTL_CONFIG_DIR: tempConfigDir() };
    expect((await add(other, 'br', s.sandbox.url, 'local')).code).toBe(0);
    const set = await runInProcess(['profiles', 'set', 'br', '--csv-separator', ';'], { env: other });
    expect(set.code, set.stderr).toBe(0);
    const config = JSON.parse(readFileSync(path.join(other.PAYCTL_CONFIG_DIR, 'config.json'), 'utf8'));
    expect(config.profiles.br.csvSeparator).toBe(';');
    const csv = await runInProcess(['profiles', 'list', '-o', 'csv', '--profile', 'br'], { env: other });
    expect(csv.stdout.split('\n')[0]).toContain(';');
  });

  it('changing a limit of a production profile needs --yes without a terminal, and is asked at one (default No)', async () => {
    const e = env();
    expect((await add(e, 'prod', 'https://api.example.com', 'production')).code).toBe(0);
    const refused = await runInProcess(['profiles', 'set', 'prod', '--max-withdrawal', '100000'], { env: e });
    expect(refused.code).toBe(2);
    // The refusal every confirmation gives, nothing shown before it.
    expect(refused.stderr).toBe('error: Change the limits of production profile prod: refused without confirmation\nhint: pass --yes to confirm, or run it at a terminal to be asked\n');
    expect(JSON.parse((await runInProcess(['profiles', 'show', 'prod', '--json'], { env: e })).stdout)).toMatchObject({ maxWithdrawal: null });

    const declined = await runCliInTerminal(['profiles', 'set', 'prod', '--max-withdrawal', '100000'], { env: e, stderrOnTerminal: true, steps: [{ after: 'Change the limits', send: '\r' }] });
    expect(declined.code).toBe(2);
    expect(declined.stdout).toContain('largest single withdrawal: none → R$ 1.000,00 (100000 cents)');
    expect(JSON.parse((await runInProcess(['profiles', 'show', 'prod', '--json'], { env: e })).stdout)).toMatchObject({ maxWithdrawal: null });

    const accepted = await runCliInTerminal(['profiles', 'set', 'prod', '--max-withdrawal', '100000'], { env: e, stderrOnTerminal: true, steps: [{ after: 'Change the limits', send: 'y\r' }] });
    expect(accepted.code, accepted.stdout).toBe(0);
    expect((await runInProcess(['profiles', 'set', 'prod', '--max-batch-total', '900000', '--yes'], { env: e })).code).toBe(0);
    expect(JSON.parse((await runInProcess(['profiles', 'show', 'prod', '--json'], { env: e })).stdout)).toMatchObject({ maxWithdrawal: 100000, maxBatchTotal: 900000 });
  });

  it('adding a production profile at a terminal mentions the keychain once; in a script it does not', async () => {
    const e = env();
    const atTerminal = await runCliInTerminal(['profiles', 'add', 'prod', '--base-url', 'https://api.example.com', '--env', 'production'], { env: e, stderrOnTerminal: true });
    expect(atTerminal.code).toBe(0);
    expect(atTerminal.stdout.match(/--token-store keychain/g)).toHaveLength(1);
    const piped = await add(env(), 'prod', 'https://api.example.com', 'production');
    expect(piped.code).toBe(0);
    expect(piped.stderr).not.toContain('keychain');
    const local = await runCliInTerminal(['profiles', 'add', 'dev', '--base-url', 'http://127.0.0.1:4010'], { env: e, stderrOnTerminal: true });
    expect(local.stdout).not.toContain('keychain');
  });
});
