import type { Context } from '../../context.js';
import { authError } from '../../errors.js';
import { loginCommand } from '../../config/settings.js';

/** Prints where and as whom commands would run; exit 3 when they could not. */
export async function run(ctx: Context): Promise<void> {
  const s = ctx.settings();
  const expired = s.tokenExpiresAt !== undefined && s.tokenExpiresAt.getTime() <= Date.now();
  const status = {
    profile: s.profileName,
    baseUrl: s.baseUrl,
    env: s.env,
    loggedIn: Boolean(s.token) && !expired,
    tokenSource: s.tokenSource ?? null,
    tokenExpiresAt: s.tokenExpiresAt?.toISOString() ?? null,
    clientId: s.profile?.clientId ?? null,
    subaccount: s.subaccount ?? null,
  };
  await ctx.output.item(undefined, status);
  const login = loginCommand(s.profileName);
  if (!s.token) throw authError(`not logged in (profile ${s.profileName})`, { hint: `log in: ${login}` });
  if (expired) throw authError(`the token expired at ${status.tokenExpiresAt}`, { hint: `log in again: ${login}` });
}
