import { formatLocalTime } from '../output/time.js';
import { globalFlag, type Flags } from '../flags.js';
import { authError, ExitCode, PayctlError, usageError } from '../errors.js';
import { jwtExpiry, MalformedToken } from '../jwt.js';
import { parseBaseUrl, parseTimeout, parseUuid, type Parser } from '../validation/flags.js';
import { DEFAULT_PROFILE, DEFAULT_PROFILE_SETTINGS, type ConfigData, type Environment, type Profile, type TokenStore } from './store.js';

/** The command that logs this profile in, for hints. */
export const loginCommand = (profileName: string): string =>
  profileName === DEFAULT_PROFILE ? 'payctl auth login' : `payctl auth login ${globalFlag('profile')} ${profileName}`;

/** Where a resolved value came from, shown by `auth status` and `profiles show`. */
export type Source = 'flag' | 'env' | 'profile' | 'default';

/** Where the token in effect is kept: PAYCTL_TOKEN, the config file, or the keychain. */
export type TokenLocation = 'env' | 'file' | 'keychain';

/** The flags settings are resolved from, already parsed by their options. */
export type SettingsFlags = Partial<Pick<Flags, 'profile' | 'baseUrl' | 'timeout' | 'subaccount' | 'mainAccount'>>;

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

/**
 * Flags, then environment, then the profile: the precedence of the contract. A flag's
 * value comes parsed by its option; the environment's and the profile's are parsed here,
 * each named by where it came from.
 */
export function resolveSettings(config: ConfigData, flags: SettingsFlags, env: NodeJS.ProcessEnv): Settings {
  const [profileName, profileSource] = chosenProfile(config, flags, env);
  const profile = config.profiles[profileName];
  if (!profile && profileName !== DEFAULT_PROFILE) {
    throw new PayctlError(`profile "${profileName}" does not exist`, ExitCode.usage, {
      hint: `add it: payctl profiles add ${profileName} ${globalFlag('baseUrl')} URL (profiles: ${Object.keys(config.profiles).join(', ') || 'none'})`,
    });
  }
  const stored = profile ?? DEFAULT_PROFILE_SETTINGS;
  // A profile always has a base URL: an empty one is refused by the parser, not skipped.
  const [baseUrl, baseUrlSource] = firstGiven(flags.baseUrl, parseBaseUrl, ['env', env.PAYCTL_BASE_URL, 'PAYCTL_BASE_URL']) ?? [
    parseBaseUrl(baseUrlOrigin('profile', profileName), stored.baseUrl),
    'profile',
  ];
  const [token, tokenSource] = pick<string | undefined>([[env.PAYCTL_TOKEN, 'env'], [stored.token, 'profile']], [undefined, 'default']);
  const [subaccount, subaccountSource]: [string | undefined, Source] = flags.mainAccount
    ? [undefined, 'flag']
    : (firstGiven(flags.subaccount, parseUuid, ['env', env.PAYCTL_SUBACCOUNT, 'PAYCTL_SUBACCOUNT'], ['profile', stored.subaccount, "the profile's sub-account"]) ??
      [undefined, 'default']);
  const [timeoutSeconds] = firstGiven(flags.timeout, parseTimeout, ['env', env.PAYCTL_TIMEOUT, 'PAYCTL_TIMEOUT']) ?? [DEFAULT_TIMEOUT_SECONDS];
  return {
    profileName,
    profileSource,
    profile,
    baseUrl,
    baseUrlSource,
    env: stored.env,
    token,
    tokenSource: token ? tokenSource : undefined,
    tokenLocation: token ? (tokenSource === 'env' ? 'env' : 'file') : stored.tokenInKeychain ? 'keychain' : undefined,
    tokenStore: stored.tokenStore ?? 'file',
    ...(token ? readTokenExpiry(token) : {}),
    subaccount,
    subaccountSource: subaccount || flags.mainAccount ? subaccountSource : undefined,
    timeoutMs: Math.round(timeoutSeconds * 1000),
  };
}

/**
 * The flag's value, else the first of the environment's and the profile's that is set (an
 * empty one counts as unset), parsed under the name of where it came from; undefined when none is.
 */
function firstGiven<T>(flag: T | undefined, parse: Parser<T>, ...candidates: Array<[Source, string | undefined, string]>): [T, Source] | undefined {
  if (flag !== undefined) return [flag, 'flag'];
  for (const [source, value, name] of candidates) {
    if (value !== undefined && value !== '') return [parse(name, value), source];
  }
  return undefined;
}

const chosenProfile = (config: ConfigData, flags: SettingsFlags, env: NodeJS.ProcessEnv) =>
  pick<string>([[flags.profile, 'flag'], [env.PAYCTL_PROFILE, 'env'], [config.currentProfile, 'profile']], [DEFAULT_PROFILE, 'default']);

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
    return authError(`${which} expired at ${formatLocalTime(settings.tokenExpiresAt.toISOString())}`, { hint: hint('a fresh token') });
  }
  return undefined;
}

function pick<T>(candidates: Array<[T | undefined | '', Source]>, fallback: [T, Source]): [T, Source] {
  for (const [value, source] of candidates) {
    if (value !== undefined && value !== '') return [value, source];
  }
  return fallback;
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

/** How messages name where a base URL came from. */
const baseUrlOrigin = (source: Source, profileName: string): string =>
  ({ flag: globalFlag('baseUrl'), env: 'PAYCTL_BASE_URL', profile: `the base URL of profile "${profileName}"`, default: 'the base URL' })[source];

/** Before any request: the base URL in effect, wherever it came from, under the profile's environment. */
export function assertSecureTransport(settings: Settings): void {
  requireHttpsForProduction(settings.baseUrl, settings.env, baseUrlOrigin(settings.baseUrlSource, settings.profileName));
}
