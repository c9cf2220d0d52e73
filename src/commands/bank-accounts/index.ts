import type { CommandSpec } from '../spec.js';
import { PAGING_OPTIONS } from '../shared/list.js';

const idArg = { name: 'id', description: 'bank account id (a whole number)' };

export const bankAccountsCommands: CommandSpec = {
  name: 'bank-accounts',
  summary: 'List, show and delete the bank accounts withdrawals go to',
  subcommands: [
    {
      name: 'list',
      summary: 'List the bank accounts of the account the command runs in',
      options: PAGING_OPTIONS,
      accountContext: true,
      examples: ['payctl bank-accounts list', 'payctl bank-accounts list --main-account', 'payctl bank-accounts list --subaccount 3f2b8c1e-0d4a-4b6e-9a7c-2e5d1f0a9b3c --json'],
      load: () => import('./list.js'),
    },
    {
      name: 'get',
      summary: 'Show one bank account',
      args: [idArg],
      accountContext: true,
      examples: ['payctl bank-accounts get 12', 'payctl bank-accounts get 12 --fields holderName,bankCode,accountNumber'],
      load: () => import('./get.js'),
    },
    {
      name: 'delete',
      summary: 'Delete a bank account (cannot be undone; confirms first)',
      description: 'Delete a bank account. It cannot be undone. payctl shows the account and where it belongs and asks (default No); --yes skips the question.',
      args: [idArg],
      accountContext: true,
      confirms: true,
      changesData: true,
      examples: ['payctl bank-accounts delete 12', 'payctl bank-accounts delete 12 --yes', 'payctl bank-accounts delete 12 --subaccount 3f2b8c1e-0d4a-4b6e-9a7c-2e5d1f0a9b3c --dry-run'],
      load: () => import('./delete.js'),
    },
  ],
};
