import { runPayctl, main } from './main.js';
import { loadCommandTree } from './commands/top-level.js';
import { everyCommand } from './commands/spec.js';
import { Interrupts } from './iostreams.js';
import { processIO } from './process-io.js';
import { resetConnections } from './http/node-fetch.js';

/**
 * The bundle's entry (dist/cli.cjs), and the only code that ends the process.
 * bin/payctl.js calls `run`; the build's scripts/prerender.cjs calls `main` and
 * `commandPaths`.
 */
export function run(argv: readonly string[]): void {
  const interrupts = new Interrupts((signal, listener) => {
    process.on(signal, listener);
    return () => process.off(signal, listener);
  });
  const io = processIO(() => interrupts.stop('output-closed'));
  void runPayctl(argv, io, process.env, interrupts).then((code) => {
    // Cut short (Ctrl-C, or stdout's reader gone): end now, whatever the command still has pending.
    if (interrupts.stopped) process.exit(code);
    process.exitCode = code;
  });
}

/** Every command path, the root (`[]`) first: the build pre-renders their help. */
export async function commandPaths(): Promise<string[][]> {
  return [[], ...everyCommand(await loadCommandTree()).map((command) => command.path)];
}

// The tests' long-lived payctl processes (test/helpers/main-worker.cjs) run `main` again and again: between runs they
// end the kept-alive connections and forget the addresses looked up, as each real process starts without them.
export { main, resetConnections };
