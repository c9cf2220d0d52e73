import { afterAll, beforeAll, describe, expect } from 'vitest';
import { runCliInTerminal } from '../helpers/cli.js';
import { needsTools } from '../helpers/tools.js';
import { sandboxWithdrawals, startSandboxSession, type SandboxSession } from '../helpers/sandbox.js';
import { cpf, json, plain } from '../commands/helpers.js';
import { bold } from './terminal.js';

/**
 * The real binary in a pseudo-terminal (util-linux `script`), with stderr on the
 * terminal too, so the screen holds what a person sees; answers are typed as keys.
 */
let s: SandboxSession;
/** The profile's largest withdrawal; every amount the other tests here pay is below it. */
const LIMIT = 100000;
beforeAll(async () => {
  s = await startSandboxSession('acme');
  expect((await s.run(['profiles', 'set', 'default', '--max-withdrawal', String(LIMIT)])).code).toBe(0);
});
afterAll(() => s?.close());

describe.concurrent('interactive', () => {
  needsTools('script')('withdraw pix with no flags: pick a bank account, type amount and key, see the summary, confirm', async () => {
    const [firstAccount] = await json<Array<{ id: number }>>(s, ['bank-accounts', 'list']);
    const key = cpf('390533447');
    // Counted by this key: the file's tests run at once, and only this one pays to it.
    const toKey = async () => (await sandboxWithdrawals(s)).filter((w) => w.pixKey === key);
    expect(await toKey()).toEqual([]);
    const screen = await runCliInTerminal(['withdraw', 'pix'], {
      env: s.env,
      stderrOnTerminal: true,
      steps: [
        { after: 'Bank account (main account)', send: '\r' },
        { after: 'Amount in cents', send: '2500\r' },
        { after: bold('PIX key type'), send: '\r' }, // DOCUMENT_CPF, first of the pick list
        { after: bold('PIX key'), send: `${key}\r` },
        { after: 'Withdraw R$ 25,00 now?', send: 'y\r' },
      ],
    });
    const text = plain(screen.stdout);
    expect(screen.code, text).toBe(0);
    expect(text).toContain('About to withdraw by PIX:');
    expect(text).toMatch(/amount: +R\$ 25,00 \(2500 cents\)/);
    expect(text).toMatch(/draws on: +pix balance available R\$ /);
    expect(text).toContain(`bank account ${firstAccount!.id}:`);
    expect(text).toContain(`PIX key:      DOCUMENT_CPF ${key}`);
    expect(text).toMatch(/profile: +default \(local/);
    expect(text).toMatch(/status\s+PENDING/);
    const paid = await sandboxWithdrawals(s);
    expect(paid).toContainEqual(expect.objectContaining({ amount: 2500, pixKey: key, bankAccountId: firstAccount!.id }));
    // Made exactly once.
    expect(await toKey()).toEqual([expect.objectContaining({ amount: 2500, pixKey: key, bankAccountId: firstAccount!.id })]);
  });

  needsTools('script')('withdraw pix answered No sends nothing (exit 2)', async () => {
    const [firstAccount] = await json<Array<{ id: number }>>(s, ['bank-accounts', 'list']);
    const screen = await runCliInTerminal(['withdraw', 'card', '--bank-account', String(firstAccount!.id), '--amount', '777'], {
      env: s.env,
      stderrOnTerminal: true,
      steps: [{ after: 'Withdraw R$ 7,77 now?', send: '\r' }], // default No
    });
    expect(screen.code).toBe(2);
    expect(plain(screen.stdout)).toContain('not confirmed: nothing was sent');
    const all = await sandboxWithdrawals(s);
    expect(all.length).toBeGreaterThan(0);
    expect(all.filter((w) => w.amount === 777)).toEqual([]);
  });

  needsTools('script')('stderr sent to a file: the summary and question show on the terminal, the log keeps the summary, and Yes sends once', async () => {
    const [firstAccount] = await json<Array<{ id: number }>>(s, ['bank-accounts', 'list']);
    const args = ['withdraw', 'card', '--bank-account', String(firstAccount!.id), '--amount', '1779'];
    const screen = await runCliInTerminal(args, { env: s.env, steps: [{ after: 'Withdraw R$ 17,79 now?', send: 'y\r' }] });
    expect(screen.code, screen.stderr).toBe(0);
    expect(plain(screen.stdout)).toMatch(/amount: +R\$ 17,79 \(1779 cents\)/);
    expect(screen.stderr).toMatch(/amount: +R\$ 17,79 \(1779 cents\)/);
    expect(screen.stderr).not.toContain('unexpected failure');
    expect((await sandboxWithdrawals(s)).filter((w) => w.amount === 1779)).toHaveLength(1);
  });

  needsTools('script')('stderr sent to a file: Ctrl-C at the question sends nothing (exit 130) and the log says so', async () => {
    const [firstAccount] = await json<Array<{ id: number }>>(s, ['bank-accounts', 'list']);
    const args = ['withdraw', 'card', '--bank-account', String(firstAccount!.id), '--amount', '1781'];
    const screen = await runCliInTerminal(args, { env: s.env, steps: [{ after: 'Withdraw R$ 17,81 now?', send: '\x03' }] });
    expect(screen.code, screen.stderr).toBe(130);
    expect(screen.stderr).toContain('error: interrupted: nothing was sent');
    expect((await sandboxWithdrawals(s)).filter((w) => w.amount === 1781)).toEqual([]);
  });

  needsTools('script')('at a terminal, a confirmation refused under --no-input or CI=true names that setting, not a terminal to run at', async () => {
    const [firstAccount] = await json<Array<{ id: number }>>(s, ['bank-accounts', 'list']);
    const args = ['withdraw', 'card', '--bank-account', String(firstAccount!.id), '--amount', '1783'];
    const noInput = await runCliInTerminal([...args, '--no-input'], { env: s.env, stderrOnTerminal: true });
    const ci = await runCliInTerminal(args, { env: { ...s.env, CI: 'true' }, stderrOnTerminal: true });
    for (const [refused, setting] of [[noInput, '--no-input is set'], [ci, 'CI=true is set']] as const) {
      expect(refused.code, refused.stdout).toBe(2);
      expect(plain(refused.stdout)).toContain(`hint: pass --yes to confirm (${setting})\n`);
    }
    expect((await sandboxWithdrawals(s)).filter((w) => w.amount === 1783)).toEqual([]);
  });

  needsTools('script')("an amount above the profile's --max-withdrawal is refused at its prompt, naming the limit, and asked again", async () => {
    const [firstAccount] = await json<Array<{ id: number }>>(s, ['bank-accounts', 'list']);
    const refused = 'is above the largest withdrawal profile';
    const screen = await runCliInTerminal(['withdraw', 'pix', '--bank-account', String(firstAccount!.id)], {
      env: s.env,
      stderrOnTerminal: true,
      steps: [
        { after: 'Amount in cents', send: `${LIMIT * 2}\r` },
        // The typed value stays after a refusal: erased, then a smaller one.
        { after: refused, send: `${'\x7f'.repeat(String(LIMIT * 2).length)}2600\r` },
        { after: bold('PIX key type'), send: '\r' },
        { after: bold('PIX key'), send: `${cpf('390533447')}\r` },
        { after: 'Withdraw R$ 26,00 now?', send: '\r' }, // default No
      ],
    });
    const text = plain(screen.stdout);
    expect(screen.code, text).toBe(2);
    // Refused before any other question was asked.
    expect(text.indexOf(refused)).toBeGreaterThan(-1);
    expect(text.indexOf(refused)).toBeLessThan(text.indexOf('PIX key type'));
    // The error may wrap at the terminal's width.
    expect(text.replace(/\s+/g, ' ')).toContain('R$ 2.000,00 (200000 cents) is above the largest withdrawal profile "default" allows (--max-withdrawal R$ 1.000,00 (100000 cents))');
    expect(text).toContain('not confirmed: nothing was sent');
    expect((await sandboxWithdrawals(s)).filter((w) => w.amount === LIMIT * 2 || w.amount === 2600)).toEqual([]);
  });

  needsTools('script')('cards tokenize with masked input: the typed digits never reach the screen', async () => {
    const number = '5555555555554444';
    const code = '987';
    const [customer] = await json<Array<{ id: string; email: string }>>(s, ['customers', 'list', '--limit', '1']);
    const screen = await runCliInTerminal(['cards', 'tokenize'], {
      env: s.env,
      stderrOnTerminal: true,
      steps: [
        // The customer is searched for (here by e-mail), then picked among the matches.
        { after: bold('Customer: part of the name, the e-mail or the document (or the id)'), send: `${customer!.email}\r` },
        { after: bold(`Customer matching "${customer!.email}"`), send: '\r' },
        { after: 'Holder name', send: 'ANA SOUZA\r' },
        { after: bold('Card number'), send: `${number}\r` },
        { after: 'Expiration month', send: '08\r' },
        { after: 'Expiration year', send: '2031\r' },
        { after: bold('Security code'), send: `${code}\r` },
      ],
    });
    const text = plain(screen.stdout);
    expect(screen.code, text).toBe(0);
    expect(text).toMatch(/Card number \*{16}/);
    expect(text).toMatch(/Security code \*{3}/);
    expect(text).not.toContain(number);
    expect(text).not.toContain(number.slice(4, 12));
    expect(text).not.toMatch(/Security code[^\n]*987/);
    expect(text).toMatch(/brand\s+Mastercard/);
    expect(text).toMatch(/last 4\s+4444/);
    expect(text).toContain(`for customer ${customer!.id}`);
  });
});
