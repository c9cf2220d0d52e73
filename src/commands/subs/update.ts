import { updateSubscription } from '../../api/subscriptions.js';
import type { UpdateSubscriptionRequest } from '../../api/types.js';
import { usageError } from '../../errors.js';
import { resolveRequired } from '../../prompt.js';
import { CHANGEABLE, pickSubscription } from '../shared/pickers.js';
import { CARD_NOT_FOUND, CARD_NOT_THE_CUSTOMERS, withHints } from '../shared/hints.js';
import type { Invocation } from '../spec.js';
import { cancelledHint, changeableSubscription } from './changeable.js';
import type { subsUpdate } from './index.js';

export async function run(invocation: Invocation<typeof subsUpdate>): Promise<void> {
  const { io, services, opts, flag, needArg, print } = invocation;
  const body: UpdateSubscriptionRequest = {};
  if (opts.customer !== undefined) body.customerId = opts.customer;
  if (opts.card !== undefined) body.tokenizedCardId = opts.card;
  if (opts.frequency !== undefined) body.frequency = opts.frequency;
  if (opts.title !== undefined) body.title = opts.title;
  if (opts.amount !== undefined) body.amount = opts.amount;
  if (opts.duration !== undefined) body.duration = opts.duration;
  if (opts.expirationDate !== undefined) body.expirationDate = opts.expirationDate;
  const changed = [...Object.keys(body), ...(opts.lifetime ? ['lifetime'] : [])];
  if (changed.length === 0) {
    const every = (['customer', 'card', 'frequency', 'title', 'amount', 'duration', 'lifetime', 'expirationDate'] as const).map(flag);
    throw usageError(`nothing to change: give at least one of ${every.join(', ')}`);
  }
  const pick = { statuses: CHANGEABLE, message: 'Subscription to change' };
  const { id } = await resolveRequired(invocation, { id: needArg(0, (field) => pickSubscription(invocation, field, pick)) });
  const api = await services.api();
  // The API reads an omitted duration as lifetime (and an omitted expiration date as none):
  // what the user did not change is sent again as it is.
  const current = await changeableSubscription(api, id, 'update');
  if (!opts.lifetime) {
    body.duration ??= current.duration;
    body.expirationDate ??= current.expirationDate;
  }
  const customer = body.customerId ?? current.customerId;
  const cards = `the card must be the customer's: payctl customers get ${customer} shows the cards their subscriptions charge`;
  const updated = await withHints(updateSubscription(api, id, body), { ...cancelledHint(id), [CARD_NOT_FOUND]: cards, [CARD_NOT_THE_CUSTOMERS]: cards });
  if (!updated) return;
  await print(updated);
  await io.output.note(`subscription ${updated.id} updated: ${changed.join(', ')}`);
}
