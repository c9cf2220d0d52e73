import { EventEmitter } from 'node:events';
import type { Writable } from 'node:stream';
import { Command, CommanderError, Option } from 'commander';
import type { Context, IO } from './context.js';
import { processIO } from './process-io.js';
import { answerDetail, EXIT_CODE_TABLE, ExitCode, PayctlError, usageError } from './errors.js';
import { commandTreeFor, loadCommandTree } from './commands/top-level.js';
import { flagOf, type CommandSpec, type OptionSpec } from './commands/spec.js';
import { GLOBAL_FLAGS, GLOBAL_OPTIONS, optionsOf, parseFlags } from './commands/options.js';
import { checkBeforeRetrying, writesOnTheWire, type Write } from './http/writes.js';
import { Interrupts, IOStreams } from './iostreams.js';
import { Services } from './services.js';
import { VERSION } from './version.js';
import { printDryRun } from './output/dry-run.js';
import { jsonText, visible, visibleLines } from './output/sanitize.js';

const ENVIRONMENT_HELP = `Environment:
  PAYCTL_PROFILE      profile to use (after --profile)
  PAYCTL_BASE_URL     API base URL (after --base-url)
  PAYCTL_TOKEN        bearer token (before the profile's)
  PAYCTL_SUBACCOUNT   sub-account context (after --subaccount)
  PAYCTL_TIMEOUT      request timeout in seconds (after --timeout)
  PAYCTL_CONFIG_DIR   config folder (default $XDG_CONFIG_HOME/payctl or ~/.config/payctl)
  PAYCTL_NO_INPUT=1   never prompt (also CI=true)
  NO_COLOR, FORCE_COLOR, TERM=dumb   colour of tables
  PAYCTL_PAGER, PAGER  pager of long tables (default less -FRX; '' or cat: none)
  COLUMNS             width tables fit (default: the terminal's)`;

const HELP_WIDTH = 80;

/**
 * Whether --debug was given, read off the arguments themselves (its spelling is
 * the spec's): main asks before the flags are parsed, and when parsing them fails.
 */
const DEBUG_FLAG = flagOf('debug', GLOBAL_FLAGS.debug);
const asksForDebug = (argv: readonly string[]) => argv.includes(DEBUG_FLAG);

const EXIT_HELP = `Exit codes:\n${EXIT_CODE_TABLE.map(([code, meaning]) => `  ${String(code).padEnd(4)}${meaning}`).join('\n')}`;

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
  const asJson = wantsJson(argv);
  const held = asJson && !io.stderrIsTTY && !asksForDebug(argv) ? new HeldText() : undefined;
  const code = await runHeld(argv, held ? withStderr(io, held.stream) : io, io, env, interrupts, asJson);
  if (held && code === ExitCode.ok && held.text !== '') io.stderr.write(held.text);
  return code;
}

/** A run whose stderr is `runIO`'s; its failure is reported on `io`'s own stderr. */
async function runHeld(argv: readonly string[], runIO: IO, io: IO, env: NodeJS.ProcessEnv, interrupts: Interrupts, asJson: boolean): Promise<number> {
  let context: Context | undefined;
  // Registered before any request, so it sees the writes on the wire before their own abort handlers settle them.
  const stopped = new Promise<Write[]>((resolve) => interrupts.signal.addEventListener('abort', () => resolve(writesOnTheWire()), { once: true }));
  const tree = await commandTreeFor(commandPath(argv)[0]);
  let words: readonly string[];
  try {
    words = respelled(argv, tree);
  } catch (error) {
    return reportError(error, io, undefined, argv, asJson);
  }
  const program = buildProgram(tree, words, runIO, asJson, (load, raw) => {
    const flags = parseFlags(raw.globals);
    const streams: IOStreams = new IOStreams(runIO, env, flags, interrupts, () => services.profileCsvSeparator(), argv);
    const services: Services = new Services(streams, env, flags);
    context = { io: streams, services };
    return runCommand(load, context, raw);
  });
  const ran = program.parseAsync([...words], { from: 'user' }).then(
    () => ExitCode.ok,
    // Once the run is cut short, what the command says as it gives up is not reported: main has answered.
    (error: unknown) => (interrupts.stopped ? ExitCode.interrupted : failure(error, io, context, tree, words, asJson)),
  );
  const outcome = await Promise.race([ran, stopped]);
  if (typeof outcome === 'number') return outcome;
  if (interrupts.stopped === 'output-closed') return ExitCode.ok;
  return outcome.length === 0 ? ExitCode.interrupted : reportError(interruptedWrites(outcome), io, context, argv, asJson);
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

interface CommanderInput {
  args: readonly unknown[];
  opts: Record<string, unknown>;
  globals: Record<string, unknown>;
}

async function runCommand(load: CommandLoader, ctx: Context, raw: CommanderInput): Promise<void> {
  const module = await load();
  try {
    await ctx.io.output.prepareJq();
    await module.run(ctx, raw);
  } finally {
    if (!ctx.io.interrupts.stopped) printDryRun(ctx.io, ctx.services.recorded, (text) => ctx.services.secrets.scrub(text));
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

function failure(error: unknown, io: IO, context: Context | undefined, tree: readonly CommandSpec[], words: readonly string[], asJson: boolean): number {
  if (error instanceof CommanderError) {
    if (error.exitCode === 0) return ExitCode.ok;
    // commander has already printed its message, but in json modes, where only the JSON line is written.
    if (asJson) writeJsonError(io, commanderMessage(error, tree, words), undefined, undefined, ExitCode.usage);
    return ExitCode.usage;
  }
  return reportError(error, io, context, words, asJson);
}

/** commander's message as one line; a group run without its subcommand (commander shows the group's help) says which it takes. */
function commanderMessage(error: CommanderError, tree: readonly CommandSpec[], words: readonly string[]): string {
  if (error.code !== 'commander.help') return error.message.replace(/^error: /, '');
  let specs = tree;
  const path: string[] = [];
  for (const word of commandPath(words)) {
    const spec = specs.find((candidate) => candidate.name === word);
    if (!spec?.subcommands) break;
    path.push(word);
    specs = spec.subcommands;
  }
  return `payctl ${path.join(' ')} needs a command: ${specs.map((spec) => spec.name).join(', ')}`;
}

/** Global options that take a value: their value is not a command name. */
const VALUE_OPTIONS = new Set(GLOBAL_OPTIONS.filter((o) => o.flags.includes('<')).flatMap((o) => o.flags.split(/[ ,]+/).filter((f) => f.startsWith('-'))));

/** The positional words of the command line: the command, its subcommand, then arguments. */
function commandPath(argv: readonly string[]): string[] {
  const words: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') break;
    if (arg.startsWith('-')) {
      if (VALUE_OPTIONS.has(arg)) i++;
      continue;
    }
    words.push(arg);
  }
  return words;
}

/**
 * The command line as the command it spells: `withdraw pix --from-csv FILE …` is
 * `withdraw batch FILE … --method pix` (see `Respelling`). Other lines are left alone.
 * A flag the respelling sets is refused when given too (`--method card`): commander
 * would take the last of the two, and the command's word, not the user's, would win.
 */
function respelled(argv: readonly string[], tree: readonly CommandSpec[]): readonly string[] {
  if (argv.length === 1 && argv[0] === '-v') return ['--version'];
  let specs = tree;
  let spec: CommandSpec | undefined;
  const path: string[] = [];
  for (const word of commandPath(argv)) {
    spec = specs.find((candidate) => candidate.name === word);
    if (!spec) break;
    path.push(word);
    if (!spec.subcommands) break;
    specs = spec.subcommands;
  }
  const respelling = spec?.respelling;
  if (!spec || !respelling) return argv;
  const flag = flagOf(respelling.option, spec.options![respelling.option]!);
  const given = (name: string) => (word: string) => word === name || word.startsWith(`${name}=`);
  const at = argv.findIndex(given(flag));
  if (at < 0) return argv;
  const value = argv[at] === flag ? argv[at + 1] : argv[at]!.slice(flag.length + 1);
  if (value === undefined) return argv;
  const rest = argv.filter((_, i) => i !== at && !(argv[at] === flag && i === at + 1));
  const named = rest.indexOf(spec.name);
  const [replacement, ...tail] = respelling.as(value);
  const clash = tail.find((word) => word.startsWith('--') && rest.some(given(word)));
  if (clash) {
    const what = clash.slice(2).replace(/-/g, ' ');
    const spelled = [...path.slice(0, -1), replacement, ...tail];
    const placeholder = what.toUpperCase().replace(/ /g, '_');
    throw usageError(
      `${flag} and ${clash} cannot be used together: with ${flag} the ${what} is the command's word ` +
        `(${[...path, flag, value].join(' ')} is ${spelled.join(' ')}); nothing was sent`,
      `to choose the ${what} with ${clash}, run payctl ${spelled.map((word, i) => (spelled[i - 1] === clash ? placeholder : word)).join(' ')}`,
    );
  }
  return [...rest.slice(0, named), replacement!, ...rest.slice(named + 1), ...tail];
}

type CommandLoader = NonNullable<CommandSpec['load']>;
type Runner = (load: CommandLoader, raw: CommanderInput) => Promise<void>;

/** The program of these commands (those of `commandTreeFor`), with the one `argv` runs wired in full. */
function buildProgram(tree: readonly CommandSpec[], argv: readonly string[], io: IO, asJson: boolean, run: Runner): Command {
  const program = new Command('payctl')
    .description('Manage cards, customers, sub-accounts, subscriptions, bank accounts, withdrawals and balances of the payment platform.')
    .version(VERSION, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .helpCommand(false)
    .exitOverride()
    .showSuggestionAfterError(true)
    .configureHelp({ showGlobalOptions: true, sortSubcommands: false })
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      // commander's messages quote the arguments, which may hold text copied from an answer.
      // In json modes the run's JSON error line stands in for them.
      writeErr: (text) => (asJson ? undefined : io.stderr.write(visibleLines(text))),
      // Help is laid out for 80 columns everywhere, as gh's and git's is: the
      // same text at a terminal and in a pipe, so the build can pre-render it
      // (scripts/prerender.cjs) and `--help` need not load the bundle.
      getOutHelpWidth: () => HELP_WIDTH,
      getErrHelpWidth: () => HELP_WIDTH,
      getOutHasColors: () => false,
      getErrHasColors: () => false,
    })
    .addHelpText('after', `\n${ENVIRONMENT_HELP}\n\n${EXIT_HELP}\n\nRun 'payctl COMMAND --help' for a command's flags and examples.`);
  for (const option of GLOBAL_OPTIONS) program.addOption(toOption(option));
  const path = commandPath(argv);
  for (const spec of tree) addCommand(program, spec, path, run);
  return program;
}

function addCommand(parent: Command, spec: CommandSpec, path: readonly string[], run: Runner): void {
  const command = parent.command(spec.name).summary(spec.summary).description(spec.description ?? spec.summary);
  for (const arg of spec.args ?? []) {
    const name = `${arg.name}${arg.variadic ? '...' : ''}`;
    const argument = command.createArgument(arg.optional ? `[${name}]` : `<${name}>`, arg.description);
    if (arg.choices) argument.choices(arg.choices);
    command.addArgument(argument);
  }
  // Only the command being run is wired in full (its options, examples and
  // subcommands); the others are listed by name for help and suggestions.
  // Wiring every option of every command costs commander about 15 ms a run.
  if (path[0] !== spec.name) return;
  for (const option of optionsOf(spec)) command.addOption(toOption(option));
  if (spec.examples?.length) command.addHelpText('after', `\nExamples:\n${spec.examples.map((e) => `  $ ${e}`).join('\n')}`);
  for (const sub of spec.subcommands ?? []) addCommand(command, sub, path.slice(1), run);
  const load = spec.load;
  if (load) {
    command.action((...actionArgs: unknown[]) => {
      const self = actionArgs[actionArgs.length - 1];
      if (!(self instanceof Command)) throw new PayctlError('commander called the action without its command', ExitCode.internalError);
      return run(load, { args: self.processedArgs, opts: self.opts(), globals: self.optsWithGlobals() });
    });
  }
}

function toOption(spec: OptionSpec): Option {
  const option = new Option(spec.flags, spec.description);
  if (spec.choices) option.choices(spec.choices);
  if (spec.repeatable) option.argParser((value: string, previous: string[] | undefined) => [...(previous ?? []), value]);
  return option;
}

/** What `payctl WORDS… --help` prints, for `payctl help WORDS…`; words that name no command are a usage error. */
export async function printHelp(words: readonly string[], io: IO): Promise<void> {
  let command = buildProgram(await loadCommandTree(), words, io, false, () => Promise.resolve());
  for (const [i, word] of words.entries()) {
    const next = command.commands.find((candidate) => candidate.name() === word);
    if (!next) {
      throw usageError(`unknown command '${words.slice(0, i + 1).join(' ')}'`, `see the commands: ${['payctl', 'help', ...words.slice(0, i)].join(' ')}`);
    }
    command = next;
  }
  command.outputHelp();
}

/**
 * One line plus a hint for people; in json modes only the same as a JSON line.
 * No stack trace without --debug. Messages often carry the server's text: it is
 * made visible, so an error line is one line and cannot retitle or recolour the
 * terminal (and JSON escapes it).
 */
export function reportError(error: unknown, io: IO, ctx: Context | undefined, argv: readonly string[], asJson = wantsJson(argv)): number {
  const scrub = (text: string) => (ctx ? ctx.services.secrets.scrub(text) : text);
  const shown = (text: string) => visible(scrub(text));
  const known = error instanceof PayctlError ? error : undefined;
  const exitCode = known?.exitCode ?? ExitCode.internalError;
  const message = known?.message ?? `unexpected failure: ${error instanceof Error ? error.message : String(error)}`;
  if (asJson) {
    writeJsonError(io, scrub(message), known?.returnCode, known?.status, exitCode);
    if (asksForDebug(argv) && error instanceof Error && !known) io.stderr.write(`${visibleLines(scrub(error.stack ?? ''))}\n`);
    return exitCode;
  }
  const detail = known ? answerDetail(known) : '';
  let text = `error: ${shown(message)}${detail ? ` (${detail})` : ''}\n`;
  const hint = known?.hint ?? (known ? undefined : 'this is a bug in payctl; run again with --debug and report the output');
  if (hint) text += `hint: ${shown(hint)}\n`;
  if (asksForDebug(argv) && error instanceof Error && !known) text += `${visibleLines(scrub(error.stack ?? ''))}\n`;
  io.stderr.write(text);
  return exitCode;
}

/** Before a context exists (a parse error), the format is read off the raw arguments. */
function wantsJson(argv: readonly string[]): boolean {
  const jsonValue = /^(json|ndjson)$/;
  return argv.some(
    (arg, i) => arg === '--json' || /^--jq(=|$)/.test(arg) || /^(-o|--output)=?(json|ndjson)$/.test(arg) || ((arg === '-o' || arg === '--output') && jsonValue.test(argv[i + 1] ?? '')),
  );
}

function writeJsonError(io: IO, message: string, returnCode: number | undefined, status: number | undefined, exitCode: number): void {
  io.stderr.write(`${jsonText({ error: { message, returnCode: returnCode ?? null, status: status ?? null, exitCode } })}\n`);
}
