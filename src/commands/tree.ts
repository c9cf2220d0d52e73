import type { CommandSpec } from './spec.js';
import { authCommands, loginAlias, logoutAlias } from './auth/index.js';
import { profilesCommands } from './profiles/index.js';
import { subaccountsCommands } from './subaccounts/index.js';
import { balanceCommand } from './balance/index.js';
import { cardsCommands } from './cards/index.js';
import { customersCommands } from './customers/index.js';
import { subsCommands, subscriptionsAlias } from './subs/index.js';
import { bankAccountsCommands } from './bank-accounts/index.js';
import { withdrawCommands } from './withdraw/index.js';
import { withdrawalsCommands } from './withdrawals/index.js';
import { sandboxCommands } from './sandbox/index.js';
import { apiCommand } from './api/index.js';
import { completionCommand } from './completion/index.js';
import { auditCommand } from './audit/index.js';
import { ledgerCommands } from './ledger/index.js';
import { statusCommand } from './status/index.js';
import { helpCommand, versionCommand } from './help/index.js';

/** Every command of payctl, in the order `--help` lists them. */
export const COMMAND_TREE: readonly CommandSpec[] = [
  statusCommand,
  authCommands,
  loginAlias,
  logoutAlias,
  profilesCommands,
  subaccountsCommands,
  cardsCommands,
  customersCommands,
  subsCommands,
  subscriptionsAlias,
  bankAccountsCommands,
  withdrawCommands,
  withdrawalsCommands,
  balanceCommand,
  sandboxCommands,
  auditCommand,
  ledgerCommands,
  apiCommand,
  completionCommand,
  helpCommand,
  versionCommand,
];
