import type { CommandSpec } from './spec.js';

/**
 * payctl's command list: each top-level command's spec, loaded on demand, in
 * `--help`'s order. A run evaluates only the spec of the command it runs:
 * evaluating every group's (their options, fields and examples) was a few
 * milliseconds of every run.
 */
const TOP_LEVEL: Readonly<Record<string, () => Promise<CommandSpec>>> = {
  status: async () => (await import('./status/index.js')).statusCommand,
  auth: async () => (await import('./auth/index.js')).authCommands,
  login: async () => (await import('./auth/index.js')).loginAlias,
  logout: async () => (await import('./auth/index.js')).logoutAlias,
  profiles: async () => (await import('./profiles/index.js')).profilesCommands,
  subaccounts: async () => (await import('./subaccounts/index.js')).subaccountsCommands,
  cards: async () => (await import('./cards/index.js')).cardsCommands,
  customers: async () => (await import('./customers/index.js')).customersCommands,
  subs: async () => (await import('./subs/index.js')).subsCommands,
  subscriptions: async () => (await import('./subs/index.js')).subscriptionsAlias,
  'bank-accounts': async () => (await import('./bank-accounts/index.js')).bankAccountsCommands,
  withdraw: async () => (await import('./withdraw/index.js')).withdrawCommands,
  withdrawals: async () => (await import('./withdrawals/index.js')).withdrawalsCommands,
  balance: async () => (await import('./balance/index.js')).balanceCommand,
  sandbox: async () => (await import('./sandbox/index.js')).sandboxCommands,
  audit: async () => (await import('./audit/index.js')).auditCommand,
  ledger: async () => (await import('./ledger/index.js')).ledgerCommands,
  api: async () => (await import('./api/index.js')).apiCommand,
  completion: async () => (await import('./completion/index.js')).completionCommand,
  help: async () => (await import('./help/index.js')).helpCommand,
  version: async () => (await import('./help/index.js')).versionCommand,
};

/** Every command of payctl, in `--help`'s order. */
export const loadCommandTree = (): Promise<readonly CommandSpec[]> => Promise.all(Object.values(TOP_LEVEL).map((load) => load()));

/**
 * The commands a command line needs: the one its first word names, or all of
 * them when that word names none (commander then suggests the nearest) or is
 * `help` (which lists them all).
 */
export async function commandTreeFor(firstWord: string | undefined): Promise<readonly CommandSpec[]> {
  const load = firstWord !== undefined && firstWord !== 'help' && Object.hasOwn(TOP_LEVEL, firstWord) ? TOP_LEVEL[firstWord] : undefined;
  return load ? [await load()] : loadCommandTree();
}
