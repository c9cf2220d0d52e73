import { changeProfile } from '../../config/profiles.js';
import type { Context } from '../../context.js';

export async function run(ctx: Context): Promise<void> {
  const name = ctx.settings().profileName;
  await changeProfile(ctx, name, (profile) => {
    delete profile.token;
    delete profile.tokenExpiresAt;
  });
  await ctx.output.note(`logged out of profile ${name}`);
}
