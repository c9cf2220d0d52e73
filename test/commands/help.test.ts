import { describe, expect, it } from 'vitest';
import { runInProcess } from '../helpers/in-process.js';

const COMMANDS = [
  'cards tokenize', 'cards get', 'customers list', 'customers get', 'customers update',
  'subaccounts create pf', 'subaccounts create pj',
  'subs list', 'subs get', 'subs update', 'subs cancel', 'subs add-split', 'subs remove-split',
  'bank-accounts list', 'bank-accounts get', 'bank-accounts delete',
  'withdraw pix', 'withdraw card', 'withdraw boleto', 'withdrawals list', 'withdrawals get', 'balance',
  'status', 'audit', 'profiles set',
];

describe.concurrent('help', () => {
  it.each(COMMANDS)('payctl %s --help has examples', async (command) => {
    const result = await runInProcess([...command.split(' '), '--help']);
    expect(result.code).toBe(0);
    const examples = result.stdout.split('\nExamples:\n')[1] ?? '';
    expect(examples.split('\n').filter((line) => line.startsWith(`  $ payctl ${command.split(' ')[0]}`)).length).toBeGreaterThan(0);
  });

  const GROUPS = ['auth', 'profiles', 'subaccounts', 'subaccounts create', 'cards', 'customers', 'subs', 'bank-accounts', 'withdraw', 'withdrawals', 'sandbox', 'ledger'];
  it.each(GROUPS)('payctl %s --help has examples of its commands', async (group) => {
    const result = await runInProcess([...group.split(' '), '--help']);
    expect(result.code).toBe(0);
    const examples = (result.stdout.split('\nExamples:\n')[1] ?? '').split('\n').filter((line) => line.startsWith(`  $ payctl ${group} `));
    expect(examples.length, result.stdout).toBeGreaterThanOrEqual(2);
  });

  it('says which confirmations cannot be undone and how sub-account receivers are offered', async () => {
    for (const command of ['subs cancel', 'subs remove-split', 'bank-accounts delete']) {
      expect((await runInProcess([...command.split(' '), '--help'])).stdout).toContain('cannot be undone');
    }
    expect((await runInProcess(['subs', 'add-split', '--help'])).stdout).toMatch(/no\s+list\s+of\s+sub-accounts[\s\S]*already\s+receiving\s+splits/);
    const pix = (await runInProcess(['withdraw', 'pix', '--help'])).stdout;
    for (const flag of ['--amount', '--bank-account', '--pix-key-type', '--pix-key', '--postback-url', '--yes', '--dry-run', '--subaccount', '--main-account'])
      expect(pix).toContain(flag);
    expect((await runInProcess(['subaccounts', 'create', 'pj', '--help'])).stdout).toMatch(/--legal-cnpj[\s\S]*--address-zipcode[\s\S]*--bank-code/);
  });
});
