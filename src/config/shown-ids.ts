import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { usageError } from '../errors.js';
import type { ShownId } from '../output/format.js';
import type { Notices } from '../process-io.js';
import { isUuid } from '../rules.js';
import { clip } from '../text.js';
import type { Parser } from '../validate.js';
import type { RunConfig } from './run.js';

/**
 * The ids a profile's tables have shown, so that the first characters of one (as
 * a narrow table shows it) can stand for it in any command that takes an id. Kept
 * in `shown-ids.json` in the config folder (not the config file, which is the
 * user's to read and edit): per profile, the newest last, at most KEEP of them.
 * Like sub-account names they are a convenience: a file that cannot be read or
 * written costs the shortcut, never the command (`--debug` says why).
 */

const FILE = 'shown-ids.json';
/** A support agent's week of tables; the oldest are forgotten first. */
const KEEP = 5000;
/** A prefix shorter than what a table shows would name several ids too often to be worth remembering which. */
const MIN_PREFIX = 8;
/** How a prefix must look: the start of a UUID, dashes where a UUID has them. */
const UUID_SHAPE = 'xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx';

type Stored = Record<string, Record<string, string>>;

const fileOf = (services: RunConfig) => path.join(services.configDir, FILE);

function read(services: RunConfig): Stored {
  try {
    const stored: unknown = JSON.parse(readFileSync(fileOf(services), 'utf8'));
    return stored && typeof stored === 'object' && !Array.isArray(stored) ? (stored as Stored) : {};
  } catch {
    return {};
  }
}

const isPrefixOfUuid = (text: string) =>
  text.length >= MIN_PREFIX && text.length < UUID_SHAPE.length && [...text].every((char, i) => (UUID_SHAPE[i] === '-' ? char === '-' : /[0-9a-f]/.test(char)));

/**
 * An id as typed: a UUID, or its first 8 characters or more (resolved against the
 * ids payctl has shown by `resolveShownId` before the command runs). Lower case, as
 * the API writes ids.
 */
export const parseId: Parser<string> = (flag, raw) => {
  const text = raw.trim().toLowerCase();
  if (isUuid(text) || isPrefixOfUuid(text)) return text;
  throw usageError(
    `${flag} ${JSON.stringify(clip(raw))} is invalid: must be a UUID such as 3f2b8c1e-0d4a-4b6e-9a7c-2e5d1f0a9b3c, ` +
      `or its first ${MIN_PREFIX} characters or more as a table showed them`,
  );
};

/** Whether a value `parseId` returned stands for an id still to be found. */
export const isIdPrefix = (value: string) => !isUuid(value);

/**
 * The one id payctl has shown in this profile that begins with `prefix`; none, or
 * several, is a usage error (nothing is sent) asking for the whole id.
 */
export function resolveShownId(services: RunConfig, label: string, prefix: string): string {
  const profile = services.settings().profileName;
  const known = read(services)[profile] ?? {};
  const matches = Object.keys(known).filter((id) => id.startsWith(prefix));
  if (matches.length === 1) return matches[0]!;
  if (matches.length === 0) {
    throw usageError(`${label} "${prefix}" is unknown: no id payctl has shown in profile "${profile}" begins with it; give the full id`, 'ids are whole with --json, and in a table wide enough for them');
  }
  const listed = matches.slice(0, 3).map((id) => `${id} (${known[id]})`);
  const more = matches.length > listed.length ? `, and ${matches.length - listed.length} more` : '';
  throw usageError(`${label} "${prefix}" is ambiguous: it begins ${matches.length} ids payctl has shown in profile "${profile}": ${listed.join(', ')}${more}; give the full id`);
}

/** Remembers ids shown in this profile, the newest last. */
export function rememberShownIds(services: RunConfig & Notices, shown: readonly ShownId[]): void {
  try {
    const profile = services.settings().profileName;
    const stored = read(services);
    const known = { ...(stored[profile] ?? {}) };
    for (const { id, what } of shown) {
      delete known[id];
      known[id] = what;
    }
    const ids = Object.keys(known);
    for (const id of ids.slice(0, Math.max(0, ids.length - KEEP))) delete known[id];
    stored[profile] = known;
    // A whole file or none: another payctl reading it meanwhile never sees half of one.
    const file = fileOf(services);
    const partial = `${file}.${process.pid}.tmp`;
    writeFileSync(partial, `${JSON.stringify(stored)}\n`, { mode: 0o600 });
    renameSync(partial, file);
  } catch (error) {
    services.debug(`ids shown not remembered: ${(error as Error).message}`);
  }
}
