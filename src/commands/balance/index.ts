import { balanceView } from '../../output/views.js';
import { command, defineCommand } from '../spec.js';

export const balance = defineCommand({
  name: 'balance',
  summary: 'Show the balances available for withdrawal, by method, and what is in processing',
  view: balanceView,
  accountContext: true,
  examples: [
    'payctl balance',
    'payctl balance --subaccount 3f2b8c1e-0d4a-4b6e-9a7c-2e5d1f0a9b3c',
    'payctl balance --json | jq .disponiblePixBalance',
    'payctl balance --jq .disponiblePixBalance',
  ],
});

export const balanceCommand = command(balance, () => import('./show.js'));
