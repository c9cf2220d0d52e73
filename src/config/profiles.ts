import type { Services } from '../services.js';
import { usageError } from '../errors.js';
import { jwtExpiry } from '../jwt.js';
import { DEFAULT_PROFILE, DEFAULT_PROFILE_SETTINGS, updateConfig, type ConfigData, type Profile } from './store.js';

/**
 * Changes one profile under the config lock. The built-in `default` profile is
 * written out the first time it changes, with the base URL in effect (so that
 * `auth login --base-url URL` keeps working on the next run).
 */
export async function changeProfile(services: Services, name: string, change: (profile: Profile) => void): Promise<Profile> {
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

/** Ten years: an `expiresIn` beyond it is no lifetime a server means. */
const LONGEST_EXPIRES_IN_SECONDS = 10 * 365 * 24 * 3600;

/**
 * Stores a token and, when it is a JWT (or the server said), its expiry. A
 * malformed JWT throws MalformedToken before anything changes; an `expiresIn`
 * that is not a sensible number of seconds is ignored (the JWT's `exp` rules).
 */
export function setToken(profile: Profile, token: string, expiresInSeconds?: unknown): void {
  const sensible = typeof expiresInSeconds === 'number' && expiresInSeconds > 0 && expiresInSeconds <= LONGEST_EXPIRES_IN_SECONDS;
  const expiry = jwtExpiry(token) ?? (sensible ? new Date(Date.now() + expiresInSeconds * 1000) : undefined);
  profile.token = token;
  if (expiry) profile.tokenExpiresAt = expiry.toISOString();
  else delete profile.tokenExpiresAt;
}

/** What a profile shows: everything but the token itself. */
export function describeProfile(name: string, profile: Profile, current: boolean) {
  return {
    name,
    current,
    env: profile.env,
    baseUrl: profile.baseUrl,
    loggedIn: Boolean(profile.token),
    tokenExpiresAt: profile.tokenExpiresAt ?? null,
    clientId: profile.clientId ?? null,
    subaccount: profile.subaccount ?? null,
  };
}
