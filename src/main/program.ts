import { Command, Option } from 'commander';
import { readCommandLine, type CommandLine } from '../command-line.js';
import { loadCommandTree } from '../commands/top-level.js';
import { optionsOf, type CommandSpec } from '../commands/spec.js';
import { EXIT_CODE_TABLE, ExitCode, PayctlError, usageError } from '../errors.js';
import { flagOf, GLOBAL_OPTIONS, type OptionSpec } from '../flags.js';
import { visibleLines } from '../output/sanitize.js';
import type { IO } from '../process-io.js';
import { VERSION } from '../version.js';

/**
 * The commander program of payctl's commands: the command line respelled as the
 * command it spells, the program built from the command tree (only the running
 * command in full), and the help.
 */

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

/** Global options that take a value: their value is not a command name (readCommandLine). */
export const VALUE_FLAGS: ReadonlySet<string> = new Set(GLOBAL_OPTIONS.filter((o) => o.flags.includes('<')).flatMap((o) => o.flags.split(/[ ,]+/).filter((f) => f.startsWith('-'))));

/**
 * The command line as the command it spells: `withdraw pix --from-csv FILE …` is
 * `withdraw batch FILE … --method pix` (see `Respelling`). Other lines are left alone.
 * A flag the respelling sets is refused when given too (`--method card`): commander
 * would take the last of the two, and the command's word, not the user's, would win.
 */
export function respelled(line: CommandLine, tree: readonly CommandSpec[]): CommandLine {
  const { argv } = line;
  if (argv.length === 1 && argv[0] === '-v') return readCommandLine(['--version'], VALUE_FLAGS);
  let specs = tree;
  let spec: CommandSpec | undefined;
  const path: string[] = [];
  for (const word of line.path) {
    spec = specs.find((candidate) => candidate.name === word);
    if (!spec) break;
    path.push(word);
    if (!spec.subcommands) break;
    specs = spec.subcommands;
  }
  const respelling = spec?.respelling;
  const option = respelling && spec?.options?.[respelling.option];
  if (!spec || !respelling || !option) return line;
  const flag = flagOf(respelling.option, option);
  const given = (name: string) => (word: string) => word === name || word.startsWith(`${name}=`);
  const at = argv.findIndex(given(flag));
  // at is -1, and word undefined, when the flag is not given
  const word = argv[at];
  if (word === undefined) return line;
  const value = word === flag ? argv[at + 1] : word.slice(flag.length + 1);
  if (value === undefined) return line;
  const rest = argv.filter((_, i) => i !== at && !(word === flag && i === at + 1));
  const named = rest.indexOf(spec.name);
  const [replacement, ...tail] = respelling.as(value);
  if (replacement === undefined) return line;
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
  return readCommandLine([...rest.slice(0, named), replacement, ...rest.slice(named + 1), ...tail], VALUE_FLAGS);
}

export interface CommanderInput {
  args: readonly unknown[];
  opts: Record<string, unknown>;
  globals: Record<string, unknown>;
}

export type CommandLoader = NonNullable<CommandSpec['load']>;
export type Runner = (load: CommandLoader, raw: CommanderInput) => Promise<void>;

/** The program of these commands (those of `commandTreeFor`), with the one `path` names wired in full. */
export function buildProgram(tree: readonly CommandSpec[], path: readonly string[], io: IO, asJson: boolean, run: Runner): Command {
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

