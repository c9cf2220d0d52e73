import { knownSubaccountView, subaccountView } from '../../output/views.js';
import { parseNonEmpty } from '../../validation/flags.js';
import { fieldOptions, FROM_FILE_OPTION } from '../shared/body-fields.js';
import { command, defineCommand, group, pickedArg } from '../spec.js';
import { PF_FIELDS, PJ_FIELDS } from './create-fields.js';

const CREATE_DESCRIPTION = (kind: string) =>
  `Create a ${kind} sub-account (status PENDING until approved). Every body field has a flag; --from-file gives the whole body ` +
  "in the API's shape and flags override its values (address flags fill the first address). At a terminal a wizard asks " +
  'the required values still missing, section by section; without one the command names every missing flag and sends nothing.';

export const subaccountsList = defineCommand({
  name: 'list',
  summary: 'List the sub-accounts: the sandbox\'s, or those this profile has created, used or seen in splits',
  description:
    'List the sub-accounts by name and status. The API has no list of them: against a sandbox its own list (GET /sandbox/subaccounts) is shown; ' +
    'elsewhere, the sub-accounts this profile has created, used or seen receiving splits (every page of subscriptions is read for them), ' +
    'with the name and status last seen, remembered in the profile. The names then label sub-accounts in confirmations, pick lists and tables.',
  view: knownSubaccountView,
  examples: ['payctl subaccounts list', 'payctl subaccounts list --json | jq -r \'.[] | select(.status == "APPROVED") | .id\''],
});

export const subaccountsUse = defineCommand({
  name: 'use',
  summary: "Set the profile's active sub-account: bank accounts, withdrawals and balance then run in it",
  description:
    'Takes the sub-account by its id, or by its name when exactly one sub-account payctl can list (payctl subaccounts list) has that ' +
    'name, compared without regard to case or accents; a name that matches none or several is exit 2, listing the candidates.',
  args: [pickedArg('id', 'sub-account id (UUID, or its first 8 characters) or its name; picked from a list at a terminal when missing', parseNonEmpty)],
  examples: [
    'payctl subaccounts use 3f2b8c1e-0d4a-4b6e-9a7c-2e5d1f0a9b3c',
    'payctl subaccounts use "Acme Loja Norte"',
    'payctl balance --main-account   # once, in the main account',
  ],
});

export const subaccountsClear = defineCommand({
  name: 'clear',
  summary: 'Go back to the main account',
  examples: ['payctl subaccounts clear'],
});

export const createPf = defineCommand({
  name: 'pf',
  summary: 'Create a natural-person (PF) sub-account',
  description: CREATE_DESCRIPTION('natural-person (PF)'),
  options: { fromFile: FROM_FILE_OPTION, ...fieldOptions(PF_FIELDS) },
  view: subaccountView,
  changesData: true,
  examples: [
    'payctl subaccounts create pf            # wizard: partner, address, bank account',
    'payctl subaccounts create pf --from-file ana.json',
    'payctl subaccounts create pf --from-file ana.json --bank-account-number 98765-4   # file, one value changed',
    'jq \'.name = "Ana"\' base.json | payctl subaccounts create pf --from-file - --json',
  ],
});

export const createPj = defineCommand({
  name: 'pj',
  summary: 'Create a legal-entity (PJ) sub-account',
  description: CREATE_DESCRIPTION('legal-entity (PJ)'),
  options: { fromFile: FROM_FILE_OPTION, ...fieldOptions(PJ_FIELDS) },
  view: subaccountView,
  changesData: true,
  examples: [
    'payctl subaccounts create pj            # wizard: partner, legal data, address, bank account',
    'payctl subaccounts create pj --from-file loja.json --legal-cnpj 11.222.333/0001-81',
    'payctl subaccounts create pj --from-file loja.json --dry-run',
  ],
});

export const subaccountsCommands = group('subaccounts', 'List and create sub-accounts, and choose the sub-account commands run in', [
  command(subaccountsList, () => import('./list.js')),
  command(subaccountsUse, () => import('./use.js')),
  command(subaccountsClear, () => import('./clear.js')),
  group('create', 'Create a sub-account: pf (natural person) or pj (legal entity)', [
    command(createPf, () => import('./create.js')),
    command(createPj, () => import('./create.js')),
  ], [
    'payctl subaccounts create pf      # wizard: partner, address, bank account',
    'payctl subaccounts create pj --from-file loja.json --dry-run',
  ]),
], [
  'payctl subaccounts list',
  'payctl subaccounts use "Acme Loja Norte"',
  'payctl subaccounts clear',
  'payctl subaccounts create pf      # wizard: partner, address, bank account',
]);
