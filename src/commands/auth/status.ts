import type { Context } from '../../context.js';
import { tokenRefusal } from '../../config/settings.js';

/** Prints where and as whom commands would run; exit 3 when they could not. */
export async function run(ctx: Context): Promise<void> {
  const s = ctx.settings();
  const refusal = tokenRefusal(s);
  const status = {
    profile: s.profileName,
    baseUrl: s.baseUrl,
    env: s.env,
    loggedIn: refusal === undefined,
    tokenSource: s.tokenSource ?? null,
    tokenExpiresAt: s.tokenExpiresAt?.toISOString() ?? null,
    clientId: s.profile?.clientId ?? null,
    subaccount: s.subaccount ?? null,
  };
  await ctx.output.item(undefined, status);
  if (refusal) throw refusal;
}
