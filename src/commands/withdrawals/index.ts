import { withdrawalView } from '../../output/views.js';
import { parseUuid } from '../../validate.js';
import { ALL_OR_PAGE, PAGING_OPTIONS } from '../shared/list.js';
import { command, defineCommand, group, pickedArg } from '../spec.js';

export const withdrawalsList = defineCommand({
  name: 'list',
  summary: 'List the withdrawals of the account the command runs in',
  options: PAGING_OPTIONS,
  exclusive: [ALL_OR_PAGE],
  view: withdrawalView,
  accountContext: true,
  examples: [
    'payctl withdrawals list',
    'payctl withdrawals list --all -o csv > withdrawals.csv',
    'payctl withdrawals list --json | jq \'.[] | select(.status == "PENDING") | .id\'',
  ],
});

export const withdrawalsGet = defineCommand({
  name: 'get',
  summary: 'Show one withdrawal: amount, net amount, status',
  args: [pickedArg('id', 'withdrawal id (UUID); picked from a list at a terminal when missing', parseUuid)],
  view: withdrawalView,
  accountContext: true,
  examples: [
    'payctl withdrawals get 7c6d5e4f-3a2b-4c1d-9e8f-7a6b5c4d3e2f',
    'payctl withdrawals get 7c6d5e4f-3a2b-4c1d-9e8f-7a6b5c4d3e2f --json | jq -r .status',
  ],
});

export const withdrawalsCommands = group('withdrawals', 'List and show withdrawals and their status', [
  command(withdrawalsList, () => import('./list.js')),
  command(withdrawalsGet, () => import('./get.js')),
]);
