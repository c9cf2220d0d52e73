import type { CommandSpec } from './spec.js';
import { authCommands } from './auth/index.js';
import { profilesCommands } from './profiles/index.js';
import { subaccountsCommands } from './subaccounts/index.js';
import { balanceCommand } from './balance/index.js';

/** Every command of payctl, in the order `--help` lists them. */
export const COMMAND_TREE: readonly CommandSpec[] = [
  authCommands,
  profilesCommands,
  subaccountsCommands,
  balanceCommand,
];
