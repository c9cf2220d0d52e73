import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ExitCode, PayctlError } from '../errors.js';
import { jsonErrorMessage } from '../redact.js';
import { parseDuplicateWindow } from '../validation/flags.js';
import { withLock } from './lock.js';

export const ENVIRONMENTS = ['sandbox', 'production', 'local'] as const;
export type Environment = (typeof ENVIRONMENTS)[number];

export const TOKEN_STORES = ['file', 'keychain'] as const;
export type TokenStore = (typeof TOKEN_STORES)[number];

export interface Profile {
  baseUrl: string;
  env: Environment;
  /** The token, when it is kept in this file. */
  token?: string;
  /** ISO date-time from the token's `exp`, when it is a JWT. */
  tokenExpiresAt?: string;
  /** Where the token is to be kept (default: this file). */
  tokenStore?: TokenStore;
  /** The token is in the keychain (and so not in this file). */
  tokenInKeychain?: boolean;
  clientId?: string;
  subaccount?: string;
  /** The largest single withdrawal, in cents. */
  maxWithdrawal?: number;
  /** The largest total of one batch, in cents. */
  maxBatchTotal?: number;
  /** How far back a withdrawal looks for its twins on the platform, as given (`24h`); default 24 hours. */
  duplicateWindow?: string;
  /** The team's total per account and day (America/Sao_Paulo), in cents, counted in the ledger. */
  maxDailyTotal?: number;
  /** The team's ledger: a postgres:// URL without a password; absent for the local files. */
  ledger?: string;
  /** The separator of `-o csv` for this profile: set by `profiles set` or by hand, so of any type until csv is written, where it is checked. */
  csvSeparator?: unknown;
}

export interface ConfigData {
  currentProfile?: string;
  profiles: Record<string, Profile>;
}

export const DEFAULT_PROFILE = 'default';
/** Until the user adds profiles, `default` points at a sandbox on this machine. */
export const DEFAULT_PROFILE_SETTINGS: Profile = { baseUrl: 'http://127.0.0.1:4010', env: 'local' };

export function configDir(env: NodeJS.ProcessEnv): string {
  if (env.PAYCTL_CONFIG_DIR) return path.resolve(env.PAYCTL_CONFIG_DIR);
  // HOME from the given environment: os.homedir() reads the process's own, which is not the run's in tests.
  const base = env.XDG_CONFIG_HOME || path.join(env.HOME || os.homedir(), '.config');
  return path.join(base, 'payctl');
}

export const configFile = (dir: string) => path.join(dir, 'config.json');

/** Reads the config without loading conf: most commands only read it, and start-up time counts. */
export function readConfig(dir: string): ConfigData {
  const file = configFile(dir);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { profiles: Object.create(null) };
    throw new PayctlError(`cannot read the config file ${file}: ${(error as Error).message}`, ExitCode.usage);
  }
  return parseConfig(text, file);
}

function parseConfig(text: string, file: string): ConfigData {
  const fix = `fix it by hand, or move it away and start again: mv '${file}' '${file}.broken'`;
  if (text.trim() === '') return { profiles: Object.create(null) };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new PayctlError(`the config file ${file} is not valid JSON (${jsonErrorMessage(error)})`, ExitCode.usage, { hint: fix });
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new PayctlError(`the config file ${file} does not hold a JSON object`, ExitCode.usage, { hint: fix });
  }
  const data = parsed as { currentProfile?: unknown; profiles?: unknown };
  const broken = (what: string) => new PayctlError(`the config file ${file} ${what}`, ExitCode.usage, { hint: fix });
  if (data.currentProfile !== undefined && typeof data.currentProfile !== 'string') throw broken('has a "currentProfile" that is not a string');
  const profiles = data.profiles ?? {};
  if (!profiles || typeof profiles !== 'object' || Array.isArray(profiles)) throw broken('has a "profiles" entry that is not an object');
  // No prototype: a profile named "constructor" or "toString" is only ever one the user added.
  const own: Record<string, Profile> = Object.create(null);
  for (const [name, profile] of Object.entries(profiles)) {
    if (!profile || typeof profile !== 'object' || Array.isArray(profile)) throw broken(`has a profile "${name}" that is not an object`);
    const problem = profileProblem(profile as Record<string, unknown>);
    if (problem) throw broken(`has a profile "${name}" whose ${problem}`);
    own[name] = profile as Profile;
  }
  return { currentProfile: data.currentProfile, profiles: own };
}

const OPTIONAL_STRINGS = ['token', 'tokenExpiresAt', 'clientId', 'subaccount', 'ledger'] as const;
const OPTIONAL_LIMITS = ['maxWithdrawal', 'maxBatchTotal', 'maxDailyTotal'] as const;

/** What is wrong with the fields payctl reads from a profile; fields it does not know are left alone. */
function profileProblem(profile: Record<string, unknown>): string | undefined {
  if (typeof profile.baseUrl !== 'string') return 'baseUrl is missing or not a string';
  if (!ENVIRONMENTS.includes(profile.env as Environment)) return `env is not one of ${ENVIRONMENTS.join(', ')}`;
  const wrong = OPTIONAL_STRINGS.find((field) => profile[field] !== undefined && typeof profile[field] !== 'string');
  if (wrong) return `${wrong} is not a string`;
  if (profile.tokenStore !== undefined && !TOKEN_STORES.includes(profile.tokenStore as TokenStore)) return `tokenStore is not one of ${TOKEN_STORES.join(', ')}`;
  if (profile.tokenInKeychain !== undefined && typeof profile.tokenInKeychain !== 'boolean') return 'tokenInKeychain is not true or false';
  const limit = OPTIONAL_LIMITS.find((field) => profile[field] !== undefined && !(Number.isSafeInteger(profile[field]) && (profile[field] as number) > 0));
  if (limit) return `${limit} is not a whole number of cents greater than 0`;
  if (profile.duplicateWindow === undefined) return undefined;
  try {
    parseDuplicateWindow('duplicateWindow', String(profile.duplicateWindow));
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

/**
 * Changes the config under a lock: two payctl processes changing it at once
 * (conf itself does not guard against that) each see the other's change.
 * The folder is 0700 and the file 0600 whatever the umask, since it holds tokens.
 */
export async function updateConfig<T>(dir: string, change: (config: ConfigData) => T): Promise<T> {
  ensurePrivateDir(dir);
  const { default: Conf } = await import('conf');
  return withLock(path.join(dir, 'config.lock'), () => {
    // Read through our own parser first so a corrupt file is reported the same way everywhere.
    const config = readConfig(dir);
    const store = new Conf<Record<string, unknown>>({
      projectName: 'payctl',
      projectSuffix: '',
      cwd: dir,
      configName: 'config',
      configFileMode: 0o600,
      accessPropertiesByDotNotation: false,
    });
    const result = change(config);
    store.store = { ...(config.currentProfile ? { currentProfile: config.currentProfile } : {}), profiles: config.profiles };
    fs.chmodSync(configFile(dir), 0o600);
    return result;
  });
}

function ensurePrivateDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  fs.chmodSync(dir, 0o700);
}
