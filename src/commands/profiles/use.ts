import { missingProfile } from '../../config/profiles.js';
import { DEFAULT_PROFILE, updateConfig } from '../../config/store.js';
import type { Context } from '../../context.js';
import type { CommandInput } from '../spec.js';

export async function run(ctx: Context, { args }: CommandInput): Promise<void> {
  const name = args[0]!;
  await updateConfig(ctx.configDir, (config) => {
    if (!config.profiles[name] && name !== DEFAULT_PROFILE) throw missingProfile(name, config);
    config.currentProfile = name;
  });
  await ctx.output.note(`now using profile ${name}`);
}
