import type { CommandSpec } from '../spec.js';

export const subaccountsCommands: CommandSpec = {
  name: 'subaccounts',
  summary: 'Choose the sub-account commands run in',
  subcommands: [
    {
      name: 'use',
      summary: "Set the profile's active sub-account: bank accounts, withdrawals and balance then run in it",
      args: [{ name: 'id', description: 'sub-account id (UUID)' }],
      examples: ['payctl subaccounts use 3f2b8c1e-0d4a-4b6e-9a7c-2e5d1f0a9b3c', 'payctl balance --main-account   # once, in the main account'],
      load: () => import('./use.js'),
    },
    {
      name: 'clear',
      summary: 'Go back to the main account',
      examples: ['payctl subaccounts clear'],
      load: () => import('./clear.js'),
    },
  ],
};
