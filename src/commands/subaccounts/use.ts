import { changeProfile } from '../../config/profiles.js';
import { resolveShownId, shownIdsBeginning } from '../../config/shown-ids.js';
import type { Context } from '../../context.js';
import { usageError } from '../../errors.js';
import { isPrefixOfUuid } from '../../validation/ids.js';
import { resolveRequired } from '../../prompt.js';
import { foldForSearch, isUuid } from '../../validation/rules.js';
import { rememberSubaccounts, subaccountLabel } from '../../subaccount-names.js';
import { pickSubaccount } from '../shared/pickers.js';
import { subaccountDirectory } from '../shared/subaccounts.js';
import type { Invocation } from '../spec.js';
import type { subaccountsUse } from './index.js';

export async function run(invocation: Invocation<typeof subaccountsUse>): Promise<void> {
  const { io, services, needArg } = invocation;
  const { id: idOrName } = await resolveRequired(invocation, { id: needArg(0, (field) => pickSubaccount(invocation, field)) });
  const id = isUuid(idOrName) ? idOrName.toLowerCase() : (shownSubaccount(invocation, idOrName) ?? (await subaccountNamed(invocation, idOrName)));
  const name = services.settings().profileName;
  await changeProfile(services, name, (profile) => {
    profile.subaccount = id;
  });
  await rememberSubaccounts(services, [{ id, seenAs: 'used' }]);
  await io.output.note(`profile ${name} now runs in sub-account ${subaccountLabel(services, id)}; go back with: payctl subaccounts clear`);
}

/** The id a table showed that begins with `text`, when it has the shape of one's first characters and one does; several: exit 2. */
function shownSubaccount({ services }: Context, text: string): string | undefined {
  const prefix = text.trim().toLowerCase();
  if (!isPrefixOfUuid(prefix) || shownIdsBeginning(services, prefix).length === 0) return undefined;
  return resolveShownId(services, 'sub-account id', prefix);
}

/** The one sub-account payctl can list under this name (case and accents aside), else exit 2 naming the candidates. */
async function subaccountNamed(ctx: Context, wanted: string): Promise<string> {
  const { subaccounts } = await subaccountDirectory(ctx);
  const named = subaccounts.filter((subaccount): subaccount is typeof subaccount & { name: string } => typeof subaccount.name === 'string');
  const matches = named.filter((subaccount) => foldForSearch(subaccount.name) === foldForSearch(wanted));
  const [only, ...others] = matches;
  if (only && others.length === 0) return only.id;
  const candidates = (matches.length > 1 ? matches : named).map((subaccount) => `${subaccount.name} (${subaccount.id})`);
  const shown = candidates.slice(0, 10).join('; ') + (candidates.length > 10 ? `; and ${candidates.length - 10} more` : '');
  throw usageError(
    matches.length > 1
      ? `sub-account name "${wanted}" names ${matches.length} sub-accounts: ${shown}`
      : `no sub-account payctl can list is named "${wanted}"${named.length > 0 ? `; known: ${shown}` : ''}`,
    'give the sub-account id instead (payctl subaccounts list shows ids and names)',
  );
}
