import { missingProfile } from '../../config/profiles.js';
import { updateConfig } from '../../config/store.js';
import type { Invocation } from '../spec.js';
import type { profilesRemove } from './index.js';

export async function run({ io, services, args: [name] }: Invocation<typeof profilesRemove>): Promise<void> {
  await updateConfig(services.configDir, (config) => {
    if (!config.profiles[name]) throw missingProfile(name, config);
    delete config.profiles[name];
    if (config.currentProfile === name) delete config.currentProfile;
  });
  await io.output.note(`removed profile ${name}`);
}
