import type { Context } from '../context.js';

export interface OptionSpec {
  /** Commander flags, e.g. `--amount <cents>`. */
  flags: string;
  description: string;
  /** Values offered by completion and checked by the parser. */
  choices?: readonly string[];
  /** Values offered by completion only, where the command accepts more (aliases, any case) and checks them itself. */
  values?: readonly string[];
  /** May be given more than once; the values arrive as an array. */
  repeatable?: boolean;
  /** Dynamic completion source. */
  complete?: 'profiles' | 'files';
}

export interface ArgSpec {
  name: string;
  description: string;
  optional?: boolean;
  choices?: readonly string[];
  /** Dynamic completion source. */
  complete?: 'profiles' | 'files';
}

export interface CommandInput {
  args: string[];
  opts: Record<string, unknown>;
}

export interface CommandModule {
  run(ctx: Context, input: CommandInput): Promise<void>;
}

/**
 * A command as data: the tree is built into commander, `--help` and the
 * completion scripts from it, and the code behind a command is loaded only when
 * that command runs.
 */
export interface CommandSpec {
  name: string;
  summary: string;
  description?: string;
  args?: readonly ArgSpec[];
  options?: readonly OptionSpec[];
  examples?: readonly string[];
  /** Takes `--subaccount` and `--main-account` (the route accepts x-subaccount-id). */
  accountContext?: boolean;
  /** Changes data: takes `--dry-run`. */
  changesData?: boolean;
  /** Asks before acting: takes `--yes`. */
  confirms?: boolean;
  load?: () => Promise<CommandModule>;
  subcommands?: readonly CommandSpec[];
}

/** A command with the words that run it (`['subs', 'add-split']`). */
export interface PlacedCommand {
  path: string[];
  spec: CommandSpec;
}

/** Every command of a tree with its path, each group before its subcommands. */
export function everyCommand(specs: readonly CommandSpec[], prefix: readonly string[] = []): PlacedCommand[] {
  return specs.flatMap((spec) => {
    const path = [...prefix, spec.name];
    return [{ path, spec }, ...everyCommand(spec.subcommands ?? [], path)];
  });
}

/** Reads one option as a string, whatever commander gave (repeated flags keep the last). */
export function optString(opts: Record<string, unknown>, key: string): string | undefined {
  const value = opts[key];
  if (Array.isArray(value)) return value.length ? String(value[value.length - 1]) : undefined;
  return value === undefined ? undefined : String(value);
}
