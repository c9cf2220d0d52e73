import { describeProfile, missingProfile } from '../../config/profiles.js';
import { DEFAULT_PROFILE, DEFAULT_PROFILE_SETTINGS } from '../../config/store.js';
import type { Invocation } from '../spec.js';
import type { profilesShow } from './index.js';

export async function run({ services, args: [given], print }: Invocation<typeof profilesShow>): Promise<void> {
  const config = services.config();
  const name = given ?? services.settings().profileName;
  const profile = config.profiles[name] ?? (name === DEFAULT_PROFILE ? DEFAULT_PROFILE_SETTINGS : undefined);
  if (!profile) throw missingProfile(name, config);
  await print(describeProfile(name, profile, name === (config.currentProfile ?? DEFAULT_PROFILE)));
}
