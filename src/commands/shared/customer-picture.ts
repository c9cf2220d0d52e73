import { getCard, type CardAnswer } from '../../api/cards.js';
import { listSubscriptions, type ListedSubscription, type SubscriptionFilters } from '../../api/subscriptions.js';
import type { Context } from '../../context.js';
import { PayctlError } from '../../errors.js';
import { isUuid } from '../../validation/rules.js';
import type { ApiClient } from '../../http/client.js';
import { readsAtOnce } from '../../http/reads-at-once.js';
import { SCAN_PAGE_SIZE } from './list.js';
import { collectPages, pagesOf } from './scan.js';

/**
 * A customer's whole picture, which the API gives only in pieces: subscriptions
 * have no customer filter (every page is read and that customer's kept), and
 * cards have no list (those the customer's subscriptions charge are read one by one).
 */

/** A customer's name as people read it; a customer without one is named by id. */
export const customerName = (customer: { id: string; firstName?: unknown; lastName?: unknown }): string =>
  `${textOrNothing(customer.firstName)} ${textOrNothing(customer.lastName)}`.trim() || `customer ${customer.id}`;

const textOrNothing = (value: unknown) => (typeof value === 'string' ? value : '');

/** Whether a subscription is this customer's. */
export const ofCustomer =
  (customerId: string) =>
  (subscription: { customerId?: unknown }): boolean =>
    subscription.customerId === customerId;

/** The customer's subscriptions, in the list's order, read from every page (filters the API has narrow the pages). */
export function subscriptionsOf({ io }: Context, api: ApiClient, customerId: string, filters: SubscriptionFilters = {}): Promise<ListedSubscription[]> {
  return collectPages(
    pagesOf(listSubscriptions, api, filters),
    { limit: SCAN_PAGE_SIZE, signal: io.signal },
    ofCustomer(customerId),
  );
}

/** The card id a subscription charges: `cardId` in the list, `tokenizedCardId` in a single read. */
const cardIdOf = (subscription: { cardId?: unknown; tokenizedCardId?: unknown }) => subscription.cardId ?? subscription.tokenizedCardId;

/**
 * The cards these subscriptions charge, each read once, in the order first charged.
 * A card the API no longer finds (-7508) is left out; any other failure stands, and the
 * cards still being read are given up. A card id that is not a UUID (an answer not quite
 * the API's) is not asked for: the API refuses such a path, which would end the whole
 * picture over one card.
 */
export async function cardsCharged(api: ApiClient, subscriptions: ReadonlyArray<{ cardId?: unknown; tokenizedCardId?: unknown }>): Promise<CardAnswer[]> {
  const ids = [...new Set(subscriptions.map(cardIdOf).filter((id): id is string => typeof id === 'string' && isUuid(id)))];
  const cards = await readsAtOnce(
    ids.map((id) => (signal: AbortSignal) =>
      getCard(api, id, { signal }).catch((error: unknown) => {
        if (error instanceof PayctlError && error.returnCode === -7508) return undefined;
        throw error;
      }),
    ),
  );
  return cards.filter((card) => card !== undefined);
}
