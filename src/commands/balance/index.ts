import type { CommandSpec } from '../spec.js';

export const balanceCommand: CommandSpec = {
  name: 'balance',
  summary: 'Show the balances available for withdrawal, by method, and what is in processing',
  accountContext: true,
  examples: [
    'payctl balance',
    'payctl balance --subaccount 3f2b8c1e-0d4a-4b6e-9a7c-2e5d1f0a9b3c',
    'payctl balance --json | jq .disponiblePixBalance',
  ],
  load: () => import('./show.js'),
};
