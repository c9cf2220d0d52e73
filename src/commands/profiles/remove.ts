import { missingProfile } from '../../config/profiles.js';
import { updateConfig } from '../../config/store.js';
import type { Context } from '../../context.js';
import type { CommandInput } from '../spec.js';

export async function run(ctx: Context, { args }: CommandInput): Promise<void> {
  const name = args[0]!;
  await updateConfig(ctx.configDir, (config) => {
    if (!config.profiles[name]) throw missingProfile(name, config);
    delete config.profiles[name];
    if (config.currentProfile === name) delete config.currentProfile;
  });
  await ctx.output.note(`removed profile ${name}`);
}
