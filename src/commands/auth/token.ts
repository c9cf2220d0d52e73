import { changeProfile, setToken } from '../../config/profiles.js';
import type { Context } from '../../context.js';
import { usageError } from '../../errors.js';
import { MalformedToken } from '../../jwt.js';
import { resolveRequired } from '../../prompt.js';
import { readLines } from '../../stdin.js';
import type { CommandInput } from '../spec.js';

export async function run(ctx: Context, { opts }: CommandInput): Promise<void> {
  const fromStdin = opts.stdin === true ? (await readLines(ctx.io.stdin, 1))[0] : undefined;
  if (opts.stdin === true && !fromStdin) throw usageError('--stdin: stdin held no token');
  const { token } = await resolveRequired(ctx, {
    token: { flag: '--stdin', value: fromStdin, ask: (p) => p.secret('Token', { validate: (v) => (v.trim() ? undefined : 'must not be empty') }) },
  });
  const value = token.trim();
  if (/\s/.test(value)) throw usageError('the token must be one word without spaces (give the token, not "Bearer TOKEN")');
  ctx.secrets.add(value);
  try {
    await changeProfile(ctx, ctx.settings().profileName, (profile) => setToken(profile, value));
  } catch (error) {
    if (error instanceof MalformedToken) throw usageError(error.message, 'give the token exactly as the API issued it');
    throw error;
  }
  await ctx.output.note(`token stored in profile ${ctx.settings().profileName}`);
}
