import { changeProfile } from '../../config/profiles.js';
import type { Invocation } from '../spec.js';
import type { subaccountsClear } from './index.js';

export async function run({ io, services }: Invocation<typeof subaccountsClear>): Promise<void> {
  const name = services.settings().profileName;
  await changeProfile(services, name, (profile) => {
    delete profile.subaccount;
  });
  await io.output.note(`profile ${name} now runs in the main account`);
}
