import type { Context } from '../context.js';
import { ExitCode, PayctlError, usageError } from '../errors.js';
import type { View } from '../output/views.js';
import type { Flags } from './options.js';
import { fieldPrompt, type FieldPrompt, type Requirement } from '../prompt.js';
import type { Parser } from '../validate.js';

/**
 * A command as data, typed end to end: its arguments and options carry the
 * parsers of src/validate.ts, so the parser (src/main.ts), `--help`, the
 * completion scripts and the command's code all read one declaration, and the
 * code receives values already parsed, typed from the declaration
 * (`Invocation<typeof spec>`). The code behind a command is loaded only when it runs.
 */

/** Dynamic completion source of a value. */
export type Completion = 'profiles' | 'files';

interface OptionBase {
  readonly description: string;
  /** A one-letter spelling besides the long one, e.g. `-d`. */
  readonly short?: `-${string}`;
}

/** An option that takes a value (`--amount <cents>`), parsed into T. */
export interface ValueOption<T> extends OptionBase {
  readonly kind: 'value';
  readonly placeholder: string;
  readonly parse: Parser<T>;
  /** Values offered by completion and checked by the parser. */
  readonly choices?: readonly string[];
  /** Values offered by completion only, where the parser accepts more (aliases, any case). */
  readonly values?: readonly string[];
  readonly complete?: Completion;
}

/** An option that may be given more than once; its values arrive in order. */
export interface RepeatedOption<T> extends OptionBase {
  readonly kind: 'repeated';
  readonly placeholder: string;
  readonly parse: Parser<T>;
}

/** An option without a value: true when given (or, `negated`, spelled `--no-NAME` and false when given). */
export interface SwitchOption extends OptionBase {
  readonly kind: 'switch';
  readonly negated?: boolean;
}

export type OptionDef = ValueOption<unknown> | RepeatedOption<unknown> | SwitchOption;
/** Options by their key: the camel-case form of the long flag (`bankAccount` is `--bank-account`). */
export type OptionDefs = Readonly<Record<string, OptionDef>>;

type Extras = Pick<ValueOption<unknown>, 'short' | 'choices' | 'values' | 'complete'>;

export const valueOption = <T>(placeholder: string, description: string, parse: Parser<T>, extras: Extras = {}): ValueOption<T> => ({
  kind: 'value',
  placeholder,
  description,
  parse,
  ...extras,
});

/** A value taken as typed: checked later against other settings (a base URL, a profile name) or read as a file name. */
export const asText: Parser<string> = (_flag, raw) => raw;

export const textOption = (placeholder: string, description: string, extras: Extras = {}): ValueOption<string> =>
  valueOption(placeholder, description, asText, extras);

export const repeatedOption = <T>(placeholder: string, description: string, parse: Parser<T>, extras: Pick<OptionBase, 'short'> = {}): RepeatedOption<T> => ({
  kind: 'repeated',
  placeholder,
  description,
  parse,
  ...extras,
});

export const switchOption = (description: string, extras: Pick<SwitchOption, 'short' | 'negated'> = {}): SwitchOption => ({
  kind: 'switch',
  description,
  ...extras,
});

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

type ValueOf<D> =
  D extends ValueOption<infer T> ? T | undefined : D extends RepeatedOption<infer T> ? T[] : D extends SwitchOption ? boolean : never;

export type OptionValues<O extends OptionDefs> = { readonly [K in keyof O]: ValueOf<O[K]> };

export type ArgValues<A extends readonly ArgDef[]> = {
  readonly [I in keyof A]: A[I] extends ArgDef<infer T, infer Optional> ? (Optional extends true ? T | undefined : T) : never;
};

/** Keys of the options that take one value, those a prompt can fill in. */
export type ValueKeys<O extends OptionDefs> = { [K in keyof O]: O[K] extends ValueOption<unknown> ? K : never }[keyof O] & string;
type Parsed<D> = D extends ValueOption<infer T> ? T : never;

/** What a command's code receives: its context and its input, parsed and typed from its definition. */
export interface Invocation<S extends CommandDefinition> extends Context {
  readonly name: S['name'];
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

/** A command's code, loaded: parses its input (exit 2 naming the flag, nothing sent), checks `--fields`, runs. */
export interface CommandModule {
  run(ctx: Context, raw: RawInput): Promise<void>;
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
      return { run: (ctx, raw) => verb.run(invocationOf(definition, ctx, raw)) };
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

/** The long flag of an option's key: `bankAccount` is `--bank-account`. */
export const longFlag = (key: string): string => `--${key.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`;

/** An option's flag as users type it: a negated switch `input` is `--no-input`. */
export const flagOf = (key: string, option: OptionDef): string =>
  option.kind === 'switch' && option.negated ? `--no-${longFlag(key).slice(2)}` : longFlag(key);

/** An argument as messages name it: `split-id` is `SPLIT_ID`. */
export const argLabel = (arg: ArgDef): string => arg.name.toUpperCase().replace(/-/g, '_');

/** Parses commander's values with the options' parsers; a bad value is a usage error naming the flag and the rule. */
export function parseOptions<O extends OptionDefs>(defs: O, raw: RawInput['opts']): OptionValues<O> {
  const parsed: Record<string, unknown> = {};
  for (const [key, option] of Object.entries(defs)) parsed[key] = parseOption(flagOf(key, option), option, raw[key]);
  return parsed as OptionValues<O>;
}

function parseOption(flag: string, option: OptionDef, raw: unknown): unknown {
  switch (option.kind) {
    case 'switch':
      return option.negated ? raw !== false : raw === true;
    case 'value':
      return raw === undefined ? undefined : option.parse(flag, textOf(flag, raw));
    case 'repeated':
      return (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]).map((value) => option.parse(flag, textOf(flag, value)));
  }
}

/** Commander hands over strings; anything else is a bug in the declaration. */
function textOf(flag: string, raw: unknown): string {
  if (typeof raw !== 'string') throw new PayctlError(`${flag} was read as ${typeof raw}, not text`, ExitCode.internalError);
  return raw;
}

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

function refuseTogether(definition: CommandDefinition, opts: RawInput['opts']): void {
  for (const { options, reason } of definition.exclusive ?? []) {
    const given = options.filter((key) => opts[key] !== undefined && opts[key] !== false);
    if (given.length > 1) {
      const flags = given.map((key) => flagOf(key, definition.options![key]!));
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
  if (flags.output === 'csv' || flags.output === 'tsv') {
    throw usageError(`${longFlag('output' satisfies keyof Flags)} ${flags.output} cannot be used with ${dryRun}: ${prints}`);
  }
}

function invocationOf<S extends CommandDefinition>(definition: S, ctx: Context, raw: RawInput): Invocation<S> {
  const declared: OptionDefs = definition.options ?? {};
  refuseTogether(definition, raw.opts);
  const args = parseArgs((definition.args ?? []) as ArgsOf<S>, raw.args);
  const opts = parseOptions(declared as OptionsOf<S>, raw.opts);
  // Before anything is asked or sent, so that a bad --fields (or csv separator) costs nothing.
  if (ctx.services.flags.dryRun) refuseOutputChoicesOfDryRun(ctx.services.flags);
  if (definition.view) ctx.io.output.fieldsFor(definition.view);
  else if (!definition.anyFields && ctx.services.flags.fields !== undefined) {
    throw usageError(`${longFlag('fields' satisfies keyof Flags)} cannot be used with this command: it has no fields to choose from`);
  }
  const flag = (key: keyof OptionsOf<S> & string) => flagOf(key, declared[key]!);
  const view = definition.view as ViewOf<S>;
  return {
    ...ctx,
    name: definition.name,
    view,
    args,
    opts,
    flag,
    unconfirmed: definition.confirms && !ctx.services.flags.yes && !ctx.services.flags.dryRun ? longFlag('yes' satisfies keyof Flags) : undefined,
    need: (key, ask) => {
      const option = declared[key]!;
      if (option.kind !== 'value') throw new PayctlError(`${key} takes no value to ask for`, ExitCode.internalError);
      const name = flag(key);
      return {
        flag: name,
        value: opts[key] as Parsed<OptionsOf<S>[typeof key]> | undefined,
        ask: async (prompter) => option.parse(name, await ask(fieldPrompt(prompter, name, option.parse))) as Parsed<OptionsOf<S>[typeof key]>,
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
        ask: async (prompter) => def.parse(label, await ask(fieldPrompt(prompter, label, def.parse))) as Value,
      };
    },
    print: (item) => ctx.io.output.item(view, item),
  };
}

/** An option as commander and the completion scripts see it: its spellings (`-o, --output <format>`) and values. */
export interface OptionSpec {
  flags: string;
  description: string;
  choices?: readonly string[];
  values?: readonly string[];
  complete?: Completion;
  /** May be given more than once; the values arrive as an array. */
  repeatable?: boolean;
}

export function describeOptions(defs: OptionDefs): OptionSpec[] {
  return Object.entries(defs).map(([key, option]) => describeOption(key, option));
}

function describeOption(key: string, option: OptionDef): OptionSpec {
  const spellings = `${option.short ? `${option.short}, ` : ''}${flagOf(key, option)}`;
  if (option.kind === 'switch') return { flags: spellings, description: option.description };
  const flags = `${spellings} <${option.placeholder}>`;
  if (option.kind === 'repeated') return { flags, description: option.description, repeatable: true };
  return { flags, description: option.description, choices: option.choices, values: option.values, complete: option.complete };
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
