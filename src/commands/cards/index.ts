import { cardView } from '../../output/views.js';
import { parseExpirationMonth, parseExpirationYear, parseNonEmpty, type Parser } from '../../validation/flags.js';
import { parseId } from '../../config/shown-ids.js';
import { command, defineCommand, group, pickedArg, switchOption, valueOption } from '../spec.js';

const parseHolder: Parser<string> = (flag, raw) => parseNonEmpty(flag, raw, 100);

export const cardsTokenize = defineCommand({
  name: 'tokenize',
  summary: 'Tokenize a credit card and tie it to a customer',
  description:
    'Tokenize a credit card. The card number and security code are never flags: they are asked with masking at a terminal, ' +
    'or read from stdin with --card-stdin (the number on the first line, the security code on the second). ' +
    'payctl checks the number (13 to 16 digits and its Luhn check digit, so a mistyped digit never leaves the machine), ' +
    'the security code (3 or 4 digits), the month (01 to 12) and the year (4 digits) before sending. ' +
    'Without --customer the customer is searched for at a terminal, by name, e-mail or document.',
  options: {
    customer: valueOption('id', 'customer the card is tied to (UUID, or its first 8 characters); searched for by name, e-mail or document when missing', parseId),
    holderName: valueOption('name', 'name exactly as on the card', parseHolder),
    expMonth: valueOption('mm', 'expiration month, 01 to 12', parseExpirationMonth),
    expYear: valueOption('yyyy', 'expiration year, 4 digits', parseExpirationYear),
    cardStdin: switchOption('read the card number, then the security code, one a line, from stdin'),
  },
  view: cardView,
  changesData: true,
  examples: [
    'payctl cards tokenize      # asks customer, holder, number (masked), expiry and security code (masked)',
    'payctl cards tokenize --customer 8d0c2f7a-5b1e-4c3d-9f6a-1e2b3c4d5e6f --holder-name "ANA SOUZA" --exp-month 08 --exp-year 2030',
    'printf \'%s\\n%s\\n\' "$CARD_NUMBER" "$CVV" | payctl cards tokenize --card-stdin --customer 8d0c2f7a-5b1e-4c3d-9f6a-1e2b3c4d5e6f ' +
      '--holder-name "ANA SOUZA" --exp-month 08 --exp-year 2030 --json',
  ],
});

export const cardsGet = defineCommand({
  name: 'get',
  summary: 'Show one card token: brand, first and last 4 digits, expiry, checks',
  args: [
    pickedArg(
      'id',
      'card token id (UUID, or its first 8 characters); at a terminal, when missing, the customer is searched for and the cards their subscriptions charge listed',
      parseId,
    ),
  ],
  view: cardView,
  examples: ['payctl cards get 0b7f8e2a-3c4d-4e5f-8a9b-0c1d2e3f4a5b', 'payctl cards get 0b7f8e2a-3c4d-4e5f-8a9b-0c1d2e3f4a5b --json | jq .customerId'],
});

export const cardsCommands = group('cards', 'Tokenize a credit card for a customer, or read a card token', [
  command(cardsTokenize, () => import('./tokenize.js')),
  command(cardsGet, () => import('./get.js')),
], [
  'payctl cards tokenize      # asks customer, holder, number (masked), expiry and security code (masked)',
  'payctl cards get 0b7f8e2a-3c4d-4e5f-8a9b-0c1d2e3f4a5b',
]);
