import { describeProfile, missingProfile, profileOrDefault } from '../../config/profiles.js';
import { DEFAULT_PROFILE } from '../../config/store.js';
import type { Invocation } from '../spec.js';
import type { profilesShow } from './index.js';

export async function run({ services, args: [given], print }: Invocation<typeof profilesShow>): Promise<void> {
  const config = services.config();
  const name = given ?? services.settings().profileName;
  const profile = profileOrDefault(services, name);
  if (!profile) throw missingProfile(name, config);
  await print(describeProfile(name, profile, name === (config.currentProfile ?? DEFAULT_PROFILE)));
}
