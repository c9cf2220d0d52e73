import { describeProfile } from '../../config/profiles.js';
import { DEFAULT_PROFILE, DEFAULT_PROFILE_SETTINGS } from '../../config/store.js';
import type { Invocation } from '../spec.js';
import type { profilesList } from './index.js';

export async function run({ io, services, view }: Invocation<typeof profilesList>): Promise<void> {
  const writer = io.output.list(view);
  const config = services.config();
  const current = config.currentProfile ?? DEFAULT_PROFILE;
  const profiles = { ...(config.profiles[DEFAULT_PROFILE] ? {} : { [DEFAULT_PROFILE]: DEFAULT_PROFILE_SETTINGS }), ...config.profiles };
  await writer.write(Object.entries(profiles).map(([name, profile]) => describeProfile(name, profile, name === current)));
  await writer.end();
}
