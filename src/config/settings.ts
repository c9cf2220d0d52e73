import { ExitCode, PayctlError, usageError } from '../errors.js';
import { jwtExpiry } from '../jwt.js';
import { parseUuid } from '../validate.js';
import { DEFAULT_PROFILE, DEFAULT_PROFILE_SETTINGS, type ConfigData, type Environment, type Profile } from './store.js';

/** The command that logs this profile in, for hints. */
export const loginCommand = (profileName: string): string =>
  profileName === DEFAULT_PROFILE ? 'payctl auth login' : `payctl auth login --profile ${profileName}`;

/** Where a resolved value came from, shown by `auth status` and `profiles show`. */
export type Source = 'flag' | 'env' | 'profile' | 'default';

export interface SettingsFlags {
  profile?: string;
  baseUrl?: string;
  timeout?: string;
  subaccount?: string;
  mainAccount?: boolean;
}

export interface Settings {
  profileName: string;
  profileSource: Source;
  /** The stored profile, or undefined for the built-in default. */
  profile: Profile | undefined;
  baseUrl: string;
  baseUrlSource: Source;
  env: Environment;
  token?: string;
  tokenSource?: Source;
  tokenExpiresAt?: Date;
  subaccount?: string;
  subaccountSource?: Source;
  timeoutMs: number;
}

const DEFAULT_TIMEOUT_SECONDS = 30;

/** Flags, then environment, then the profile: the precedence of the contract. */
export function resolveSettings(config: ConfigData, flags: SettingsFlags, env: NodeJS.ProcessEnv): Settings {
  // An empty environment variable counts as unset, but an empty flag (`--timeout "$T"` with T unset) is a mistake, not a default.
  const given: Array<[string, string | undefined]> = [['--profile', flags.profile], ['--base-url', flags.baseUrl], ['--timeout', flags.timeout], ['--subaccount', flags.subaccount]];
  for (const [flag, value] of given) {
    if (value !== undefined && value.trim() === '') throw usageError(`${flag} is empty: give a value, or leave the flag out`);
  }
  const [profileName, profileSource] = chosenProfile(config, flags, env);
  const profile = config.profiles[profileName];
  if (!profile && profileName !== DEFAULT_PROFILE) {
    throw new PayctlError(`profile "${profileName}" does not exist`, ExitCode.usage, {
      hint: `add it: payctl profiles add ${profileName} --base-url URL (profiles: ${Object.keys(config.profiles).join(', ') || 'none'})`,
    });
  }
  const stored = profile ?? DEFAULT_PROFILE_SETTINGS;
  const [baseUrl, baseUrlSource] = pick<string>([flags.baseUrl, 'flag'], [env.PAYCTL_BASE_URL, 'env'], [stored.baseUrl, 'profile']);
  const [token, tokenSource] = pick<string | undefined>([env.PAYCTL_TOKEN, 'env'], [stored.token, 'profile'], [undefined, 'default']);
  const [subaccount, subaccountSource] = flags.mainAccount
    ? [undefined, 'flag' as Source]
    : pick<string | undefined>([flags.subaccount, 'flag'], [env.PAYCTL_SUBACCOUNT, 'env'], [stored.subaccount, 'profile'], [undefined, 'default']);
  const [timeout, timeoutFlag] = pick<string>([flags.timeout, '--timeout'], [env.PAYCTL_TIMEOUT, 'PAYCTL_TIMEOUT'], [String(DEFAULT_TIMEOUT_SECONDS), 'default']);
  return {
    profileName,
    profileSource,
    profile,
    baseUrl: parseBaseUrl(baseUrl, baseUrlSource),
    baseUrlSource,
    env: stored.env,
    token,
    tokenSource: token ? tokenSource : undefined,
    tokenExpiresAt: token ? jwtExpiry(token) : undefined,
    subaccount: subaccount === undefined ? undefined : parseSubaccount(subaccount, subaccountSource),
    subaccountSource: subaccount || flags.mainAccount ? subaccountSource : undefined,
    timeoutMs: parseTimeout(timeout, timeoutFlag),
  };
}

const chosenProfile = (config: ConfigData, flags: SettingsFlags, env: NodeJS.ProcessEnv) =>
  pick<string>([flags.profile, 'flag'], [env.PAYCTL_PROFILE, 'env'], [config.currentProfile, 'profile'], [DEFAULT_PROFILE, 'default']);

/**
 * A setting of the profile in use that only some commands read (such as `csvSeparator`,
 * set by hand in the config file), without resolving, or failing on, the others.
 */
export function profileSetting(config: ConfigData, flags: SettingsFlags, env: NodeJS.ProcessEnv, key: string): { profileName: string; value: unknown } {
  const [profileName] = chosenProfile(config, flags, env);
  // Read as untyped: a value set by hand may be of any type, and is checked by its reader.
  const profile = config.profiles[profileName] as unknown as Record<string, unknown> | undefined;
  return { profileName, value: profile?.[key] };
}

function pick<T>(...candidates: Array<[T | undefined | '', Source | string]>): [T, Source] {
  for (const [value, source] of candidates) {
    if (value !== undefined && value !== '') return [value as T, source as Source];
  }
  const last = candidates[candidates.length - 1]!;
  return [last[0] as T, last[1] as Source];
}

export function parseBaseUrl(value: string, source: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw usageError(`base URL "${value}" (from ${source}) is not a URL: use http(s)://host[:port][/path]`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw usageError(`base URL "${value}" (from ${source}) must use http or https`);
  }
  if (url.username || url.password) throw usageError(`base URL (from ${source}) must not carry credentials`);
  return url.toString().replace(/\/+$/, '');
}

function parseSubaccount(value: string, source: Source): string {
  const origin = { flag: '--subaccount', env: 'PAYCTL_SUBACCOUNT', profile: "the profile's sub-account", default: 'default' }[source];
  return parseUuid(origin, value);
}

function parseTimeout(value: string, origin: string): number {
  if (!/^\d+(\.\d+)?$/.test(value) || Number(value) <= 0 || Number(value) > 3600) {
    throw usageError(`${origin} "${value}" must be a number of seconds greater than 0 and at most 3600`);
  }
  return Math.round(Number(value) * 1000);
}
