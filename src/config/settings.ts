import { authError, ExitCode, PayctlError, usageError } from '../errors.js';
import { jwtExpiry, MalformedToken } from '../jwt.js';
import { parseUuid } from '../validate.js';
import { DEFAULT_PROFILE, DEFAULT_PROFILE_SETTINGS, type ConfigData, type Environment, type Profile, type TokenStore } from './store.js';

/** The command that logs this profile in, for hints. */
export const loginCommand = (profileName: string): string =>
  profileName === DEFAULT_PROFILE ? 'payctl auth login' : `payctl auth login --profile ${profileName}`;

/** Where a resolved value came from, shown by `auth status` and `profiles show`. */
export type Source = 'flag' | 'env' | 'profile' | 'default';

/** Where the token in effect is kept: PAYCTL_TOKEN, the config file, or the keychain. */
export type TokenLocation = 'env' | 'file' | 'keychain';

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
  /** Where the token in effect is kept; `keychain` before it is read from there (Services.settingsWithToken). */
  tokenLocation?: TokenLocation;
  /** Where the profile wants its token kept. */
  tokenStore: TokenStore;
  tokenExpiresAt?: Date;
  /** Why the token cannot be used as it is (a malformed JWT); found on reading, refused before sending. */
  tokenProblem?: string;
  /** Why the keychain gave no token, when the profile keeps it there. */
  keychainProblem?: string;
  subaccount?: string;
  subaccountSource?: Source;
  timeoutMs: number;
}

const DEFAULT_TIMEOUT_SECONDS = 30;

/** Flags, then environment, then the profile: the precedence of the contract. */
export function resolveSettings(config: ConfigData, flags: SettingsFlags, env: NodeJS.ProcessEnv): Settings {
  // An empty environment variable counts as unset, but an empty flag (`--timeout "$T"` with T unset) is a mistake, not a default.
  const given: Array<[string, string | undefined]> = [
    ['--profile', flags.profile],
    ['--base-url', flags.baseUrl],
    ['--timeout', flags.timeout],
    ['--subaccount', flags.subaccount],
  ];
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
  const [timeout, timeoutFlag] = pick<string>(
    [flags.timeout, '--timeout'],
    [env.PAYCTL_TIMEOUT, 'PAYCTL_TIMEOUT'],
    [String(DEFAULT_TIMEOUT_SECONDS), 'default'],
  );
  return {
    profileName,
    profileSource,
    profile,
    baseUrl: parseBaseUrl(baseUrl, baseUrlSource),
    baseUrlSource,
    env: stored.env,
    token,
    tokenSource: token ? tokenSource : undefined,
    tokenLocation: token ? (tokenSource === 'env' ? 'env' : 'file') : stored.tokenInKeychain ? 'keychain' : undefined,
    tokenStore: stored.tokenStore ?? 'file',
    ...(token ? readTokenExpiry(token) : {}),
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
  const profile: object | undefined = config.profiles[profileName];
  return { profileName, value: profile === undefined ? undefined : Reflect.get(profile, key) };
}

/** A token's expiry, or why it is no token the API issued. */
export function readTokenExpiry(token: string): { tokenExpiresAt?: Date; tokenProblem?: string } {
  try {
    return { tokenExpiresAt: jwtExpiry(token) };
  } catch (error) {
    if (error instanceof MalformedToken) return { tokenProblem: error.message };
    throw error;
  }
}

/**
 * Why no request can be sent with this token (exit 3), or undefined when it can:
 * none, malformed, or past its `exp`. Each names the command that fixes it.
 */
export function tokenRefusal(settings: Settings): PayctlError | undefined {
  const login = loginCommand(settings.profileName);
  if (!settings.token && settings.keychainProblem) {
    return authError(`cannot read the token of profile "${settings.profileName}": ${settings.keychainProblem}`, {
      hint: `check that the keychain is unlocked and try again; or log in again: ${login} (or set PAYCTL_TOKEN)`,
    });
  }
  if (!settings.token) return authError(`no token for profile "${settings.profileName}"`, { hint: `log in: ${login} (or set PAYCTL_TOKEN)` });
  const fromEnv = settings.tokenSource === 'env';
  const which = fromEnv ? 'the token in PAYCTL_TOKEN' : `the token of profile "${settings.profileName}"`;
  const hint = (what: string) => (fromEnv ? `set PAYCTL_TOKEN to ${what}, or unset it and log in: ${login}` : `log in again: ${login}`);
  if (settings.tokenProblem) return authError(`${which} ${settings.tokenProblem.replace(/^the token /, '')}`, { hint: hint('a token the API issued') });
  if (settings.tokenExpiresAt && settings.tokenExpiresAt.getTime() <= Date.now()) {
    return authError(`${which} expired at ${settings.tokenExpiresAt.toISOString()}`, { hint: hint('a fresh token') });
  }
  return undefined;
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

/** 127.0.0.0/8, ::1 (also as an IPv4-mapped address) and localhost: traffic that never leaves the machine. */
export function isLoopback(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  return (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    /^127\.\d+\.\d+\.\d+$/.test(host) ||
    host === '[::1]' ||
    /^\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\]$/.test(host)
  );
}

/**
 * A production profile talks to the real platform with real money and a client
 * secret: it must use https, so neither crosses a network in clear. Loopback
 * addresses aside (a tunnel or a local proxy on this machine).
 */
export function requireHttpsForProduction(baseUrl: string, env: Environment, origin: string): void {
  const url = new URL(baseUrl);
  if (env !== 'production' || url.protocol === 'https:' || isLoopback(url.hostname)) return;
  throw usageError(
    `${origin} ${baseUrl} uses http, and a production profile must use https (only loopback addresses such as 127.0.0.1 may use http)`,
    `use https://${url.host}${url.pathname === '/' ? '' : url.pathname}, or a profile whose environment is sandbox or local`,
  );
}

/** Before any request: the base URL in effect, wherever it came from, under the profile's environment. */
export function assertSecureTransport(settings: Settings): void {
  const origin = { flag: '--base-url', env: 'PAYCTL_BASE_URL', profile: `the base URL of profile "${settings.profileName}"`, default: 'the base URL' }[
    settings.baseUrlSource
  ];
  requireHttpsForProduction(settings.baseUrl, settings.env, origin);
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
