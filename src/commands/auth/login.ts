import { formatLocalTime } from '../../output/time.js';
import { authenticate } from '../../api/auth.js';
import { storeToken } from '../../config/token-store.js';
import { ExitCode, PayctlError } from '../../errors.js';
import { MalformedToken } from '../../jwt.js';
import { askParsed, resolveRequired } from '../../prompt.js';
import { readLines } from '../../stdin.js';
import { parseNonEmpty, parseSecret } from '../../validation/flags.js';
import type { Invocation } from '../spec.js';
import type { authLogin } from './index.js';

export async function run(invocation: Invocation<typeof authLogin>): Promise<void> {
  const { io, services, opts, flag } = invocation;
  const settings = services.settings();
  const stdinSecret = opts.clientSecretStdin ? parseSecret(`${flag('clientSecretStdin')} client secret`, (await readLines(io.stdin, 1))[0] ?? '') : undefined;
  services.secrets.add(stdinSecret);
  const stored = settings.profile?.clientId;
  const { clientId, clientSecret } = await resolveRequired(invocation, {
    clientId: {
      ...invocation.need('clientId', (field) => field.text('Client id')),
      value: opts.clientId ?? (stored === undefined ? undefined : parseNonEmpty(flag('clientId'), stored)),
    },
    clientSecret: {
      flag: flag('clientSecretStdin'),
      value: stdinSecret,
      ask: (prompter) => askParsed(prompter, 'secret', 'Client secret', parseSecret, 'client secret'),
    },
  });
  services.secrets.add(clientSecret);
  const api = await services.anonymousApi();
  const token = await authenticate(api, clientId, clientSecret);
  const accessToken: unknown = token?.accessToken;
  if (!token || typeof accessToken !== 'string' || accessToken === '') throw unusableAnswer('has no accessToken string');
  services.secrets.add(accessToken);
  let kept;
  try {
    kept = await storeToken(services, settings.profileName, accessToken, {
      expiresInSeconds: token.expiresIn,
      alsoChange: (profile) => void (profile.clientId = clientId),
    });
  } catch (error) {
    if (error instanceof MalformedToken) throw unusableAnswer(`has an accessToken that ${error.message.replace(/^the token /, '')}`);
    throw error;
  }
  await io.output.note(
    `logged in to ${settings.baseUrl} as ${clientId} (profile ${settings.profileName}); the token is kept in the ${kept.location === 'keychain' ? 'keychain' : 'config file'} ` +
      `and expires ${kept.profile.tokenExpiresAt ? formatLocalTime(kept.profile.tokenExpiresAt) : 'when the server decides'}`,
  );
}

/** The server answered the login, but not with a token payctl can use: nothing is stored (exit 5, as for any answer that is not the API's to a POST). */
function unusableAnswer(what: string): PayctlError {
  return new PayctlError(`the answer to POST /auth ${what}; no token was stored`, ExitCode.unknownOutcome, {
    hint: 'check that the base URL is the API\'s: payctl auth status',
  });
}
