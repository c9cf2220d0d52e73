import { Command, CommanderError, Option } from 'commander';
import { Context, type Flags, type IO } from './context.js';
import { processIO } from './process-io.js';
import { DryRunComplete, EXIT_CODE_TABLE, ExitCode, PayctlError } from './errors.js';
import { COMMAND_TREE } from './commands/tree.js';
import type { CommandSpec, OptionSpec } from './commands/spec.js';
import { GLOBAL_OPTIONS, optionsOf } from './commands/options.js';
import { VERSION } from './version.js';
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

const EXIT_HELP = `Exit codes:\n${EXIT_CODE_TABLE.map(([code, meaning]) => `  ${String(code).padEnd(4)}${meaning}`).join('\n')}`;

/** Runs payctl with these arguments and returns the exit code; never calls process.exit. */
export async function main(argv: readonly string[], givenIO?: IO, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const io = givenIO ?? processIO();
  let context: Context | undefined;
  const program = buildProgram(argv, io, (ctx) => (context = ctx), env);
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return ExitCode.ok;
  } catch (error) {
    if (error instanceof DryRunComplete) return ExitCode.ok;
    if (error instanceof CommanderError) {
      if (error.exitCode === 0) return ExitCode.ok;
      // commander has already printed its one-line message.
      if (wantsJson(argv)) writeJsonError(io, error.message.replace(/^error: /, ''), undefined, undefined, ExitCode.usage);
      return ExitCode.usage;
    }
    return reportError(error, io, context, argv);
  }
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

function buildProgram(argv: readonly string[], io: IO, onContext: (ctx: Context) => void, env: NodeJS.ProcessEnv): Command {
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
      writeErr: (text) => io.stderr.write(visibleLines(text)),
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
  for (const spec of COMMAND_TREE) addCommand(program, spec, commandPath(argv), io, onContext, env, argv);
  return program;
}

function addCommand(parent: Command, spec: CommandSpec, path: readonly string[], io: IO, onContext: (ctx: Context) => void, env: NodeJS.ProcessEnv, argv: readonly string[]): void {
  const command = parent.command(spec.name).summary(spec.summary).description(spec.description ?? spec.summary);
  for (const arg of spec.args ?? []) {
    const argument = command.createArgument(arg.optional ? `[${arg.name}]` : `<${arg.name}>`, arg.description);
    if (arg.choices) argument.choices(arg.choices);
    command.addArgument(argument);
  }
  // Only the command being run is wired in full (its options, examples and
  // subcommands); the others are listed by name for help and suggestions.
  // Wiring every option of every command costs commander about 15 ms a run.
  if (path[0] !== spec.name) return;
  for (const option of optionsOf(spec)) command.addOption(toOption(option));
  if (spec.examples?.length) command.addHelpText('after', `\nExamples:\n${spec.examples.map((e) => `  $ ${e}`).join('\n')}`);
  for (const sub of spec.subcommands ?? []) addCommand(command, sub, path.slice(1), io, onContext, env, argv);
  const load = spec.load;
  if (load) {
    command.action(async (...actionArgs: unknown[]) => {
      const self = actionArgs[actionArgs.length - 1] as Command;
      const opts = self.optsWithGlobals() as Record<string, unknown>;
      const ctx = new Context(io, env, opts as unknown as Flags, argv);
      onContext(ctx);
      const module = await load();
      await module.run(ctx, { args: self.processedArgs.filter((a) => a !== undefined).map(String), opts: self.opts() });
    });
  }
}

function toOption(spec: OptionSpec): Option {
  const option = new Option(spec.flags, spec.description);
  if (spec.choices) option.choices(spec.choices);
  if (spec.repeatable) option.argParser((value: string, previous: string[] | undefined) => [...(previous ?? []), value]);
  return option;
}

/**
 * One line plus a hint for people; the same as JSON on stderr in JSON modes. No stack
 * trace without --debug. Messages often carry the server's text: it is made visible,
 * so an error line is one line and cannot retitle or recolour the terminal (and JSON
 * escapes it).
 */
export function reportError(error: unknown, io: IO, ctx: Context | undefined, argv: readonly string[]): number {
  const scrub = (text: string) => (ctx ? ctx.secrets.scrub(text) : text);
  const shown = (text: string) => visible(scrub(text));
  const known = error instanceof PayctlError ? error : undefined;
  const exitCode = known?.exitCode ?? ExitCode.apiRefused;
  const message = known?.message ?? `unexpected failure: ${(error as Error)?.message ?? String(error)}`;
  const detail = [known?.returnCode !== undefined ? `returnCode ${known.returnCode}` : '', known?.status ? `HTTP ${known.status}` : '']
    .filter(Boolean)
    .join(', ');
  let text = `error: ${shown(message)}${detail ? ` (${detail})` : ''}\n`;
  const hint = known?.hint ?? (known ? undefined : 'this is a bug in payctl; run again with --debug and report the output');
  if (hint) text += `hint: ${shown(hint)}\n`;
  if (argv.includes('--debug') && error instanceof Error && !known) text += `${visibleLines(scrub(error.stack ?? ''))}\n`;
  io.stderr.write(text);
  if (ctx?.output.isJson ?? wantsJson(argv)) writeJsonError(io, scrub(message), known?.returnCode, known?.status, exitCode);
  return exitCode;
}

/** Before a context exists (a parse error), the format is read off the raw arguments. */
function wantsJson(argv: readonly string[]): boolean {
  return argv.some((arg, i) => arg === '--json' || /^(-o|--output)=?(json|ndjson)$/.test(arg) || ((arg === '-o' || arg === '--output') && /^(json|ndjson)$/.test(argv[i + 1] ?? '')));
}

function writeJsonError(io: IO, message: string, returnCode: number | undefined, status: number | undefined, exitCode: number): void {
  io.stderr.write(`${jsonText({ error: { message, returnCode: returnCode ?? null, status: status ?? null, exitCode } })}\n`);
}
