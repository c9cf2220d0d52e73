import { authenticate } from '../../api/auth.js';
import { changeProfile, setToken } from '../../config/profiles.js';
import type { Context } from '../../context.js';
import { ExitCode, PayctlError, usageError } from '../../errors.js';
import { MalformedToken } from '../../jwt.js';
import { resolveRequired } from '../../prompt.js';
import { readLines } from '../../stdin.js';
import { parseNonEmpty } from '../../validate.js';
import { optString, type CommandInput } from '../spec.js';

export async function run(ctx: Context, { opts }: CommandInput): Promise<void> {
  const settings = ctx.settings();
  const fromStdin = opts.clientSecretStdin === true;
  const stdinSecret = fromStdin ? (await readLines(ctx.io.stdin, 1))[0] : undefined;
  if (fromStdin && !stdinSecret) throw usageError('--client-secret-stdin: stdin held no client secret');
  ctx.secrets.add(stdinSecret);
  const given = optString(opts, 'clientId') ?? settings.profile?.clientId;
  const { clientId, clientSecret } = await resolveRequired(ctx, {
    clientId: {
      flag: '--client-id',
      value: given === undefined ? undefined : parseNonEmpty('--client-id', given),
      ask: (p) => p.text('Client id', { validate: (v) => (v.trim() ? undefined : 'must not be empty') }),
    },
    clientSecret: {
      flag: '--client-secret-stdin',
      value: stdinSecret,
      ask: (p) => p.secret('Client secret', { validate: (v) => (v ? undefined : 'must not be empty') }),
    },
  });
  ctx.secrets.add(clientSecret);
  const api = await ctx.anonymousApi();
  const token = await authenticate(api, clientId.trim(), clientSecret);
  const accessToken: unknown = token.accessToken;
  if (typeof accessToken !== 'string' || accessToken === '') throw unusableAnswer('has no accessToken string');
  ctx.secrets.add(accessToken);
  let profile;
  try {
    profile = await changeProfile(ctx, settings.profileName, (stored) => {
      setToken(stored, accessToken, token.expiresIn);
      stored.clientId = clientId.trim();
    });
  } catch (error) {
    if (error instanceof MalformedToken) throw unusableAnswer(`has an accessToken that ${error.message.replace(/^the token /, '')}`);
    throw error;
  }
  await ctx.output.note(`logged in to ${settings.baseUrl} as ${clientId.trim()} (profile ${settings.profileName}); the token expires ${profile.tokenExpiresAt ?? 'when the server decides'}`);
}

/** The server answered the login, but not with a token payctl can use: nothing is stored (exit 5, as for any answer that is not the API's to a POST). */
function unusableAnswer(what: string): PayctlError {
  return new PayctlError(`the answer to POST /auth ${what}; no token was stored`, ExitCode.unknownOutcome, {
    hint: 'check that the base URL is the API\'s: payctl auth status',
  });
}
