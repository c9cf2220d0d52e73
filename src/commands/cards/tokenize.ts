import { tokenizeCard } from '../../api/cards.js';
import type { Context } from '../../context.js';
import { usageError } from '../../errors.js';
import { cardView } from '../../output/views.js';
import { resolveRequired } from '../../prompt.js';
import { readLines } from '../../stdin.js';
import { asPromptCheck, parseCardNumber, parseExpirationMonth, parseExpirationYear, parseNonEmpty, parseSecurityCode, parseUuid } from '../../validate.js';
import { pickCustomer } from '../shared/pickers.js';
import { optString, type CommandInput } from '../spec.js';

const parseHolder = (flag: string, raw: string) => parseNonEmpty(flag, raw, 100);

export async function run(ctx: Context, { opts }: CommandInput): Promise<void> {
  ctx.output.fieldsFor(cardView);
  const flag = (key: string, parse: (flag: string, raw: string) => string, name: string) => {
    const raw = optString(opts, key);
    return raw === undefined ? undefined : parse(name, raw);
  };
  const customer = flag('customer', parseUuid, '--customer');
  const holderName = flag('holderName', parseHolder, '--holder-name');
  const month = flag('expMonth', parseExpirationMonth, '--exp-month');
  const year = flag('expYear', parseExpirationYear, '--exp-year');
  let cardNumber: string | undefined;
  let securityCode: string | undefined;
  if (opts.cardStdin === true) {
    const [numberLine, codeLine] = await readLines(ctx.io.stdin, 2);
    if (!numberLine || !codeLine) throw usageError('--card-stdin: stdin must hold the card number on the first line and the security code on the second');
    ctx.secrets.add(numberLine);
    cardNumber = parseCardNumber('--card-stdin card number', numberLine);
    securityCode = parseSecurityCode('--card-stdin security code', codeLine);
  }
  const values = await resolveRequired(ctx, {
    customerId: { flag: '--customer', value: customer, ask: () => pickCustomer(ctx) },
    holderName: { flag: '--holder-name', value: holderName, ask: (p) => p.text('Holder name, exactly as on the card', { validate: asPromptCheck(parseHolder, '--holder-name') }) },
    cardNumber: { flag: '--card-stdin', value: cardNumber, ask: (p) => p.secret('Card number', { validate: asPromptCheck(parseCardNumber, 'card number') }) },
    expirationMonth: { flag: '--exp-month', value: month, ask: (p) => p.text('Expiration month (MM)', { validate: asPromptCheck(parseExpirationMonth, '--exp-month') }) },
    expirationYear: { flag: '--exp-year', value: year, ask: (p) => p.text('Expiration year (YYYY)', { validate: asPromptCheck(parseExpirationYear, '--exp-year') }) },
    securityCode: { flag: '--card-stdin', value: securityCode, ask: (p) => p.secret('Security code', { validate: asPromptCheck(parseSecurityCode, 'security code') }) },
  });
  // Prompted values are parsed again: that normalises them (digits only, 0-padded month).
  const body = {
    customerId: values.customerId,
    holderName: parseHolder('--holder-name', values.holderName),
    cardNumber: parseCardNumber('card number', values.cardNumber),
    expirationMonth: parseExpirationMonth('--exp-month', values.expirationMonth),
    expirationYear: parseExpirationYear('--exp-year', values.expirationYear),
    securityCode: parseSecurityCode('security code', values.securityCode),
  };
  ctx.secrets.add(body.cardNumber);
  const card = await tokenizeCard(await ctx.api(), body);
  await ctx.output.item(cardView, card);
  await ctx.output.note(`card ${card.first4Digits}…${card.last4Digits} (${card.cardBrand}) tokenized as ${card.id} for customer ${card.customerId}`);
}
