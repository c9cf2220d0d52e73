import { missingProfile } from '../../config/profiles.js';
import { DEFAULT_PROFILE, updateConfig } from '../../config/store.js';
import type { Invocation } from '../spec.js';
import type { profilesUse } from './index.js';

export async function run({ io, services, args: [name] }: Invocation<typeof profilesUse>): Promise<void> {
  await updateConfig(services.configDir, (config) => {
    if (!config.profiles[name] && name !== DEFAULT_PROFILE) throw missingProfile(name, config);
    config.currentProfile = name;
  });
  await io.output.note(`now using profile ${name}`);
}
