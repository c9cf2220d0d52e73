import { OUTPUT_FORMATS } from '../output/format.js';
import type { CommandSpec, OptionSpec } from './spec.js';

/**
 * Options every command takes, and those commands gain from their traits. Shared
 * by the parser (src/main.ts) and the completion scripts, so they never drift.
 */
export const GLOBAL_OPTIONS: readonly OptionSpec[] = [
  { flags: '--profile <name>', description: 'profile to use', complete: 'profiles' },
  { flags: '--base-url <url>', description: 'API base URL, overriding the profile' },
  { flags: '-o, --output <format>', description: 'output format', choices: OUTPUT_FORMATS },
  { flags: '--json', description: 'same as --output json' },
  { flags: '--fields <list>', description: 'comma-separated fields or dot paths to show, in order' },
  { flags: '--csv-separator <char>', description: "separator of -o csv: , ; | or tab (default: the profile's csvSeparator, else ,)", values: [',', ';', '|', 'tab'] },
  { flags: '--no-input', description: 'never prompt; fail naming the missing flags' },
  { flags: '--no-color', description: 'no colour in tables' },
  { flags: '--no-pager', description: 'write long tables directly, not through the pager' },
  { flags: '--debug', description: 'log requests and responses (redacted) to stderr' },
  { flags: '--timeout <seconds>', description: 'request timeout (default 30)' },
];

/** Options that commands gain from their traits. */
export const TRAIT_OPTIONS = {
  accountContext: [
    { flags: '--subaccount <id>', description: "run in this sub-account (default: the profile's active one)" },
    { flags: '--main-account', description: "run in the main account, ignoring the profile's active sub-account" },
  ],
  changesData: [{ flags: '--dry-run', description: 'print the request that would be sent and send nothing' }],
  confirms: [{ flags: '-y, --yes', description: 'do not ask for confirmation' }],
} satisfies Record<string, readonly OptionSpec[]>;

export function optionsOf(spec: CommandSpec): OptionSpec[] {
  return [
    ...(spec.options ?? []),
    ...(spec.accountContext ? TRAIT_OPTIONS.accountContext : []),
    ...(spec.confirms ? TRAIT_OPTIONS.confirms : []),
    ...(spec.changesData ? TRAIT_OPTIONS.changesData : []),
  ];
}
