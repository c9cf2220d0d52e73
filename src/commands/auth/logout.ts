import { changeProfile } from '../../config/profiles.js';
import type { Invocation } from '../spec.js';
import type { authLogout } from './index.js';

export async function run({ io, services }: Invocation<typeof authLogout>): Promise<void> {
  const name = services.settings().profileName;
  await changeProfile(services, name, (profile) => {
    delete profile.token;
    delete profile.tokenExpiresAt;
  });
  await io.output.note(`logged out of profile ${name}`);
}
