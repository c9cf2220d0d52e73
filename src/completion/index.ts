import { COMMAND_TREE } from '../commands/tree.js';
import { GLOBAL_OPTIONS, optionsOf } from '../commands/options.js';
import { buildModel } from './model.js';
import { completionScript, type Shell } from './scripts.js';

export { SHELLS, type Shell } from './scripts.js';

/** The completion script of payctl as it is built now. */
export const generateCompletion = (shell: Shell): string =>
  completionScript(shell, buildModel({ tree: COMMAND_TREE, globalOptions: GLOBAL_OPTIONS, optionsOf }));
