import { describeProfile, missingProfile } from '../../config/profiles.js';
import { DEFAULT_PROFILE, DEFAULT_PROFILE_SETTINGS } from '../../config/store.js';
import type { Context } from '../../context.js';
import type { CommandInput } from '../spec.js';
import { profileView } from './view.js';

export async function run(ctx: Context, { args }: CommandInput): Promise<void> {
  ctx.output.fieldsFor(profileView);
  const config = ctx.config();
  const name = args[0] ?? ctx.settings().profileName;
  const profile = config.profiles[name] ?? (name === DEFAULT_PROFILE ? DEFAULT_PROFILE_SETTINGS : undefined);
  if (!profile) throw missingProfile(name, config);
  await ctx.output.item(profileView, describeProfile(name, profile, name === (config.currentProfile ?? DEFAULT_PROFILE)));
}
