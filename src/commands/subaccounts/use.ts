import { changeProfile } from '../../config/profiles.js';
import type { Invocation } from '../spec.js';
import type { subaccountsUse } from './index.js';

export async function run({ io, services, args: [id] }: Invocation<typeof subaccountsUse>): Promise<void> {
  const name = services.settings().profileName;
  await changeProfile(services, name, (profile) => {
    profile.subaccount = id;
  });
  await io.output.note(`profile ${name} now runs in sub-account ${id}; go back with: payctl subaccounts clear`);
}
