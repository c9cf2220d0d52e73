import { usageError } from '../errors.js';
import { urlPasswordMasked } from '../redact.js';
import type { RunConfig } from './run.js';
import { DEFAULT_PROFILE, DEFAULT_PROFILE_SETTINGS, updateConfig, type ConfigData, type Profile } from './store.js';

/**
 * Changes one profile under the config lock. The built-in `default` profile is
 * written out the first time it changes, with the base URL in effect (so that
 * `auth login --base-url URL` keeps working on the next run).
 */
export async function changeProfile(services: RunConfig, name: string, change: (profile: Profile) => void): Promise<Profile> {
  const baseUrl = services.settings().baseUrl;
  const profile = await updateConfig(services.configDir, (config) => {
    const existing = config.profiles[name] ?? (name === DEFAULT_PROFILE ? { ...DEFAULT_PROFILE_SETTINGS, baseUrl } : undefined);
    if (!existing) throw missingProfile(name, config);
    change(existing);
    config.profiles[name] = existing;
    return existing;
  });
  services.reloadConfig();
  return profile;
}

export function missingProfile(name: string, config: ConfigData) {
  return usageError(`profile "${name}" does not exist`, `profiles: ${[...new Set([DEFAULT_PROFILE, ...Object.keys(config.profiles)])].join(', ')}`);
}

/** A profile as stored, or the built-in default's settings; undefined when there is no such profile. */
export function profileOrDefault(services: RunConfig, name: string): Profile | undefined {
  return services.config().profiles[name] ?? (name === DEFAULT_PROFILE ? DEFAULT_PROFILE_SETTINGS : undefined);
}

/** What a profile shows: everything but the token itself; `tokenStore` is where the token is (or, without one, where it will go). */
export function describeProfile(name: string, profile: Profile, current: boolean) {
  return {
    name,
    current,
    env: profile.env,
    baseUrl: profile.baseUrl,
    loggedIn: Boolean(profile.token || profile.tokenInKeychain),
    tokenStore: profile.tokenInKeychain ? 'keychain' : profile.token ? 'file' : (profile.tokenStore ?? 'file'),
    tokenExpiresAt: profile.tokenExpiresAt ?? null,
    clientId: profile.clientId ?? null,
    subaccount: profile.subaccount ?? null,
    maxWithdrawal: profile.maxWithdrawal ?? null,
    maxBatchTotal: profile.maxBatchTotal ?? null,
    maxDailyTotal: profile.maxDailyTotal ?? null,
    // A ledger's URL never holds a password (profiles set refuses one), but a config file edited by hand may.
    ledger: profile.ledger === undefined ? 'local' : urlPasswordMasked(profile.ledger),
    csvSeparator: profile.csvSeparator ?? null,
  };
}
