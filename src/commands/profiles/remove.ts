import { missingProfile } from '../../config/profiles.js';
import { updateConfig } from '../../config/store.js';
import { deleteFromKeychain } from '../../config/token-store.js';
import type { Invocation } from '../spec.js';
import type { profilesRemove } from './index.js';

export async function run({ io, services, args: [name] }: Invocation<typeof profilesRemove>): Promise<void> {
  const config = services.config();
  if (!config.profiles[name]) throw missingProfile(name, config);
  if (config.profiles[name].tokenInKeychain) await deleteFromKeychain(services, name);
  await updateConfig(services.configDir, (latest) => {
    if (!latest.profiles[name]) throw missingProfile(name, latest);
    delete latest.profiles[name];
    if (latest.currentProfile === name) delete latest.currentProfile;
  });
  await io.output.note(`removed profile ${name}`);
}
