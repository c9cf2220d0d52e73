import { changeProfile } from '../../config/profiles.js';
import type { Context } from '../../context.js';

export async function run(ctx: Context): Promise<void> {
  const name = ctx.settings().profileName;
  await changeProfile(ctx, name, (profile) => {
    delete profile.subaccount;
  });
  await ctx.output.note(`profile ${name} now runs in the main account`);
}
