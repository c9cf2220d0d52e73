import { loginCommand } from '../../config/settings.js';
import { storeToken } from '../../config/token-store.js';
import { usageError } from '../../errors.js';
import { jwtExpiry, MalformedToken } from '../../jwt.js';
import { formatLocalTime } from '../../output/time.js';
import { askParsed, resolveRequired } from '../../prompt.js';
import { readLines } from '../../stdin.js';
import { parseSecret } from '../../validation/flags.js';
import type { Invocation } from '../spec.js';
import type { authToken } from './index.js';

export async function run(invocation: Invocation<typeof authToken>): Promise<void> {
  const { io, services, opts, flag } = invocation;
  const fromStdin = opts.stdin ? parseSecret(`${flag('stdin')} token`, (await readLines(io.stdin, 1))[0] ?? '') : undefined;
  const { token } = await resolveRequired(invocation, {
    token: { flag: flag('stdin'), value: fromStdin, ask: (prompter) => askParsed(prompter, 'secret', 'Token', parseSecret, 'token') },
  });
  const value = token.trim();
  if (/\s/.test(value)) throw usageError('the token must be one word without spaces (give the token, not "Bearer TOKEN")');
  services.secrets.add(value);
  const profileName = services.settings().profileName;
  let location;
  try {
    refuseExpired(value, loginCommand(profileName));
    ({ location } = await storeToken(services, profileName, value));
  } catch (error) {
    if (error instanceof MalformedToken) throw usageError(error.message, 'give the token exactly as the API issued it');
    throw error;
  }
  await io.output.note(`token stored in profile ${profileName} (in the ${location === 'keychain' ? 'keychain' : 'config file'})`);
}

/** A JWT past its `exp` would be refused by every command after it: it is not stored. */
function refuseExpired(token: string, login: string): void {
  const expiry = jwtExpiry(token);
  if (expiry === undefined || expiry.getTime() > Date.now()) return;
  throw usageError(`the token expired at ${formatLocalTime(expiry.toISOString())}: nothing was stored`, `give a token that is still valid, or log in: ${login}`);
}
