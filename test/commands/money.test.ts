import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cpSync } from 'node:fs';
import { runCliInTerminal, tempConfigDir } from '../helpers/cli.js';
import { needsTools } from '../helpers/tools.js';
import { sandboxWithdrawals, startSandboxSession, type SandboxSession } from '../helpers/sandbox.js';
import { shim } from '../money/helpers.js';
import { createSubaccount, json, parsed, pixBalanceCents, plain, splitReceivers, withdrawalCount } from './helpers.js';

/** withdraw, withdrawals, balance and bank-accounts against a started sandbox, in the main account and a sub-account. */
let s: SandboxSession;
let bank: number;
let sub: string;
let subBank: number;
const SUB = () => ['--subaccount', sub];

beforeAll(async () => {
  s = await startSandboxSession('acme');
  bank = (await json<Array<{ id: number }>>(s, ['bank-accounts', 'list']))[0]!.id;
  sub = (await splitReceivers(s))[0]!;
  subBank = (await json<Array<{ id: number }>>(s, ['bank-accounts', 'list', ...SUB()]))[0]!.id;
  parsed(await s.run(['sandbox', 'credit', '--pix', '500000', ...SUB(), '--json']));
});
afterAll(() => s?.close());

const pix = (amount: number, key: string, extra: string[] = []) =>
  ['withdraw', 'pix', '--amount', String(amount), '--bank-account', String(bank), '--pix-key-type', 'email', '--pix-key', key, ...extra];

describe('withdraw', () => {
  it('pix with --yes: JSON of the PENDING withdrawal, balance moved by exactly the amount', async () => {
    const before = await pixBalanceCents(s);
    const created = parsed<{ id: string }>(await s.run(pix(1500, 'a@acme.com.br', ['--yes', '--json'])));
    expect(created).toMatchObject({
      amount: 1500,
      liquidAmount: 1451,
      status: 'PENDING',
      withdrawalPaymentType: 'PIX',
      pixKeyType: 'EMAIL',
      pixKey: 'a@acme.com.br',
      bankAccountId: bank,
    });
    expect(await pixBalanceCents(s)).toBe(before - 1500);
    expect(await json(s, ['withdrawals', 'get', created.id])).toMatchObject({ id: created.id, amount: 1500 });
  });

  needsTools('script')('card at a terminal: table with money in BRL, and the summary on stderr, made once', async () => {
    const before = new Set((await sandboxWithdrawals(s)).map((w) => w.id));
    const result = await runCliInTerminal(['withdraw', 'card', '--amount', '2345', '--bank-account', String(bank), '--yes'], { env: s.env });
    expect(result.code, result.stderr).toBe(0);
    const after = await sandboxWithdrawals(s);
    expect(after.length).toBe(before.size + 1);
    expect(after.filter((w) => !before.has(w.id))).toEqual([expect.objectContaining({ amount: 2345, withdrawalPaymentType: 'CARD', bankAccountId: bank })]);
    expect(plain(result.stdout)).toMatch(/amount\s+R\$ 23,45/);
    expect(result.stdout).toContain('\u001b[33mPENDING\u001b[39m');
    expect(result.stderr).toContain('R$ 23,45 (2345 cents)');
    expect(result.stderr).toMatch(/draws on: +card balance available R\$ [\d.]+,\d\d/);
    expect(result.stderr).toMatch(new RegExp(`to: +bank account ${bank}: .+ · bank \\d{3} · branch \\d+ · account`));
    expect(result.stderr).toMatch(/account: +main account/);
    expect(result.stderr).toMatch(/profile: +default \(local, http:\/\/127\.0\.0\.1:\d+\)/);
  });

  it('boleto in JSON, made once', async () => {
    const count = await withdrawalCount(s);
    const created = parsed<{ id: string }>(await s.run(['withdraw', 'boleto', '--amount', '10000', '--bank-account', String(bank), '--yes', '--json']));
    expect(created).toMatchObject({ amount: 10000, liquidAmount: 9901, withdrawalPaymentType: 'BOLETO', status: 'PENDING' });
    const after = await sandboxWithdrawals(s);
    expect(after.length).toBe(count + 1);
    expect(after.find((w) => w.id === created.id)).toMatchObject({ amount: 10000, withdrawalPaymentType: 'BOLETO', bankAccountId: bank });
  });

  it('--dry-run prints the request, sends nothing and needs no --yes', async () => {
    const [count, balance] = [await withdrawalCount(s), await pixBalanceCents(s)];
    const result = await s.run(pix(1700, 'dry@acme.com.br', ['--dry-run']));
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`POST ${s.sandbox.url}/withdrawals/withdraw`);
    expect(result.stdout).toContain('authorization: Bearer ***');
    expect(JSON.parse(result.stdout.slice(result.stdout.indexOf('{')))).toEqual({
      withdrawalMethod: 'pix',
      amount: 1700,
      bankAccountId: bank,
      pixKeyType: 'EMAIL',
      pixKey: 'dry@acme.com.br',
    });
    expect(result.stderr).toContain('dry run: nothing was sent');
    expect([await withdrawalCount(s), await pixBalanceCents(s)]).toEqual([count, balance]);
  });

  it('without a terminal and without --yes it refuses with exit 2 and nothing moves', async () => {
    const [count, balance] = [await withdrawalCount(s), await pixBalanceCents(s)];
    const result = await s.run(pix(1800, 'no@acme.com.br'));
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/refused without confirmation/);
    expect(result.stderr).toContain('--yes');
    expect([await withdrawalCount(s), await pixBalanceCents(s)]).toEqual([count, balance]);
  });

  it('the same withdrawal again within the duplicate window (24h) is refused, unless --allow-duplicate', async () => {
    parsed(await s.run(pix(1900, 'twice@acme.com.br', ['--yes', '--json'])));
    const count = await withdrawalCount(s);
    const again = await s.run(pix(1900, 'twice@acme.com.br', ['--yes']));
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/^ {2}made .* \(local time\), R\$ 19,00 by PIX to bank account \d+, PIX key .*, id [0-9a-f-]{36}$/m);
    expect(again.stderr).toContain('error: possible duplicate: the same withdrawal was made in the last');
    expect(again.stderr).toMatch(/^hint: check it with payctl withdrawals get [0-9a-f-]{36}; pass --allow-duplicate to send it anyway$/m);
    expect(await withdrawalCount(s)).toBe(count);
    parsed(await s.run(pix(1900, 'twice@acme.com.br', ['--yes', '--allow-duplicate', '--json'])));
    expect(await withdrawalCount(s)).toBe(count + 1);
  });

  it("the duplicate window is on the API's clock: with a 10m window and this machine's clock 15 minutes ahead, a repeat is still refused", async () => {
    parsed(await s.run(pix(1950, 'skewed@acme.com.br', ['--yes', '--json'])));
    const count = await withdrawalCount(s);
    const configDir = tempConfigDir();
    cpSync(s.configDir, configDir, { recursive: true });
    expect((await s.run(['profiles', 'set', 'default', '--duplicate-window', '10m'], { env: { PAYCTL_CONFIG_DIR: configDir } })).code).toBe(0);
    const ahead = { PAYCTL_CONFIG_DIR: configDir, NODE_OPTIONS: shim('clock-shift'), PAYCTL_TEST_CLOCK_SHIFT_MS: String(15 * 60 * 1000) };
    // The shim shifts the clock of a new process: this run needs one.
    const again = await s.runProcess(pix(1950, 'skewed@acme.com.br', ['--yes']), { env: ahead });
    expect(again.code, again.stderr).toBe(2);
    expect(again.stderr).toMatch(/^ {2}made .* \(local time\), R\$ 19,50 by PIX to bank account \d+, PIX key .*, id [0-9a-f-]{36}$/m);
    expect(again.stderr).toContain('error: possible duplicate: the same withdrawal was made in the last');
    expect(await withdrawalCount(s)).toBe(count);
  });

  it('API refusal: a short balance is exit 1 with its return code and a hint to payctl balance', async () => {
    const result = await s.run(pix(9_000_000_000, 'big@acme.com.br', ['--yes']));
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error: .*\(returnCode -7102, HTTP 422\)$/m);
    expect(result.stderr).toContain('hint: see the available balances: payctl balance');
  });

  it('API refusal: an unknown bank account is -7100 with a hint to bank-accounts list', async () => {
    const result = await s.run(['withdraw', 'card', '--amount', '1000', '--bank-account', '999999', '--yes']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('hint: list the bank accounts of this account: payctl bank-accounts list');
    // With --json the JSON error is all that goes to stderr.
    const asJson = await s.run(['withdraw', 'card', '--amount', '1000', '--bank-account', '999999', '--yes', '--json']);
    expect(asJson.code).toBe(1);
    expect(JSON.parse(asJson.stderr)).toMatchObject({ error: { returnCode: -7100, status: 404, exitCode: 1 } });
  });

  it('in a sub-account: the withdrawal lands there, the summary says so, and the main account does not see it', async () => {
    const before = await pixBalanceCents(s, SUB());
    const result = await s.run([
      'withdraw',
      'pix',
      '--amount',
      '2500',
      '--bank-account',
      String(subBank),
      '--pix-key-type',
      'random',
      '--pix-key',
      '123e4567-e89b-42d3-a456-426614174000',
      '--yes',
      '--json',
      ...SUB(),
    ]);
    const created = parsed<{ id: string }>(result);
    expect(result.stderr).toMatch(new RegExp(`account: +sub-account ${sub}`));
    expect(result.stderr).toContain(`follow it with: payctl withdrawals get ${created.id} --subaccount ${sub}`);
    expect(await pixBalanceCents(s, SUB())).toBe(before - 2500);
    expect((await sandboxWithdrawals(s, sub)).map((w) => w.id)).toContain(created.id);
    const fromMain = await s.run(['withdrawals', 'get', created.id, '--main-account']);
    expect(fromMain.code).toBe(1);
    expect(fromMain.stderr).toContain('returnCode -7101');
    // A bank account of the main account is not one of the sub-account's.
    const foreign = await s.run(['withdraw', 'card', '--amount', '1000', '--bank-account', String(bank), '--yes', ...SUB()]);
    expect(foreign.code).toBe(1);
    expect(foreign.stderr).toContain('returnCode -7100');
  });
});

describe.concurrent('balance and withdrawals', () => {
  needsTools('script')('balance: table in BRL, raw reais in JSON, --fields', async () => {
    const table = await runCliInTerminal(['balance'], { env: s.env });
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/R\$ [\d.]+,\d\d/);
    const raw = await json<Record<string, unknown>>(s, ['balance', '--fields', 'disponiblePixBalance']);
    expect(Object.keys(raw)).toEqual(['disponiblePixBalance']);
    expect(typeof raw.disponiblePixBalance).toBe('number');
  });

  needsTools('script')('withdrawals list: table, JSON, csv with --fields', async () => {
    const table = await runCliInTerminal(['withdrawals', 'list', '--limit', '5'], { env: s.env });
    expect(table.code).toBe(0);
    // Finance's columns (how much, where it went, its status and when); net and method where there is room.
    expect(plain(table.stdout)).toMatch(/^ID\s+AMOUNT\s+(NET\s+)?(METHOD\s+)?DESTINATION\s+STATUS\s+CREATED AT$/m);
    expect(table.stderr).toContain('withdrawals of the main account');
    const list = await json<unknown[]>(s, ['withdrawals', 'list', '--limit', '5']);
    expect(list.length).toBeGreaterThan(0);
    const csv = await s.run(['withdrawals', 'list', '--limit', '3', '-o', 'csv', '--fields', 'id,amount,status']);
    expect(csv.stdout.split('\n')[0]).toBe('id,amount,status');
    expect(csv.stdout.trim().split('\n')).toHaveLength(4);
  });

  needsTools('script')('withdrawals get: table', async () => {
    const [first] = await json<Array<{ id: string }>>(s, ['withdrawals', 'list', '--limit', '1']);
    const table = await runCliInTerminal(['withdrawals', 'get', first!.id], { env: s.env });
    expect(table.code).toBe(0);
    expect(table.stdout).toContain(first!.id);
    expect(table.stdout).toMatch(/R\$ /);
  });
});

describe('bank-accounts', () => {
  needsTools('script')('list and get: table and JSON, in the account context', async () => {
    const table = await runCliInTerminal(['bank-accounts', 'list'], { env: s.env });
    expect(plain(table.stdout)).toMatch(/^ID\s+HOLDER\s+BANK\s+BRANCH\s+ACCOUNT/m);
    expect(table.stdout).toContain(String(bank));
    const got = await json<{ accountNumber: string }>(s, ['bank-accounts', 'get', String(bank)]);
    expect(got).toMatchObject({ id: bank, status: 'APPROVED' });
    const getTable = await runCliInTerminal(['bank-accounts', 'get', String(bank), '--fields', 'holderName,accountNumber'], { env: s.env });
    expect(getTable.stdout).toContain(got.accountNumber);
    const inSub = await json<Array<{ id: number }>>(s, ['bank-accounts', 'list', ...SUB()]);
    expect(inSub.map((a) => a.id)).not.toContain(bank);
    const wrongContext = await s.run(['bank-accounts', 'get', String(bank), ...SUB()]);
    expect(wrongContext.code).toBe(1);
    expect(wrongContext.stderr).toContain('hint: list the bank accounts of this account: payctl bank-accounts list');
  });

  it('delete: refused without a terminal, nothing with --dry-run, gone with --yes (in a sub-account)', async () => {
    // A new sub-account's bank account has no withdrawals, so it can be deleted.
    const fresh = await createSubaccount(s, 'Loja Delete');
    const ctx = ['--subaccount', fresh];
    const target = (await json<Array<{ id: number }>>(s, ['bank-accounts', 'list', ...ctx]))[0]!.id;
    const run = (args: string[]) => s.run([...args, ...ctx]);
    const refused = await run(['bank-accounts', 'delete', String(target)]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('refused without confirmation');
    const dry = await run(['bank-accounts', 'delete', String(target), '--dry-run']);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain(`DELETE ${s.sandbox.url}/bank_accounts/${target}`);
    expect(dry.stdout).toContain(`x-subaccount-id: ${fresh}`);
    expect(dry.stderr).toContain('cannot be undone');
    expect(dry.stderr).toMatch(new RegExp(`account: +sub-account Loja Delete \\(${fresh}\\)`));
    parsed(await run(['bank-accounts', 'get', String(target), '--json']));
    const deleted = await run(['bank-accounts', 'delete', String(target), '--yes', '--json']);
    expect(parsed(deleted)).toHaveProperty('message');
    const gone = await run(['bank-accounts', 'get', String(target)]);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toContain('returnCode -7100');
  });

  it('delete: an account with PENDING withdrawals is an API refusal', async () => {
    const result = await s.run(['bank-accounts', 'delete', String(bank), '--yes']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/returnCode -7106/);
  });
});
