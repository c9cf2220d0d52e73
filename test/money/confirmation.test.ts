import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCliInTerminal } from '../helpers/cli.js';
import { needsTools } from '../helpers/tools.js';
import { json, plain, splitReceivers } from '../commands/helpers.js';
import { csvFile, PIX_HEADER, sandboxWithdrawals } from './helpers.js';
import { startSandboxSession, type SandboxSession } from '../helpers/sandbox.js';

/**
 * What a withdrawal's confirmation shows before the question: the balance it draws
 * on against what it takes (a batch per account), and the fee and what arrives.
 * Each test has a sandbox of its own: the seeded main account's card balance is
 * R$ 12.000,00, and a test that pays changes it.
 */
let s: SandboxSession;
beforeEach(async () => {
  s = await startSandboxSession('acme');
});
afterEach(() => s?.close());

const BANK = '1001';
/** R$ 13.100,00 in three rows, against the card balance of R$ 12.000,00: the third is more than what is left. */
const cardBatch = () => csvFile('card.csv', ['amount,bank_account_id', `500000,${BANK}`, `499900,${BANK}`, `310100,${BANK}`]);
const BALANCE_LINE = /draws on: +card balance available R\$ 12\.000,00, batch total R\$ 13\.100,00\n +← less than the total: the API will refuse what it cannot cover\n/;
/** The sandbox's card fee is 2% of each row: 10000 + 9998 + 6202 cents. */
const FEE_LINES = /fee: +R\$ 262,00 \(26200 cents\), the sandbox's fee schedule\n +arrives: +R\$ 12\.838,00 \(1283800 cents\)/;

describe('the batch confirmation', () => {
  it('with --yes: the card balance against the total, warned short, the fee and what arrives; what the balance covers is paid', async () => {
    const before = new Set((await sandboxWithdrawals(s)).map((w) => w.id));
    const run = await s.run(['withdraw', 'batch', cardBatch(), '--method', 'card', '--yes', '--concurrency', '1']);
    expect(run.stderr).toMatch(BALANCE_LINE);
    expect(run.stderr).toMatch(FEE_LINES);
    // As withdraw card: warned, then sent; the platform refuses the row beyond the balance.
    expect(run.code, run.stderr).toBe(1);
    const paid = (await sandboxWithdrawals(s)).filter((w) => !before.has(w.id));
    expect(paid.map((w) => w.amount).sort()).toEqual([499900, 500000]);
  });

  needsTools('script')('at a terminal: shown before the question; No sends nothing', async () => {
    const screen = await runCliInTerminal(['withdraw', 'batch', cardBatch(), '--method', 'card'], {
      env: s.env,
      stderrOnTerminal: true,
      steps: [{ after: 'Make these 3 withdrawals now?', send: '\r' }],
    });
    const text = plain(screen.stdout);
    expect(screen.code, text).toBe(2);
    const question = text.indexOf('Make these 3 withdrawals now?');
    expect(text.slice(0, question)).toMatch(BALANCE_LINE);
    expect(text.slice(0, question)).toMatch(FEE_LINES);
    expect((await sandboxWithdrawals(s)).filter((w) => w.withdrawalPaymentType === 'CARD' && w.amount >= 310100)).toEqual([]);
  });

  it('a balance that covers the total is shown without a warning', async () => {
    const file = csvFile('small.csv', [PIX_HEADER, `1000,${BANK},email,small@example.com`]);
    const run = await s.run(['withdraw', 'batch', file, '--method', 'pix', '--dry-run']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/draws on: +pix balance available R\$ 25\.020,00, batch total R\$ 10,00\n/);
    expect(run.stderr).not.toContain('less than the total');
    expect(run.stderr).toMatch(/fee: +R\$ 0,49 \(49 cents\), the sandbox's fee schedule\n +arrives: +R\$ 9,51 \(951 cents\)/);
  });
});

describe('a single withdrawal', () => {
  it('shows the fee and what arrives before sending, and the sandbox charges exactly that', async () => {
    const run = await s.run(['withdraw', 'boleto', '--amount', '5000', '--bank-account', BANK, '--yes', '--json']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/amount: +R\$ 50,00 \(5000 cents\)\n +fee: +R\$ 0,99 \(99 cents\), the sandbox's fee schedule\n +arrives: +R\$ 49,01 \(4901 cents\)\n +draws on:/);
    expect(JSON.parse(run.stdout)).toMatchObject({ amount: 5000, liquidAmount: 4901 });
  });

  it("against a production profile: the platform's fee is not known before sending, and payctl says so", async () => {
    const profile = ['--profile', 'prod'];
    expect((await s.run(['profiles', 'add', 'prod', '--base-url', s.sandbox.url, '--env', 'production'])).code).toBe(0);
    const secret = s.sandbox.credentials.find((c) => c.clientId === 'acme')!.clientSecret;
    const login = await s.run(['auth', 'login', ...profile, '--client-id', 'acme', '--client-secret-stdin'], { input: `${secret}\n` });
    expect(login.code, login.stderr).toBe(0);
    const run = await s.run(['withdraw', 'card', ...profile, '--amount', '5000', '--bank-account', BANK, '--dry-run']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/fee: +set by the platform: what arrives \(liquidAmount\) is shown after sending\n +draws on:/);
    expect(run.stderr).not.toContain('arrives:');
  });
});

describe('a batch paying from two accounts', () => {
  it("shows each account's balance against that account's total", async () => {
    const [sub] = await splitReceivers(s);
    const subBank = (await json<Array<{ id: number }>>(s, ['bank-accounts', 'list', '--subaccount', sub!]))[0]!.id;
    const file = csvFile('two.csv', [`${PIX_HEADER},subaccount`, `1000,${BANK},email,main@example.com,`, `2500,${subBank},email,sub@example.com,${sub}`]);
    const run = await s.run(['withdraw', 'batch', file, '--method', 'pix', '--main-account', '--dry-run']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/draws on: +pix balance of the main account available R\$ 25\.020,00, batch total R\$ 10,00\n/);
    expect(run.stderr).toMatch(new RegExp(`draws on: +pix balance of the sub-account ${sub} available R\\$ [\\d.]+,\\d\\d, batch total R\\$ 25,00\\n`));
  });
});
