import { OUTPUT_FORMATS, parseCsvSeparator } from '../output/format.js';
import { parseBaseUrl, parseChoice, parseNonEmpty, parseTimeout, parseUuid } from '../validate.js';
import {
  describeOptions,
  flagOf,
  parseOptions,
  switchOption,
  textOption,
  valueOption,
  type CommandSpec,
  type OptionDefs,
  type OptionSpec,
  type OptionValues,
  type RawInput,
} from './spec.js';


/**
 * Options every command takes, and those commands gain from their traits. Shared
 * by the parser (src/main.ts), the help and the completion scripts, so they never drift.
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
    subaccount: valueOption('id', "run in this sub-account (default: the profile's active one)", parseUuid),
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

export function parseFlags(raw: RawInput['opts']): Flags {
  return {
    ...parseOptions(GLOBAL_FLAGS, raw),
    ...parseOptions(TRAIT_FLAGS.accountContext, raw),
    ...parseOptions(TRAIT_FLAGS.confirms, raw),
    ...parseOptions(TRAIT_FLAGS.changesData, raw),
  };
}

export const GLOBAL_OPTIONS: readonly OptionSpec[] = describeOptions(GLOBAL_FLAGS);

/** A command's own options, then those of its traits. */
export function optionsOf(spec: CommandSpec): OptionSpec[] {
  return describeOptions({
    ...spec.options,
    ...(spec.accountContext ? TRAIT_FLAGS.accountContext : {}),
    ...(spec.confirms ? TRAIT_FLAGS.confirms : {}),
    ...(spec.changesData ? TRAIT_FLAGS.changesData : {}),
  });
}
