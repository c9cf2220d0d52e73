import type { CommandSpec } from '../spec.js';
import { PAGING_OPTIONS } from '../shared/list.js';

export const withdrawalsCommands: CommandSpec = {
  name: 'withdrawals',
  summary: 'List and show withdrawals and their status',
  subcommands: [
    {
      name: 'list',
      summary: 'List the withdrawals of the account the command runs in',
      options: PAGING_OPTIONS,
      accountContext: true,
      examples: ['payctl withdrawals list', 'payctl withdrawals list --all -o csv > withdrawals.csv', 'payctl withdrawals list --json | jq \'.[] | select(.status == "PENDING") | .id\''],
      load: () => import('./list.js'),
    },
    {
      name: 'get',
      summary: 'Show one withdrawal: amount, net amount, status',
      args: [{ name: 'id', description: 'withdrawal id (UUID)' }],
      accountContext: true,
      examples: ['payctl withdrawals get 7c6d5e4f-3a2b-4c1d-9e8f-7a6b5c4d3e2f', 'payctl withdrawals get 7c6d5e4f-3a2b-4c1d-9e8f-7a6b5c4d3e2f --json | jq -r .status'],
      load: () => import('./get.js'),
    },
  ],
};
