import { EventEmitter } from 'node:events';
import type { Writable } from 'node:stream';
import { readCommandLine, type CommandLine } from './command-line.js';
import type { Context } from './context.js';
import { processIO, type IO } from './process-io.js';
import { ExitCode, PayctlError } from './errors.js';
import { commandTreeFor, loadCommandTree } from './commands/top-level.js';
import { parseFlags } from './flags.js';
import { checkBeforeRetrying, writesOnTheWire, type Write } from './http/writes.js';
import { Interrupts, IOStreams } from './iostreams.js';
import { Services } from './services.js';
import { CachedRunConfig } from './config/run.js';
import { SecretScrubber } from './redact.js';
import { failure, reportError } from './main/errors.js';
import { buildProgram, printHelp, respelled, VALUE_FLAGS, type CommandLoader, type CommanderInput } from './main/program.js';
import { printDryRun } from './commands/shared/dry-run.js';

/** Runs payctl with these arguments and returns the exit code; never ends the process. */
export function main(argv: readonly string[], io?: IO, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const interrupts = new Interrupts();
  return runPayctl(argv, io ?? processIO(() => interrupts.stop('output-closed')), env, interrupts);
}

/**
 * Runs one command line on these streams. Ctrl-C (through `interrupts`) stops
 * the wait for the command at once: the run ends with 130, saying which write,
 * if any, was on the wire. The command's own code is loaded only when it runs.
 *
 * In json and ndjson modes a failure's JSON line is all that goes to stderr, so
 * that `2>err.json` holds one JSON document: what the run writes there on its way
 * (notes, a confirmation's summary) is held back and written only if it
 * succeeds. Not when stderr is a terminal (a person reads it, and prompts are
 * drawn there), nor with --debug, whose lines are asked for.
 */
export async function runPayctl(argv: readonly string[], io: IO, env: NodeJS.ProcessEnv, interrupts: Interrupts): Promise<number> {
  const line = readCommandLine(argv, VALUE_FLAGS);
  const held = line.json && !io.stderrIsTTY && !line.debug ? new HeldText() : undefined;
  const code = await runHeld(line, held ? withStderr(io, held.stream) : io, io, env, interrupts);
  if (held && code === ExitCode.ok && held.text !== '') io.stderr.write(held.text);
  return code;
}

/** A run whose stderr is `runIO`'s; its failure is reported on `io`'s own stderr. */
async function runHeld(line: CommandLine, runIO: IO, io: IO, env: NodeJS.ProcessEnv, interrupts: Interrupts): Promise<number> {
  let context: Context | undefined;
  // Registered before any request, so it sees the writes on the wire before their own abort handlers settle them.
  const stopped = new Promise<Write[]>((resolve) => interrupts.signal.addEventListener('abort', () => resolve(writesOnTheWire()), { once: true }));
  const tree = await commandTreeFor(line.path[0]);
  let spelled: CommandLine;
  try {
    spelled = respelled(line, tree);
  } catch (error) {
    return reportError(error, io, undefined, line);
  }
  const program = buildProgram(tree, spelled.path, runIO, line.json, (load, raw) => {
    const flags = parseFlags(raw.globals);
    const secrets = new SecretScrubber();
    const config = new CachedRunConfig(env, flags, secrets);
    const io = new IOStreams(runIO, env, flags, interrupts, secrets, () => config.profileCsvSeparator(), line.argv);
    context = { io, services: new Services(io, config, secrets) };
    return runCommand(load, context, raw);
  });
  const ran = program.parseAsync([...spelled.argv], { from: 'user' }).then(
    () => ExitCode.ok,
    // Once the run is cut short, what the command says as it gives up is not reported: main has answered.
    (error: unknown) => (interrupts.stopped ? ExitCode.interrupted : failure(error, io, context, tree, spelled)),
  );
  const outcome = await Promise.race([ran, stopped]);
  if (typeof outcome === 'number') return outcome;
  if (interrupts.stopped === 'output-closed') return ExitCode.ok;
  return outcome.length === 0 ? ExitCode.interrupted : reportError(interruptedWrites(outcome), io, context, line);
}

/** Text written to a stream, kept until the run ends. */
class HeldText {
  text = '';
  readonly stream: Writable = asWritable(
    Object.assign(new EventEmitter(), {
      write: (chunk: string | Uint8Array) => {
        this.text += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
        return true;
      },
    }),
  );
}

const asWritable = (writer: EventEmitter): Writable => writer as Writable;

/** The same streams with another stderr (the others, read on first use, stay so). */
const withStderr = (io: IO, stderr: Writable): IO => Object.create(io, { stderr: { value: stderr } }) as IO;

async function runCommand(load: CommandLoader, ctx: Context, raw: CommanderInput): Promise<void> {
  const module = await load();
  try {
    await ctx.io.output.prepareJq();
    await module.run(ctx, raw, { commands: loadCommandTree, printHelp: (words) => printHelp(words, ctx.io) });
  } finally {
    if (!ctx.io.interrupts.stopped) await printDryRun(ctx.io, ctx.services.recorded, (text) => ctx.services.secrets.scrub(text));
    await Promise.all(ctx.services.onEnd.map((close) => close()));
  }
}

/** Ctrl-C with writes on the wire: which (the same route once, with how many), and how to check each. */
function interruptedWrites(writes: readonly Write[]): PayctlError {
  const counts = new Map<string, number>();
  for (const write of writes) counts.set(`${write.method} ${write.path}`, (counts.get(`${write.method} ${write.path}`) ?? 0) + 1);
  const what = [...counts].map(([write, count]) => (count > 1 ? `${count} × ${write}` : write)).join(', ');
  const outcome = writes.length > 1 ? 'were sent and their outcome is unknown' : 'was sent and its outcome is unknown';
  return new PayctlError(`interrupted: the ${what} ${outcome}`, ExitCode.interrupted, {
    hint: [...new Set(writes.map(checkBeforeRetrying))].join('; '),
  });
}
