import { main } from './main.js';
import { COMMAND_TREE } from './commands/tree.js';
import { everyCommand } from './commands/spec.js';

/**
 * The bundle's entry (dist/cli.cjs). bin/payctl.js calls `run`; the build's
 * scripts/prerender.cjs calls `main` and `commandPaths`.
 */
export function run(argv: readonly string[]): void {
  void main(argv).then((code) => {
    process.exitCode = code;
  });
}

/** Every command path, the root (`[]`) first: the build pre-renders their help. */
export function commandPaths(): string[][] {
  return [[], ...everyCommand(COMMAND_TREE).map((command) => command.path)];
}

export { main };
