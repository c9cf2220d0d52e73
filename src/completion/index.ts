import { GLOBAL_OPTIONS } from '../flags.js';
import { optionsOf, type CommandSpec } from '../commands/spec.js';
import { buildModel } from './model.js';
import { completionScript, type Shell } from './scripts.js';

export { SHELLS, type Shell } from './scripts.js';

/** The completion script of payctl's commands (`tree`). */
export const generateCompletion = (shell: Shell, tree: readonly CommandSpec[]): string =>
  completionScript(shell, buildModel({ tree, globalOptions: GLOBAL_OPTIONS, optionsOf }));
