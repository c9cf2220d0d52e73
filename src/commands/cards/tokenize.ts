import { tokenizeCard } from '../../api/cards.js';
import { usageError } from '../../errors.js';
import { askParsed, resolveRequired } from '../../prompt.js';
import { readLines } from '../../stdin.js';
import { parseCardNumber, parseSecurityCode } from '../../validation/flags.js';
import { pickCustomer } from '../shared/pickers.js';
import type { Invocation } from '../spec.js';
import type { cardsTokenize } from './index.js';

export async function run(invocation: Invocation<typeof cardsTokenize>): Promise<void> {
  const { io, services, opts, flag, need, print } = invocation;
  let cardNumber: string | undefined;
  let securityCode: string | undefined;
  if (opts.cardStdin) {
    const [numberLine, codeLine] = await readLines(io.stdin, 2);
    if (!numberLine || !codeLine) throw usageError(`${flag('cardStdin')}: stdin must hold the card number on the first line and the security code on the second`);
    services.secrets.add(numberLine);
    cardNumber = parseCardNumber(`${flag('cardStdin')} card number`, numberLine);
    securityCode = parseSecurityCode(`${flag('cardStdin')} security code`, codeLine);
  }
  const body = await resolveRequired(invocation, {
    customerId: need('customer', (field) => pickCustomer(invocation, field)),
    holderName: need('holderName', (field) => field.text('Holder name, exactly as on the card')),
    cardNumber: { flag: flag('cardStdin'), value: cardNumber, ask: (prompter) => askParsed(prompter, 'secret', 'Card number', parseCardNumber, 'card number') },
    expirationMonth: need('expMonth', (field) => field.text('Expiration month (MM)')),
    expirationYear: need('expYear', (field) => field.text('Expiration year (YYYY)')),
    securityCode: { flag: flag('cardStdin'), value: securityCode, ask: (prompter) => askParsed(prompter, 'secret', 'Security code', parseSecurityCode, 'security code') },
  });
  services.secrets.add(body.cardNumber);
  const card = await tokenizeCard(await services.api(), body);
  if (!card) return;
  await print(card);
  await io.output.note(`card ${card.first4Digits}…${card.last4Digits} (${card.cardBrand}) tokenized as ${card.id} for customer ${card.customerId}`);
}
