import { describeProfile } from '../../config/profiles.js';
import { DEFAULT_PROFILE, DEFAULT_PROFILE_SETTINGS } from '../../config/store.js';
import type { Context } from '../../context.js';
import { profileView } from './view.js';

export async function run(ctx: Context): Promise<void> {
  const writer = ctx.output.list(profileView);
  const config = ctx.config();
  const current = config.currentProfile ?? DEFAULT_PROFILE;
  const profiles = { ...(config.profiles[DEFAULT_PROFILE] ? {} : { [DEFAULT_PROFILE]: DEFAULT_PROFILE_SETTINGS }), ...config.profiles };
  await writer.write(Object.entries(profiles).map(([name, profile]) => describeProfile(name, profile, name === current)));
  await writer.end();
}
