import type { Context } from '../context.js';
import { ExitCode, PayctlError, usageError } from '../errors.js';
import type { View } from '../output/views.js';
import {
  describeOptions,
  flagOf,
  longFlag,
  parseOptions,
  textOf,
  TRAIT_FLAGS,
  type Completion,
  type Flags,
  type OptionDef,
  type OptionDefs,
  type OptionSpec,
  type OptionValues,
  type ValueOption,
} from '../flags.js';
import { fieldPrompt, type FieldPrompt, type Requirement } from '../prompt.js';
import type { Parser } from '../validation/flags.js';
import { isIdPrefix, parseId, rememberShownIds, resolveShownId } from '../config/shown-ids.js';

/**
 * A command as data, typed end to end: its arguments and options carry the
 * parsers of src/validation/flags.ts, so the parser (src/main/program.ts), `--help`, the
 * completion scripts and the command's code all read one declaration, and the
 * code receives values already parsed, typed from the declaration
 * (`Invocation<typeof spec>`). The code behind a command is loaded only when it runs.
 * The kinds of option, and the options every command takes, are src/flags.ts's;
 * a command's declaration takes them from here with the rest.
 */
export {
  asText,
  flagOf,
  longFlag,
  repeatedOption,
  switchOption,
  textOption,
  valueOption,
  type OptionDefs,
  type OptionSpec,
  type OptionValues,
  type ValueOption,
} from '../flags.js';

/** A positional argument: `name` as help shows it (`<split-id>`), in capitals in messages (`SPLIT_ID`). */
export interface ArgDef<T = unknown, Optional extends boolean = boolean> {
  readonly name: string;
  readonly description: string;
  readonly parse: Parser<T>;
  readonly optional: Optional;
  /**
   * Required, but picked from a list at a terminal when missing (the command asks,
   * through `needArg`); without one, a missing value is exit 2 naming the argument.
   */
  readonly picked?: boolean;
  /** Takes every remaining word (`help subs list`); the value is the list of them, each parsed. */
  readonly variadic?: boolean;
  /** Values offered by completion and checked by the parser. */
  readonly choices?: readonly string[];
  /** Values offered by completion only, where the parser accepts more (any case). */
  readonly values?: readonly string[];
  readonly complete?: Completion;
}

type ArgExtras = Pick<ArgDef, 'choices' | 'values' | 'complete'>;

export const arg = <T>(name: string, description: string, parse: Parser<T>, extras: ArgExtras = {}): ArgDef<T, false> => ({
  name,
  description,
  parse,
  optional: false,
  ...extras,
});

export const optionalArg = <T>(name: string, description: string, parse: Parser<T>, extras: ArgExtras = {}): ArgDef<T, true> => ({
  name,
  description,
  parse,
  optional: true,
  ...extras,
});

/** An id the command picks from a list at a terminal when it is missing (`subs cancel` with no id). */
export const pickedArg = <T>(name: string, description: string, parse: Parser<T>, extras: ArgExtras = {}): ArgDef<T, true> => ({
  name,
  description,
  parse,
  optional: true,
  picked: true,
  ...extras,
});

/** Every remaining word of the command line, each parsed (`payctl help subs list`). */
export const restArgs = <T>(name: string, description: string, parse: Parser<T>): ArgDef<T[], true> => ({
  name,
  description,
  parse: (label, raw) => [parse(label, raw)],
  optional: true,
  variadic: true,
});

/** What a command declares. */
export interface CommandDefinition {
  readonly name: string;
  readonly summary: string;
  readonly description?: string;
  readonly args?: readonly ArgDef[];
  readonly options?: OptionDefs;
  readonly examples?: readonly string[];
  /**
   * The view its output is shown with: `--fields` is checked against it before the command
   * runs. A command without one takes no `--fields`, unless it has `anyFields`.
   */
  readonly view?: View;
  /** Takes `--fields` as any dot paths of what it prints, applied by its own code (`api`, whose answers have no view). */
  readonly anyFields?: boolean;
  /** Takes `--subaccount` and `--main-account` (the route accepts x-subaccount-id). */
  readonly accountContext?: boolean;
  /** Changes data: takes `--dry-run`. */
  readonly changesData?: boolean;
  /** Asks before acting: takes `--yes`. */
  readonly confirms?: boolean;
  /** Options that cannot be given together, and why (`--amount and --percentage cannot be used together: …`). */
  readonly exclusive?: ReadonlyArray<{ readonly options: readonly string[]; readonly reason: string }>;
  /** An option that makes this command another one: `withdraw pix --from-csv FILE` is `withdraw batch FILE --method pix`. */
  readonly respelling?: Respelling;
}

export interface Respelling {
  /** The option's key. */
  readonly option: string;
  /** The words that replace this command's name, given the option's value. */
  readonly as: (value: string) => readonly string[];
}

/** Declares a command; `const` keeps its literal shape, from which its code's input is typed. */
export const defineCommand = <const S extends CommandDefinition>(definition: S & KeysOf<S>): S => definition;

/** The keys `exclusive` and `respelling` name must be options of the command. */
type KeysOf<S extends CommandDefinition> = {
  readonly exclusive?: ReadonlyArray<{ readonly options: ReadonlyArray<keyof OptionsOf<S> & string>; readonly reason: string }>;
  readonly respelling?: { readonly option: keyof OptionsOf<S> & string };
};

type OptionsOf<S extends CommandDefinition> = S extends { readonly options: infer O extends OptionDefs } ? O : Record<never, OptionDef>;
type ArgsOf<S extends CommandDefinition> = S extends { readonly args: infer A extends readonly ArgDef[] } ? A : readonly [];
type ViewOf<S extends CommandDefinition> = S extends { readonly view: infer V extends View } ? V : undefined;

export type ArgValues<A extends readonly ArgDef[]> = {
  readonly [I in keyof A]: A[I] extends ArgDef<infer T, infer Optional> ? (Optional extends true ? T | undefined : T) : never;
};

/** Keys of the options that take one value, those a prompt can fill in. */
export type ValueKeys<O extends OptionDefs> = { [K in keyof O]: O[K] extends ValueOption<unknown> ? K : never }[keyof O] & string;
type Parsed<D> = D extends ValueOption<infer T> ? T : never;

/** What a command's code receives: its context and its input, parsed and typed from its definition. */
export interface Invocation<S extends CommandDefinition> extends Context {
  readonly name: S['name'];
  /** payctl's commands, for those that describe them (`help`, `completion`). */
  readonly program: Program;
  /** The view the command's output is shown with. */
  readonly view: ViewOf<S>;
  readonly args: ArgValues<ArgsOf<S>>;
  readonly opts: OptionValues<OptionsOf<S>>;
  /** An option's flag as users type it, for messages: `--bank-account`. */
  flag(key: keyof OptionsOf<S> & string): string;
  /**
   * A required value of an option: as given, or asked for when prompting is
   * allowed (see resolveRequired). What `ask` returns goes through the option's
   * parser, as the flag's value would.
   */
  need<K extends ValueKeys<OptionsOf<S>>>(key: K, ask: (field: FieldPrompt) => Promise<string>): Requirement<Parsed<OptionsOf<S>[K]>>;
  /**
   * A picked argument (`pickedArg`): as given, or asked for when prompting is allowed
   * (see resolveRequired), usually from a pick list; what `ask` returns goes through
   * the argument's parser. Without a terminal a missing one is exit 2 naming it.
   */
  needArg<I extends number>(index: I, ask: (field: FieldPrompt) => Promise<string>): Requirement<NonNullable<ArgValues<ArgsOf<S>>[I]>>;
  /** `--yes`, when the command confirms and the run has neither it nor `--dry-run`: a run without a terminal needs it too. */
  readonly unconfirmed: string | undefined;
  /** Writes one resource with the command's view. */
  print(item: unknown): Promise<void>;
}

/** The code of a command: `export async function run(invocation: Invocation<typeof spec>)`. */
export interface VerbModule<S extends CommandDefinition> {
  run(invocation: Invocation<S>): Promise<void>;
}

/** What commander collected, before parsing: option values by key, arguments in order. */
export interface RawInput {
  readonly args: readonly unknown[];
  readonly opts: Readonly<Record<string, unknown>>;
}

/**
 * payctl's commands as main has them, handed to a command's code as cobra hands a
 * command its root: `help` and `completion` describe the tree they are part of
 * without importing it.
 */
export interface Program {
  /** Every command of payctl. */
  commands(): Promise<readonly CommandSpec[]>;
  /** Writes what `payctl WORDS… --help` prints; words that name no command are a usage error. */
  printHelp(words: readonly string[]): Promise<void>;
}

/** A command's code, loaded: parses its input (exit 2 naming the flag, nothing sent), checks `--fields`, runs. */
export interface CommandModule {
  run(ctx: Context, raw: RawInput, program: Program): Promise<void>;
}

/**
 * A node of the command tree: a group (with subcommands) or a command (with
 * `load`). Read by the parser, the help, the completion scripts and the build.
 */
export interface CommandSpec extends CommandDefinition {
  readonly load?: () => Promise<CommandModule>;
  readonly subcommands?: readonly CommandSpec[];
}

/** A command of the tree: its definition and the code that runs it, loaded on first use. */
export function command<S extends CommandDefinition>(definition: S, load: () => Promise<VerbModule<S>>): CommandSpec {
  return {
    ...definition,
    load: async () => {
      const verb = await load();
      return { run: (ctx, raw, program) => verb.run(invocationOf(definition, ctx, raw, program)) };
    },
  };
}

/** A group of commands; its help shows `examples`, a few common runs of its commands. */
export const group = (name: string, summary: string, subcommands: readonly CommandSpec[], examples: readonly string[] = []): CommandSpec => ({
  name,
  summary,
  subcommands,
  examples,
});

/** Another name for a command where the API's own word differs (`subscriptions` for `subs`): the same command, saying so in help. */
export const aliasOf = (spec: CommandSpec, name: string, longForm: string): CommandSpec => ({
  ...spec,
  name,
  summary: `Same as payctl ${longForm}: ${spec.summary.charAt(0).toLowerCase()}${spec.summary.slice(1)}`,
  description: undefined,
});

/** An argument as messages name it: `split-id` is `SPLIT_ID`. */
export const argLabel = (arg: ArgDef): string => arg.name.toUpperCase().replace(/-/g, '_');

function parseArgs<A extends readonly ArgDef[]>(defs: A, raw: readonly unknown[]): ArgValues<A> {
  const parsed: unknown[] = defs.map((def, i) => {
    const value = raw[i];
    if (def.variadic) return (Array.isArray(value) ? value : []).flatMap((word) => def.parse(argLabel(def), textOf(argLabel(def), word)) as unknown[]);
    if (value === undefined) {
      if (def.optional) return undefined;
      throw usageError(`missing argument ${argLabel(def)}`);
    }
    return def.parse(argLabel(def), textOf(argLabel(def), value));
  });
  return parsed as ArgValues<A>;
}

/** The command's option `key`: keys are typed as its options, so a missing one is a mistake in payctl itself. */
function optionOf(definition: CommandDefinition, key: string): OptionDef {
  const option = definition.options?.[key];
  if (!option) throw new PayctlError(`${definition.name} has no option ${key}`, ExitCode.internalError);
  return option;
}

function refuseTogether(definition: CommandDefinition, opts: RawInput['opts']): void {
  for (const { options, reason } of definition.exclusive ?? []) {
    const given = options.filter((key) => opts[key] !== undefined && opts[key] !== false);
    if (given.length > 1) {
      const flags = given.map((key) => flagOf(key, optionOf(definition, key)));
      throw usageError(`${flags.join(' and ')} cannot be used together: ${reason}`);
    }
  }
}

/**
 * A dry run prints the requests it would send (as text, or with -o json or ndjson), not the
 * command's output: a choice of that output's fields, or a csv or tsv of it, would be ignored.
 */
function refuseOutputChoicesOfDryRun(flags: Context['services']['flags']): void {
  const dryRun = longFlag('dryRun' satisfies keyof Flags);
  const prints = `a dry run prints the requests it would send, as text or with ${longFlag('output' satisfies keyof Flags)} json or ndjson`;
  if (flags.fields !== undefined) throw usageError(`${longFlag('fields' satisfies keyof Flags)} cannot be used with ${dryRun}: ${prints}`);
  if (flags.output === 'csv' || flags.output === 'tsv' || flags.output === 'xlsx') {
    throw usageError(`${longFlag('output' satisfies keyof Flags)} ${flags.output} cannot be used with ${dryRun}: ${prints}`);
  }
}

/**
 * A value of `parseId` that is the first characters of an id, as the one id payctl has
 * shown that begins with them (a usage error when none or several do); any other value as it is.
 */
const fullId = <T>(ctx: Context, parse: Parser<T>, label: string, value: T): T =>
  parse === (parseId as Parser<unknown>) && typeof value === 'string' && isIdPrefix(value) ? (resolveShownId(ctx.services, label, value) as T) : value;

/** Arguments and options given as the first characters of an id, resolved before the command runs (and before anything is sent). */
function resolveIds(ctx: Context, definition: CommandDefinition, args: unknown[], opts: Record<string, unknown>): void {
  (definition.args ?? []).forEach((def, i) => {
    if (!def.variadic) args[i] = fullId(ctx, def.parse, argLabel(def), args[i]);
  });
  for (const [key, option] of Object.entries(definition.options ?? {})) {
    if (option.kind === 'value') opts[key] = fullId(ctx, option.parse, flagOf(key, option), opts[key]);
  }
}

function invocationOf<S extends CommandDefinition>(definition: S, ctx: Context, raw: RawInput, program: Program): Invocation<S> {
  const declared: OptionDefs = definition.options ?? {};
  refuseTogether(definition, raw.opts);
  const args = parseArgs((definition.args ?? []) as ArgsOf<S>, raw.args);
  const opts = parseOptions(declared as OptionsOf<S>, raw.opts);
  resolveIds(ctx, definition, args as unknown as unknown[], opts as Record<string, unknown>);
  ctx.io.output.onIdsShown ??= async (ids) => rememberShownIds(ctx.services, ids);
  // Before anything is asked or sent, so that a bad --fields (or csv separator) costs nothing.
  if (ctx.services.flags.dryRun) refuseOutputChoicesOfDryRun(ctx.services.flags);
  if (definition.view) ctx.io.output.fieldsFor(definition.view);
  else if (!definition.anyFields && ctx.services.flags.fields !== undefined) {
    throw usageError(`${longFlag('fields' satisfies keyof Flags)} cannot be used with this command: it has no fields to choose from`);
  }
  const flag = (key: keyof OptionsOf<S> & string) => flagOf(key, optionOf(definition, key));
  const view = definition.view as ViewOf<S>;
  return {
    ...ctx,
    program,
    name: definition.name,
    view,
    args,
    opts,
    flag,
    unconfirmed: definition.confirms && !ctx.services.flags.yes && !ctx.services.flags.dryRun ? longFlag('yes' satisfies keyof Flags) : undefined,
    need: (key, ask) => {
      const option = optionOf(definition, key);
      if (option.kind !== 'value') throw new PayctlError(`${key} takes no value to ask for`, ExitCode.internalError);
      const name = flag(key);
      return {
        flag: name,
        value: opts[key] as Parsed<OptionsOf<S>[typeof key]> | undefined,
        ask: async (prompter) =>
          fullId(ctx, option.parse, name, option.parse(name, await ask(fieldPrompt(prompter, name, option.parse)))) as Parsed<OptionsOf<S>[typeof key]>,
      };
    },
    needArg: (index, ask) => {
      const def = (definition.args ?? [])[index];
      if (!def?.picked) throw new PayctlError(`argument ${index} of ${definition.name} is not picked when missing`, ExitCode.internalError);
      const label = argLabel(def);
      type Value = NonNullable<ArgValues<ArgsOf<S>>[typeof index]>;
      return {
        flag: label,
        argument: true,
        value: (args as readonly unknown[])[index] as Value | undefined,
        ask: async (prompter) => fullId(ctx, def.parse, label, def.parse(label, await ask(fieldPrompt(prompter, label, def.parse)))) as Value,
      };
    },
    print: (item) => ctx.io.output.item(view, item),
  };
}

/** Every command of a tree with its path, each group before its subcommands. */
export interface PlacedCommand {
  path: string[];
  spec: CommandSpec;
}

export function everyCommand(specs: readonly CommandSpec[], prefix: readonly string[] = []): PlacedCommand[] {
  return specs.flatMap((spec) => {
    const path = [...prefix, spec.name];
    return [{ path, spec }, ...everyCommand(spec.subcommands ?? [], path)];
  });
}

/** A command's own options, then those of its traits. */
export function optionsOf(spec: CommandSpec): OptionSpec[] {
  return describeOptions({
    ...spec.options,
    ...(spec.accountContext ? TRAIT_FLAGS.accountContext : {}),
    ...(spec.confirms ? TRAIT_FLAGS.confirms : {}),
    ...(spec.changesData ? TRAIT_FLAGS.changesData : {}),
  });
}
