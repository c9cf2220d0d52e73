import { everyCommand, type ArgDef, type CommandSpec, type OptionSpec } from '../commands/spec.js';

/**
 * What a shell needs to complete payctl, read off the command tree so the
 * scripts never drift from the commands: per command path, its subcommands,
 * its flags, and what each flag's value and each argument can be.
 */
export type ValueKind = { type: 'any' } | { type: 'choices'; values: readonly string[] } | { type: 'profiles' } | { type: 'files' };

export interface CompletionFlag {
  /** Every spelling, e.g. `-o` and `--output`. */
  names: [string, ...string[]];
  description: string;
  /** Undefined for a flag that takes no value. */
  value?: ValueKind;
}

export interface CompletionNode {
  /** Command words after `payctl`; empty for payctl itself. */
  path: string[];
  subcommands: Array<{ name: string; summary: string }>;
  /** Flags of this command only; the global ones are in `CompletionModel.globalFlags`. */
  flags: CompletionFlag[];
  args: Array<ValueKind | undefined>;
}

export interface CompletionModel {
  program: string;
  globalFlags: CompletionFlag[];
  nodes: CompletionNode[];
}

export interface TreeSource {
  tree: readonly CommandSpec[];
  globalOptions: readonly OptionSpec[];
  optionsOf: (spec: CommandSpec) => OptionSpec[];
}

const HELP: OptionSpec = { flags: '-h, --help', description: 'show help' };
const VERSION: OptionSpec = { flags: '-V, --version', description: 'print the version' };

function valueKind(source: { choices?: readonly string[]; values?: readonly string[]; complete?: 'profiles' | 'files' }, placeholder = ''): ValueKind {
  const values = source.choices ?? source.values;
  if (values?.length) return { type: 'choices', values };
  if (source.complete === 'profiles') return { type: 'profiles' };
  if (source.complete === 'files' || /file/i.test(placeholder)) return { type: 'files' };
  return { type: 'any' };
}

export function toFlag(option: OptionSpec): CompletionFlag {
  const [spellings = '', placeholder] = option.flags.split(/\s+(?=[<[])/);
  const [first = '', ...others] = spellings.split(/,\s*/).map((name) => name.trim());
  return {
    names: [first, ...others],
    description: option.description,
    value: placeholder === undefined ? undefined : valueKind(option, placeholder),
  };
}

const toArg = (arg: ArgDef) => (arg.choices || arg.values || arg.complete ? valueKind(arg) : undefined);

export function buildModel(source: TreeSource): CompletionModel {
  const nodes: CompletionNode[] = [
    { path: [], subcommands: source.tree.map((spec) => ({ name: spec.name, summary: spec.summary })), flags: [toFlag(VERSION)], args: [] },
    ...everyCommand(source.tree).map(({ path, spec }) => ({
      path,
      subcommands: (spec.subcommands ?? []).map((sub) => ({ name: sub.name, summary: sub.summary })),
      flags: source.optionsOf(spec).map(toFlag),
      args: (spec.args ?? []).map(toArg),
    })),
  ];
  return { program: 'payctl', globalFlags: [...source.globalOptions, HELP].map(toFlag), nodes };
}
