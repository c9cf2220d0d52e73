import { withdrawalView } from '../../output/views.js';
import { parseId } from '../../config/shown-ids.js';
import { ALL_OR_PAGE, PAGING_OPTIONS } from '../shared/list.js';
import { WAIT_OPTIONS } from '../shared/wait.js';
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
    'payctl withdrawals list --all -o xlsx --out saques.xlsx     # a workbook: amounts in R$, local times',
    'payctl withdrawals list --json | jq \'.[] | select(.status == "PENDING") | .id\'',
  ],
});

export const withdrawalsGet = defineCommand({
  name: 'get',
  summary: 'Show one withdrawal: amount, net amount, status',
  description:
    'Shows a withdrawal as the API has it now. --wait reads it again until it is COMPLETED (exit 0) or FAILED (exit 1), with a status ' +
    'line at a terminal, and prints it then; after --wait-timeout seconds it stops waiting (exit 5: still PENDING). Ctrl-C stops the wait, ' +
    'not the withdrawal. A withdrawal made by a batch or by a colleague is followed the same way.',
  args: [pickedArg('id', 'withdrawal id (UUID, or its first 8 characters); picked from a list at a terminal when missing', parseId)],
  options: WAIT_OPTIONS,
  view: withdrawalView,
  accountContext: true,
  examples: [
    'payctl withdrawals get 7c6d5e4f-3a2b-4c1d-9e8f-7a6b5c4d3e2f',
    'payctl withdrawals get 7c6d5e4f-3a2b-4c1d-9e8f-7a6b5c4d3e2f --wait --wait-timeout 600',
    'payctl withdrawals get 7c6d5e4f-3a2b-4c1d-9e8f-7a6b5c4d3e2f --json | jq -r .status',
  ],
});

export const withdrawalsCommands = group('withdrawals', 'List and show withdrawals and their status', [
  command(withdrawalsList, () => import('./list.js')),
  command(withdrawalsGet, () => import('./get.js')),
], [
  'payctl withdrawals list',
  'payctl withdrawals list --all -o csv > withdrawals.csv',
  'payctl withdrawals get      # picks a withdrawal from a list',
]);
