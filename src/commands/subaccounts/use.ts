import { changeProfile } from '../../config/profiles.js';
import { resolveRequired } from '../../prompt.js';
import { rememberSubaccounts, subaccountLabel } from '../../subaccount-names.js';
import { pickSubaccount } from '../shared/pickers.js';
import type { Invocation } from '../spec.js';
import type { subaccountsUse } from './index.js';

export async function run(invocation: Invocation<typeof subaccountsUse>): Promise<void> {
  const { io, services, needArg } = invocation;
  const { id } = await resolveRequired(invocation, { id: needArg(0, (field) => pickSubaccount(invocation, field)) });
  const name = services.settings().profileName;
  await changeProfile(services, name, (profile) => {
    profile.subaccount = id;
  });
  await rememberSubaccounts(services, [{ id, seenAs: 'used' }]);
  await io.output.note(`profile ${name} now runs in sub-account ${subaccountLabel(services, id)}; go back with: payctl subaccounts clear`);
}
