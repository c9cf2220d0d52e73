import { customerView } from '../../output/views.js';
import { parseId } from '../../config/shown-ids.js';
import { fieldOptions, FROM_FILE_OPTION } from '../shared/body-fields.js';
import { ALL_OR_PAGE, PAGING_OPTIONS } from '../shared/list.js';
import { command, defineCommand, group, pickedArg, valueOption } from '../spec.js';
import { CUSTOMER_FIELDS } from './fields.js';
import { parseDocumentSearch, parseEmailSearch, parseNameSearch, parsePhoneSearch } from './search.js';

const idArg = pickedArg('id', 'customer id (UUID, or its first 8 characters); at a terminal, searched for by name, e-mail or document when missing', parseId);

export const customersList = defineCommand({
  name: 'list',
  summary: 'List customers, a page at a time (or --all)',
  options: PAGING_OPTIONS,
  exclusive: [ALL_OR_PAGE],
  view: customerView,
  examples: [
    'payctl customers list',
    'payctl customers list --page 2 --limit 50',
    'payctl customers list --all -o csv > customers.csv',
    'payctl customers list --fields id,email,document --json',
    "payctl customers list --all --jq '.[] | select(.address.state == \"SP\") | .email'",
  ],
});

export const customersGet = defineCommand({
  name: 'get',
  summary: 'Show one customer with its address; as a table, with their subscriptions and cards',
  description:
    'Show one customer. As a table (at a terminal, or -o table) their subscriptions and the cards those charge follow, read from every page ' +
    "of subscriptions (the API has no customer filter); json, ndjson, csv and tsv keep the API's customer record alone " +
    '(payctl subs list --customer ID --json gives the subscriptions). Without an id, at a terminal, the customer is searched for.',
  args: [idArg],
  view: customerView,
  examples: ['payctl customers get 8d0c2f7a-5b1e-4c3d-9f6a-1e2b3c4d5e6f', 'payctl customers get 8d0c2f7a-5b1e-4c3d-9f6a-1e2b3c4d5e6f --jq .address.city'],
});

export const customersFind = defineCommand({
  name: 'find',
  summary: 'Find customers by e-mail, document, name or phone, scanning every page',
  description:
    'Find customers by e-mail, document, name or phone: scans every page of the list, many pages at a time (fewer when the API answers 429), ' +
    'and prints the ones that match every flag given as soon as each is found (a table shows them at the end). ' +
    '--email matches the whole address, ignoring case; --document the CPF or CNPJ digits, ignoring dots, dashes and slashes; ' +
    '--name a part of the full name, ignoring case and accents; --phone the number, ignoring +55, spaces and punctuation. ' +
    'No match prints an empty list and exits 0.',
  options: {
    email: valueOption('email', 'e-mail address, any case', parseEmailSearch),
    document: valueOption('cpf-or-cnpj', 'CPF or CNPJ (check digits verified), with or without punctuation', parseDocumentSearch),
    name: valueOption('text', 'part of the first and last name, any case or accents', parseNameSearch),
    phone: valueOption('number', 'phone number, with or without +55 and punctuation', parsePhoneSearch),
  },
  view: customerView,
  examples: [
    'payctl customers find --email ana.souza@example.com',
    'payctl customers find --document 123.456.789-09',
    "payctl customers find --name 'joao silva' --jq '.[].id'",
    'payctl customers find --phone "+55 11 91234-5678" --fields id,firstName,email',
  ],
});

export const customersUpdate = defineCommand({
  name: 'update',
  summary: 'Change a customer: the fields given, nothing else',
  description:
    "Change a customer. Every body field has a flag; --from-file gives a body in the API's shape and flags override its values. " +
    'Only the fields given change. A customer without an address needs every address field the first time: payctl checks ' +
    'that before sending, and at a terminal asks the missing ones.',
  args: [idArg],
  options: { fromFile: FROM_FILE_OPTION, ...fieldOptions(CUSTOMER_FIELDS) },
  view: customerView,
  changesData: true,
  examples: [
    'payctl customers update 8d0c2f7a-5b1e-4c3d-9f6a-1e2b3c4d5e6f --email ana.souza@example.com --phone-number "+55 11 91234-5678"',
    'payctl customers update 8d0c2f7a-5b1e-4c3d-9f6a-1e2b3c4d5e6f --address-zipcode 01310-100 --address-street "Av. Paulista" ' +
      '--address-street-number 1000 --address-neighborhood "Bela Vista" --address-city "São Paulo" --address-state SP ' +
      '--address-complement "ap 12" --address-reference "near the MASP"',
    'payctl customers update 8d0c2f7a-5b1e-4c3d-9f6a-1e2b3c4d5e6f --from-file changes.json --dry-run',
  ],
});

export const customersCommands = group('customers', 'List, show and update customers', [
  command(customersList, () => import('./list.js')),
  command(customersGet, () => import('./get.js')),
  command(customersFind, () => import('./find.js')),
  command(customersUpdate, () => import('./update.js')),
], [
  'payctl customers list --all -o csv > customers.csv',
  'payctl customers find --email ana.souza@example.com',
  'payctl customers get      # searches and picks a customer',
  'payctl customers update 8d0c2f7a-5b1e-4c3d-9f6a-1e2b3c4d5e6f --email ana.souza@example.com --dry-run',
]);
