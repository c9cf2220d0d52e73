import { changeProfile } from './config/profiles.js';
import type { ConfigData } from './config/store.js';
import type { RunConfig } from './config/run.js';
import type { Notices } from './process-io.js';

/**
 * The sub-accounts a profile knows, with their names: the API has no list of
 * sub-accounts and a split or a context names one only by its id, so payctl
 * remembers, in the profile (`knownSubaccounts` in the config file), those it
 * created, was told to use, saw receiving splits, or read from the sandbox's own
 * list, with the name and status last seen. Names are what people read in
 * confirmations, pick lists and tables; the id stays beside them.
 */

/** How payctl came to know a sub-account. */
export const SEEN_AS = ['created', 'used', 'split', 'sandbox'] as const;
export type SeenAs = (typeof SEEN_AS)[number];

export interface KnownSubaccount {
  id: string;
  name?: string;
  status?: string;
  seenAs: SeenAs[];
}

/** What is learnt about one sub-account; fields left out are kept as remembered. */
export interface SubaccountSighting {
  id: string;
  name?: string;
  status?: string;
  seenAs: SeenAs;
}

type Remembered = Record<string, { name?: string; status?: string; seenAs?: SeenAs[] }>;

const isText = (value: unknown): value is string => typeof value === 'string' && value !== '';

/**
 * The profile's remembered sub-accounts. The config file is the user's to edit:
 * an entry that is not of this shape is skipped, never an error.
 */
export function knownSubaccounts(config: ConfigData, profileName: string): KnownSubaccount[] {
  const stored: unknown = (config.profiles[profileName] as { knownSubaccounts?: unknown } | undefined)?.knownSubaccounts;
  if (!stored || typeof stored !== 'object' || Array.isArray(stored)) return [];
  return Object.entries(stored as Record<string, unknown>).flatMap(([id, entry]) => {
    if (!entry || typeof entry !== 'object') return [];
    const { name, status, seenAs } = entry as Record<string, unknown>;
    return [
      {
        id,
        ...(isText(name) ? { name } : {}),
        ...(isText(status) ? { status } : {}),
        seenAs: Array.isArray(seenAs) ? SEEN_AS.filter((how) => seenAs.includes(how)) : [],
      },
    ];
  });
}

/** The remembered name of a sub-account of the profile in use, if any. */
export function subaccountName(services: RunConfig, id: string): string | undefined {
  return knownSubaccounts(services.config(), services.settings().profileName).find((known) => known.id === id)?.name;
}

/** A sub-account as people read it: `Loja Centro (3f2b8c1e-…)` when its name is known, else its id. */
export function subaccountLabel(services: RunConfig, id: string): string {
  const name = subaccountName(services, id);
  return name ? `${name} (${id})` : id;
}

/**
 * Remembers sub-accounts in the profile in use. The config is written (under its
 * lock) only when something new was learnt, so a list seen again costs no write.
 * Names are a convenience: a config that cannot be written (read-only, locked
 * too long) costs the name, not the command that learnt it (`--debug` says why).
 */
export async function rememberSubaccounts(services: RunConfig & Notices, sightings: readonly SubaccountSighting[]): Promise<void> {
  try {
    await remember(services, sightings);
  } catch (error) {
    services.debug(`sub-account names not remembered: ${(error as Error).message}`);
  }
}

async function remember(services: RunConfig & Notices, sightings: readonly SubaccountSighting[]): Promise<void> {
  const { profileName } = services.settings();
  const before = new Map(knownSubaccounts(services.config(), profileName).map((known) => [known.id, known]));
  const news = sightings.filter((seen) => {
    const known = before.get(seen.id);
    const renamed = seen.name !== undefined && seen.name !== known?.name;
    const restated = seen.status !== undefined && seen.status !== known?.status;
    return !known || !known.seenAs.includes(seen.seenAs) || renamed || restated;
  });
  if (news.length === 0) return;
  await changeProfile(services, profileName, (profile) => {
    const holder = profile as { knownSubaccounts?: unknown };
    const stored = holder.knownSubaccounts;
    const current: Remembered = stored && typeof stored === 'object' && !Array.isArray(stored) ? (stored as Remembered) : {};
    for (const seen of news) {
      const previous = current[seen.id];
      const entry = previous && typeof previous === 'object' ? previous : {};
      const seenAs = Array.isArray(entry.seenAs) ? entry.seenAs : [];
      current[seen.id] = {
        ...entry,
        ...(seen.name !== undefined ? { name: seen.name } : {}),
        ...(seen.status !== undefined ? { status: seen.status } : {}),
        seenAs: seenAs.includes(seen.seenAs) ? seenAs : [...seenAs, seen.seenAs],
      };
    }
    holder.knownSubaccounts = current;
  });
}
