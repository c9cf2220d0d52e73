import { parseInteger } from '../../validation/flags.js';
import { switchOption, valueOption, type OptionDefs } from '../spec.js';

export const DEFAULT_WAIT_SECONDS = 300;

/** --wait and --wait-timeout, for the commands that follow a withdrawal until it settles. */
export const WAIT_OPTIONS = {
  wait: switchOption('wait until the withdrawal is COMPLETED (exit 0) or FAILED (exit 1)'),
  waitTimeout: valueOption('seconds', `how long --wait waits, 1 to 86400, default ${DEFAULT_WAIT_SECONDS}; then exit 5 (still PENDING)`, (flag, raw) => parseInteger(flag, raw, 1, 86_400)),
} satisfies OptionDefs;
