import type { View } from '../../output/views.js';
import { command, defineCommand, group } from '../spec.js';

export const claimsView: View = {
  noun: 'claims in flight',
  fields: ['account', 'identity', 'amount', 'state', 'user', 'host', 'file', 'since', 'runEnded'],
  columns: [
    { field: 'since', header: 'since' },
    { field: 'amount', kind: 'cents' },
    { field: 'state' },
    { field: 'user' },
    { field: 'host', hide: 2 },
    { field: 'file', hide: 1 },
    { field: 'runEnded', header: 'run ended', hide: 3 },
  ],
  kinds: { since: 'time', runEnded: 'boolean', identity: 'id', account: 'id' },
};

export const ledgerInit = defineCommand({
  name: 'init',
  summary: "Create or upgrade the tables of the profile's team ledger (PostgreSQL)",
  description:
    'Runs the migrations the ledger has not had yet, in one transaction under an advisory lock: safe to run twice, ' +
    'and from two machines at once. Exit 4 when the database does not answer.',
  examples: ['payctl ledger init', 'PAYCTL_LEDGER=postgres://ana@db.example.com/payctl payctl ledger init'],
});

export const ledgerStatusCommand = defineCommand({
  name: 'status',
  summary: 'Say which ledger the profile uses, whether it answers, its schema version and the claims in flight',
  view: claimsView,
  examples: ['payctl ledger status', 'payctl ledger status --json'],
});

export const ledgerCommands = group('ledger', "The team's shared ledger of withdrawals: claims, daily totals and audit trail", [
  command(ledgerInit, () => import('./init.js')),
  command(ledgerStatusCommand, () => import('./status.js')),
], [
  'payctl ledger init',
  'payctl ledger status',
]);
