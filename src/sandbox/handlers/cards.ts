import { randomUUID } from 'node:crypto';
import type { Card, TokenizeCardRequest, TokenizedCard } from '../../api/types.js';
import { findOrFail, single, type CompanyRequest, type Reply } from '../context.js';
import { ApiError } from '../errors.js';
import { cardBrand, isCardExpired, passesLuhn } from '../../validation/rules.js';

/** The tokenize answer: the card without createdAt. */
function tokenizedView({ createdAt: _createdAt, ...card }: Card): TokenizedCard {
  return card;
}

/**
 * Keeps only what the card's answers show: first and last four digits and the
 * brand. The full number and the security code are dropped here, so each call
 * makes a new token (there is nothing to recognise a card by).
 */
export function tokenizeCard({ company, body, now, changes }: CompanyRequest): Reply {
  const request = body as TokenizeCardRequest;
  findOrFail(company.customers, request.customerId, 'customerNotFound', 'customer');
  if (!passesLuhn(request.cardNumber)) throw new ApiError('cardNumberInvalid', 'cardNumber fails the Luhn check');
  if (isCardExpired(request.expirationMonth, request.expirationYear, now)) throw new ApiError('cardExpired', 'card expired');
  const card: Card = {
    id: randomUUID(),
    customerId: request.customerId,
    holderName: request.holderName,
    first4Digits: request.cardNumber.slice(0, 4),
    last4Digits: request.cardNumber.slice(-4),
    expirationMonth: request.expirationMonth,
    expirationYear: request.expirationYear,
    cardBrand: cardBrand(request.cardNumber),
    isActive: true,
    isVerified: false,
    postalCodeCheck: false,
    securityCodeCheck: false,
    addressCheck: false,
    createdAt: now.toISOString(),
  };
  company.cards.add(card);
  changes.card(card);
  return single(tokenizedView(card), 'Card tokenized');
}

/** A card of the company's customers; anything else is -7508, as the reference says. */
export const findCard = (request: CompanyRequest, id: unknown) => findOrFail(request.company.cards, id, 'cardNotFound', 'tokenized card');

export const getCard = (request: CompanyRequest): Reply => single(findCard(request, request.params.tokenizedCardId), 'Card found');
