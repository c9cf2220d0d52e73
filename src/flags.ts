import { ExitCode, PayctlError } from './errors.js';
import { OUTPUT_FORMATS, parseCsvSeparator } from './output/format.js';
import { parseId } from './validation/ids.js';
import { parseBaseUrl, parseChoice, parseNonEmpty, parseTimeout, type Parser } from './validation/flags.js';

/**
 * The command line's vocabulary: the kinds of option a command declares (with the
 * parsers of src/validation/flags.ts), how users spell them, how commander's values are
 * parsed, and the options every command takes (`Flags`). Below the commands, so
 * that the streams, the settings and the messages of any layer can name a flag.
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


type ValueOf<D> =
  D extends ValueOption<infer T> ? T | undefined : D extends RepeatedOption<infer T> ? T[] : D extends SwitchOption ? boolean : never;

export type OptionValues<O extends OptionDefs> = { readonly [K in keyof O]: ValueOf<O[K]> };

/** The long flag of an option's key: `bankAccount` is `--bank-account`. */
export const longFlag = (key: string): string => `--${key.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`;

/** An option's flag as users type it: a negated switch `input` is `--no-input`. */
export const flagOf = (key: string, option: OptionDef): string =>
  option.kind === 'switch' && option.negated ? `--no-${longFlag(key).slice(2)}` : longFlag(key);


/** Parses commander's values with the options' parsers; a bad value is a usage error naming the flag and the rule. */
export function parseOptions<O extends OptionDefs>(defs: O, raw: Readonly<Record<string, unknown>>): OptionValues<O> {
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
export function textOf(flag: string, raw: unknown): string {
  if (typeof raw !== 'string') throw new PayctlError(`${flag} was read as ${typeof raw}, not text`, ExitCode.internalError);
  return raw;
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


/**
 * Options every command takes, and those commands gain from their traits. Shared
 * by the parser (src/main/program.ts), the help and the completion scripts, so they never drift.
 */
export const GLOBAL_FLAGS = {
  profile: valueOption('name', 'profile to use', parseNonEmpty, { complete: 'profiles' }),
  baseUrl: valueOption('url', 'API base URL, overriding the profile', parseBaseUrl),
  output: valueOption('format', 'output format', (flag, raw) => parseChoice(flag, raw, OUTPUT_FORMATS), { short: '-o', choices: OUTPUT_FORMATS }),
  json: switchOption('same as --output json'),
  fields: textOption('list', 'comma-separated fields or dot paths to show, in order'),
  jq: textOption('expression', 'filter the JSON output with a jq expression, in-process (no jq program needed); prints as jq -r does'),
  csvSeparator: valueOption('char', "separator of -o csv: , ; | or tab (default: the profile's csvSeparator, else ,); with ; the file starts with a BOM", parseCsvSeparator, {
    values: [',', ';', '|', 'tab'],
  }),
  out: textOption('file', 'write the workbook of -o xlsx to this file (stdout takes it only when not a terminal)', { complete: 'files' }),
  input: switchOption('never prompt; fail naming the missing flags', { negated: true }),
  color: switchOption('no colour in tables', { negated: true }),
  pager: switchOption('write long tables directly, not through the pager', { negated: true }),
  debug: switchOption('log requests and responses (redacted) to stderr'),
  timeout: valueOption('seconds', 'request timeout (default 30)', parseTimeout),
} satisfies OptionDefs;

/** A global option's flag as users type it, for messages: `--csv-separator`. */
export const globalFlag = (key: keyof typeof GLOBAL_FLAGS): string => flagOf(key, GLOBAL_FLAGS[key]);

/** Options that commands gain from their traits, in the order help lists them. */
export const TRAIT_FLAGS = {
  accountContext: {
    subaccount: valueOption('id', "run in this sub-account: its id, or its first 8 characters (default: the profile's active one)", parseId),
    mainAccount: switchOption("run in the main account, ignoring the profile's active sub-account"),
  },
  confirms: { yes: switchOption('do not ask for confirmation', { short: '-y' }) },
  changesData: { dryRun: switchOption('print the request that would be sent and send nothing') },
} satisfies Record<'accountContext' | 'confirms' | 'changesData', OptionDefs>;

/** The global and trait options of a run, parsed; a trait the command lacks reads as not given. */
export type Flags = OptionValues<typeof GLOBAL_FLAGS> &
  OptionValues<typeof TRAIT_FLAGS.accountContext> &
  OptionValues<typeof TRAIT_FLAGS.confirms> &
  OptionValues<typeof TRAIT_FLAGS.changesData>;

export function parseFlags(raw: Readonly<Record<string, unknown>>): Flags {
  return {
    ...parseOptions(GLOBAL_FLAGS, raw),
    ...parseOptions(TRAIT_FLAGS.accountContext, raw),
    ...parseOptions(TRAIT_FLAGS.confirms, raw),
    ...parseOptions(TRAIT_FLAGS.changesData, raw),
  };
}

export const GLOBAL_OPTIONS: readonly OptionSpec[] = describeOptions(GLOBAL_FLAGS);
