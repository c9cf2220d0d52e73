import type { View } from '../../output/views.js';
import { command, defineCommand } from '../spec.js';

export const statusView: View = {
  noun: 'status',
  fields: [
    'profile', 'env', 'baseUrl', 'tokenStore', 'tokenStoreSetting', 'tokenExpiresAt', 'tokenUsable', 'tokenProblem', 'subaccount', 'subaccountName',
    'balances', 'balances.pix', 'balances.card', 'balances.boleto', 'balances.inProcessing', 'processingCount', 'failedCount', 'processing', 'failed',
  ],
  columns: [],
  kinds: {
    tokenExpiresAt: 'time', tokenUsable: 'boolean', subaccount: 'id',
    'balances.pix': 'reais', 'balances.card': 'reais', 'balances.boleto': 'reais', 'balances.inProcessing': 'reais',
  },
};

export const statusShow = defineCommand({
  name: 'status',
  summary: 'One screen: profile, environment, token, sub-account, balances, withdrawals in processing and recent failures',
  description:
    'What a person checks before moving money: the profile and its environment, where the token is kept and when it expires, the ' +
    'active sub-account, the balances, the withdrawals in processing and those that FAILED in the last 7 days (among the newest 300). ' +
    'Without a usable token it shows what is known here, then exits 3. -o json gives one object; -o tsv field and value lines.',
  view: statusView,
  accountContext: true,
  examples: ['payctl status', 'payctl status --json | jq .balances', 'payctl status --subaccount 3f2b8c1e-0d4a-4b6e-9a7c-2e5d1f0a9b3c'],
});

export const statusCommand = command(statusShow, () => import('./show.js'));
