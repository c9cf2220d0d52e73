import type { CardAnswer } from '../../api/cards.js';
import { getCustomer } from '../../api/customers.js';
import type { ListedSubscription } from '../../api/subscriptions.js';
import { cardView, customerSubscriptionView } from '../../output/views.js';
import { resolveRequired } from '../../prompt.js';
import { cardsCharged, subscriptionsOf } from '../shared/customer-picture.js';
import { pickCustomer } from '../shared/pickers.js';
import type { Invocation } from '../spec.js';
import type { customersGet } from './index.js';

/**
 * One customer. As a table, their whole picture too: their subscriptions (every
 * page of subscriptions is read, as the API has no customer filter) and the cards
 * those charge. json, ndjson, csv and tsv keep the API's single resource, as
 * scripts read it; `subs list --customer ID` gives the subscriptions there.
 */
export async function run(invocation: Invocation<typeof customersGet>): Promise<void> {
  const { io, services, needArg, print } = invocation;
  const { id } = await resolveRequired(invocation, { id: needArg(0, (field) => pickCustomer(invocation, field)) });
  const api = await services.api();
  const customer = await getCustomer(api, id);
  await print(customer);
  if (io.output.format !== 'table' || io.output.options.fields) return;
  const subscriptions = await subscriptionsOf(invocation, api, customer.id);
  const cards = await cardsCharged(api, subscriptions);
  await io.output.note('');
  const subscriptionList = io.output.list(customerSubscriptionView);
  await subscriptionList.write(subscriptions.map((subscription) => withCard(subscription, cards)));
  await subscriptionList.end();
  await io.output.note('');
  const cardList = io.output.list(cardView);
  await cardList.write(cards);
  await cardList.end();
}

/** A subscription row with the card it charges by its last digits (`…1111`; the cards table below says which). */
function withCard(subscription: ListedSubscription, cards: readonly CardAnswer[]): ListedSubscription & { card?: unknown } {
  const card = cards.find((candidate) => candidate.id === subscription.cardId);
  return { ...subscription, card: card ? `…${String(card.last4Digits)}` : subscription.cardId };
}
