import { jwtExpiry } from '../jwt.js';
import { changeProfile, profileOrDefault } from './profiles.js';
import type { Keychain, KeychainUnavailable } from './keychain.js';
import type { Notices } from '../process-io.js';
import type { RunConfig } from './run.js';
import type { Profile, TokenStore } from './store.js';

/**
 * Where a profile's token is kept: in the config file (0600) by default, or in
 * the operating system's keychain. A keychain that is absent or does not answer
 * means the file, with a one-line warning, as gh does. The token is never in
 * both: storing it in one removes it from the other, and the config file marks
 * (`tokenInKeychain`) that the keychain holds it, so listing profiles never
 * needs the keychain.
 */

/** What keeping a token takes of a run: its configuration, and where to warn. */
type KeychainRun = RunConfig & Notices;

/** The keychain entry of a profile: one per config folder and profile name (tests and users may keep several folders). */
export const keychainAccount = (configDir: string, profileName: string): string => `${profileName} (${configDir})`;

async function keychainOf(services: KeychainRun): Promise<Keychain> {
  const { systemKeychain } = await import('./keychain.js');
  return systemKeychain(services.env);
}

const isUnavailable = (error: unknown): error is KeychainUnavailable => error instanceof Error && error.name === 'KeychainUnavailable';

/** Runs a keychain call; a keychain that cannot be used gives `undefined` and a warning saying what payctl does instead. */
async function tryKeychain<T>(services: KeychainRun, work: (keychain: Keychain) => Promise<T>, instead: string): Promise<{ value: T } | undefined> {
  try {
    return { value: await work(await keychainOf(services)) };
  } catch (error) {
    if (!isUnavailable(error)) throw error;
    services.warn(`${error.message}; ${instead}`);
    return undefined;
  }
}

/** Reads the token the keychain holds for a profile; `problem` says why there is none. */
export async function readKeychainToken(services: KeychainRun, profileName: string): Promise<{ token?: string; problem?: string }> {
  try {
    const token = await (await keychainOf(services)).get(keychainAccount(services.configDir, profileName));
    return token ? { token } : { problem: `${(await import('./keychain.js')).keychainName()} holds no token for it` };
  } catch (error) {
    if (!isUnavailable(error)) throw error;
    return { problem: error.message };
  }
}

/** Ten years: an `expiresIn` beyond it is no lifetime a server means. */
const LONGEST_EXPIRES_IN_SECONDS = 10 * 365 * 24 * 3600;

/**
 * Stores a new token in the profile's store, with its expiry (the JWT's `exp`, or
 * the server's `expiresIn` when sensible). A malformed JWT throws MalformedToken
 * before anything is stored. `alsoChange` changes the profile in the same write.
 */
export async function storeToken(
  services: KeychainRun,
  profileName: string,
  token: string,
  options: { expiresInSeconds?: unknown; alsoChange?: (profile: Profile) => void } = {},
): Promise<{ profile: Profile; location: TokenStore }> {
  const { expiresInSeconds } = options;
  const sensible = typeof expiresInSeconds === 'number' && expiresInSeconds > 0 && expiresInSeconds <= LONGEST_EXPIRES_IN_SECONDS;
  const expiry = jwtExpiry(token) ?? (sensible ? new Date(Date.now() + expiresInSeconds * 1000) : undefined);
  const wanted = profileOrDefault(services, profileName)?.tokenStore ?? 'file';
  const inKeychain =
    wanted === 'keychain' &&
    (await tryKeychain(services, (keychain) => keychain.set(keychainAccount(services.configDir, profileName), token), 'the token is kept in the config file')) !== undefined;
  const profile = await changeProfile(services, profileName, (stored) => {
    placeToken(stored, inKeychain ? 'keychain' : 'file', token);
    if (expiry) stored.tokenExpiresAt = expiry.toISOString();
    else delete stored.tokenExpiresAt;
    options.alsoChange?.(stored);
  });
  return { profile, location: inKeychain ? 'keychain' : 'file' };
}

/** Records where the token is: in the file (`token`) or in the keychain (`tokenInKeychain`), never both. */
function placeToken(profile: Profile, location: TokenStore, token: string): void {
  if (location === 'keychain') {
    delete profile.token;
    profile.tokenInKeychain = true;
  } else {
    profile.token = token;
    delete profile.tokenInKeychain;
  }
}

/**
 * Forgets a profile's token wherever it is. A keychain that cannot be reached
 * keeps its entry (said in a warning naming it); payctl no longer uses it.
 */
export async function forgetToken(services: KeychainRun, profileName: string): Promise<void> {
  if (profileOrDefault(services, profileName)?.tokenInKeychain) await deleteFromKeychain(services, profileName);
  await changeProfile(services, profileName, (profile) => {
    delete profile.token;
    delete profile.tokenExpiresAt;
    delete profile.tokenInKeychain;
  });
}

/** Removes a profile's keychain entry; one that cannot be reached is named in a warning. */
export async function deleteFromKeychain(services: KeychainRun, profileName: string): Promise<void> {
  const account = keychainAccount(services.configDir, profileName);
  await tryKeychain(services, (keychain) => keychain.delete(account), `its entry for profile "${profileName}" (service payctl, account "${account}") stays there; payctl no longer uses it`);
}

/**
 * Moves a profile's token to `to` and makes that its store. Into the keychain:
 * written there, then removed from the file; a keychain that cannot be used keeps
 * it in the file (the profile still asks for the keychain, tried again at the next
 * login). Out of the keychain: read, written to the file, then removed from the
 * keychain; a keychain that cannot be read leaves the profile logged out.
 * Says what happened, as a note.
 */
export async function moveToken(services: KeychainRun, profileName: string, to: TokenStore): Promise<string> {
  const profile = profileOrDefault(services, profileName);
  const account = keychainAccount(services.configDir, profileName);
  if (to === 'keychain') {
    const token = profile?.token;
    const moved =
      token !== undefined &&
      (await tryKeychain(services, (keychain) => keychain.set(account, token), 'the token stays in the config file')) !== undefined;
    await changeProfile(services, profileName, (stored) => {
      stored.tokenStore = 'keychain';
      if (moved) placeToken(stored, 'keychain', token);
    });
    if (moved) return `profile ${profileName} keeps its token in the keychain now; the config file no longer holds it`;
    return token === undefined && !profile?.tokenInKeychain
      ? `profile ${profileName} will keep its token in the keychain (it has none yet: log in)`
      : `profile ${profileName} will keep its token in the keychain`;
  }
  if (!profile?.tokenInKeychain) {
    await changeProfile(services, profileName, (stored) => void delete stored.tokenStore);
    return `profile ${profileName} keeps its token in the config file`;
  }
  const { token, problem } = await readKeychainToken(services, profileName);
  if (problem) services.warn(`cannot move the token of profile "${profileName}" out of the keychain: ${problem}; log in again to store a new one in the config file`);
  await changeProfile(services, profileName, (stored) => {
    delete stored.tokenStore;
    delete stored.tokenInKeychain;
    if (token) stored.token = token;
    else delete stored.tokenExpiresAt;
  });
  if (token) await deleteFromKeychain(services, profileName);
  return token
    ? `profile ${profileName} keeps its token in the config file now; the keychain no longer holds it`
    : `profile ${profileName} will keep its token in the config file (logged out)`;
}
