import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { usageError } from '../errors.js';
import type { ShownId } from '../output/format.js';
import type { Notices } from '../process-io.js';

/**
 * The ids a profile's tables have shown, so that the first characters of one (as
 * a narrow table shows it) can stand for it in any command that takes an id. Kept
 * in `shown-ids.json` in the config folder (not the config file, which is the
 * user's to read and edit): per profile, the newest last, at most KEEP of them.
 * Like sub-account names they are a convenience: a file that cannot be read or
 * written costs the shortcut, never the command (`--debug` says why).
 */

// Id arguments and options parse with these; the prefixes they let through are resolved here.
export { isIdPrefix, parseId } from '../validation/ids.js';

const FILE = 'shown-ids.json';
/** A support agent's week of tables; the oldest are forgotten first. */
const KEEP = 5000;

type Stored = Record<string, Record<string, string>>;

/** Where the ids are kept, and whose: a run's config (RunConfig, which resolves `--subaccount` with this module) is one. */
interface ShownIdsPlace {
  readonly configDir: string;
  settings(): { profileName: string };
}

const fileOf = (configDir: string) => path.join(configDir, FILE);

function read(configDir: string): Stored {
  try {
    const stored: unknown = JSON.parse(readFileSync(fileOf(configDir), 'utf8'));
    return stored && typeof stored === 'object' && !Array.isArray(stored) ? (stored as Stored) : {};
  } catch {
    return {};
  }
}

/**
 * The one id payctl has shown in this profile that begins with `prefix`; none, or
 * several, is a usage error (nothing is sent) asking for the whole id.
 */
export const resolveShownId = (services: ShownIdsPlace, label: string, prefix: string): string =>
  shownIdIn(services.configDir, services.settings().profileName, label, prefix);

/** The ids payctl has shown in this profile that begin with `prefix`. */
export const shownIdsBeginning = (services: ShownIdsPlace, prefix: string): string[] =>
  idsBeginning(read(services.configDir)[services.settings().profileName] ?? {}, prefix);

const idsBeginning = (known: Record<string, string>, prefix: string) => Object.keys(known).filter((id) => id.startsWith(prefix));

/** `resolveShownId`, for a profile named before its settings are whole (RunConfig's `--subaccount`). */
export function shownIdIn(configDir: string, profile: string, label: string, prefix: string): string {
  const known = read(configDir)[profile] ?? {};
  const matches = idsBeginning(known, prefix);
  const [only, ...others] = matches;
  if (only !== undefined && others.length === 0) return only;
  if (only === undefined) {
    throw usageError(`${label} "${prefix}" is unknown: no id payctl has shown in profile "${profile}" begins with it; give the full id`, 'ids are whole with --json, and in a table wide enough for them');
  }
  const listed = matches.slice(0, 3).map((id) => `${id} (${known[id]})`);
  const more = matches.length > listed.length ? `, and ${matches.length - listed.length} more` : '';
  throw usageError(`${label} "${prefix}" is ambiguous: it begins ${matches.length} ids payctl has shown in profile "${profile}": ${listed.join(', ')}${more}; give the full id`);
}

/** Remembers ids shown in this profile, the newest last. */
export function rememberShownIds(services: ShownIdsPlace & Notices, shown: readonly ShownId[]): void {
  try {
    const profile = services.settings().profileName;
    const stored = read(services.configDir);
    const known = { ...(stored[profile] ?? {}) };
    for (const { id, what } of shown) {
      delete known[id];
      known[id] = what;
    }
    const ids = Object.keys(known);
    for (const id of ids.slice(0, Math.max(0, ids.length - KEEP))) delete known[id];
    stored[profile] = known;
    // A whole file or none: another payctl reading it meanwhile never sees half of one.
    const file = fileOf(services.configDir);
    const partial = `${file}.${process.pid}.tmp`;
    writeFileSync(partial, `${JSON.stringify(stored)}\n`, { mode: 0o600 });
    renameSync(partial, file);
  } catch (error) {
    services.debug(`ids shown not remembered: ${(error as Error).message}`);
  }
}
