import { bankAccountView, messageView } from '../../output/views.js';
import { parseBankAccountRef } from '../../validation/flags.js';
import { ALL_OR_PAGE, PAGING_OPTIONS } from '../shared/list.js';
import { command, defineCommand, group, pickedArg } from '../spec.js';

const idArg = pickedArg('id', 'bank account id (a whole number); picked from a list at a terminal when missing', parseBankAccountRef);

export const bankAccountsList = defineCommand({
  name: 'list',
  summary: 'List the bank accounts of the account the command runs in',
  options: PAGING_OPTIONS,
  exclusive: [ALL_OR_PAGE],
  view: bankAccountView,
  accountContext: true,
  examples: [
    'payctl bank-accounts list',
    'payctl bank-accounts list --main-account',
    'payctl bank-accounts list --subaccount 3f2b8c1e-0d4a-4b6e-9a7c-2e5d1f0a9b3c --json',
  ],
});

export const bankAccountsGet = defineCommand({
  name: 'get',
  summary: 'Show one bank account',
  args: [idArg],
  view: bankAccountView,
  accountContext: true,
  examples: ['payctl bank-accounts get 12', 'payctl bank-accounts get 12 --fields holderName,bankCode,accountNumber'],
});

export const bankAccountsDelete = defineCommand({
  name: 'delete',
  summary: 'Delete a bank account (cannot be undone; confirms first)',
  description: 'Delete a bank account. It cannot be undone. payctl shows the account and where it belongs and asks (default No); --yes skips the question.',
  args: [idArg],
  view: messageView,
  accountContext: true,
  confirms: true,
  changesData: true,
  examples: [
    'payctl bank-accounts delete 12',
    'payctl bank-accounts delete 12 --yes',
    'payctl bank-accounts delete 12 --subaccount 3f2b8c1e-0d4a-4b6e-9a7c-2e5d1f0a9b3c --dry-run',
  ],
});

export const bankAccountsCommands = group('bank-accounts', 'List, show and delete the bank accounts withdrawals go to', [
  command(bankAccountsList, () => import('./list.js')),
  command(bankAccountsGet, () => import('./get.js')),
  command(bankAccountsDelete, () => import('./delete.js')),
], [
  'payctl bank-accounts list',
  'payctl bank-accounts get 12',
  'payctl bank-accounts delete 12 --dry-run',
]);
