import { main, reportError } from './main.js';
import { COMMAND_TREE } from './commands/tree.js';
import { everyCommand } from './commands/spec.js';
import { ExitCode, PayctlError } from './errors.js';
import { processIO } from './process-io.js';
import { checkBeforeRetrying, ctrlCHandledByCommand, writesOnTheWire } from './http/writes.js';

/**
 * The bundle's entry (dist/cli.cjs). bin/payctl.js calls `run`; the build's
 * scripts/prerender.cjs calls `main` and `commandPaths`.
 */
export function run(argv: readonly string[]): void {
  process.on('SIGINT', () => interrupted(argv));
  void main(argv).then((code) => {
    process.exitCode = code;
  });
}

/**
 * Ctrl-C: exit 130 at once. A POST, PUT or DELETE already on the wire may
 * still take effect on the server, so the user is told which, and how to check.
 * A command that handles Ctrl-C itself (handleCtrlCInCommand) is left to it.
 */
function interrupted(argv: readonly string[]): void {
  if (ctrlCHandledByCommand()) return;
  const writes = writesOnTheWire();
  if (writes.length > 0) {
    const what = writes.map((write) => `${write.method} ${write.path}`).join(', ');
    const error = new PayctlError(`interrupted: the ${what} was sent and its outcome is unknown`, ExitCode.interrupted, {
      hint: writes.map(checkBeforeRetrying).join('; '),
    });
    reportError(error, processIO(), undefined, argv);
  }
  process.exit(ExitCode.interrupted);
}

/** Every command path, the root (`[]`) first: the build pre-renders their help. */
export function commandPaths(): string[][] {
  return [[], ...everyCommand(COMMAND_TREE).map((command) => command.path)];
}

export { main };
