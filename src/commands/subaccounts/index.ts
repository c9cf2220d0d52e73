import type { CommandSpec } from '../spec.js';
import { fieldOptions, FROM_FILE_OPTION } from '../shared/body-fields.js';
import { subaccountFields } from './create-fields.js';

const CREATE_DESCRIPTION = (kind: string) =>
  `Create a ${kind} sub-account (status PENDING until approved). Every body field has a flag; --from-file gives the whole body ` +
  "in the API's shape and flags override its values (address flags fill the first address). At a terminal a wizard asks " +
  'the required values still missing, section by section; without one the command names every missing flag and sends nothing.';

export const subaccountsCommands: CommandSpec = {
  name: 'subaccounts',
  summary: 'Create sub-accounts, and choose the sub-account commands run in',
  subcommands: [
    {
      name: 'use',
      summary: "Set the profile's active sub-account: bank accounts, withdrawals and balance then run in it",
      args: [{ name: 'id', description: 'sub-account id (UUID)' }],
      examples: ['payctl subaccounts use 3f2b8c1e-0d4a-4b6e-9a7c-2e5d1f0a9b3c', 'payctl balance --main-account   # once, in the main account'],
      load: () => import('./use.js'),
    },
    {
      name: 'clear',
      summary: 'Go back to the main account',
      examples: ['payctl subaccounts clear'],
      load: () => import('./clear.js'),
    },
    {
      name: 'create',
      summary: 'Create a sub-account: pf (natural person) or pj (legal entity)',
      subcommands: [
        {
          name: 'pf',
          summary: 'Create a natural-person (PF) sub-account',
          description: CREATE_DESCRIPTION('natural-person (PF)'),
          options: [FROM_FILE_OPTION, ...fieldOptions(subaccountFields('pf'))],
          changesData: true,
          examples: [
            'payctl subaccounts create pf            # wizard: partner, address, bank account',
            'payctl subaccounts create pf --from-file ana.json',
            'payctl subaccounts create pf --from-file ana.json --bank-account-number 98765-4   # file, one value changed',
            'jq \'.name = "Ana"\' base.json | payctl subaccounts create pf --from-file - --json',
          ],
          load: () => import('./create-pf.js'),
        },
        {
          name: 'pj',
          summary: 'Create a legal-entity (PJ) sub-account',
          description: CREATE_DESCRIPTION('legal-entity (PJ)'),
          options: [FROM_FILE_OPTION, ...fieldOptions(subaccountFields('pj'))],
          changesData: true,
          examples: [
            'payctl subaccounts create pj            # wizard: partner, legal data, address, bank account',
            'payctl subaccounts create pj --from-file loja.json --legal-cnpj 11.222.333/0001-81',
            'payctl subaccounts create pj --from-file loja.json --dry-run',
          ],
          load: () => import('./create-pj.js'),
        },
      ],
    },
  ],
};
