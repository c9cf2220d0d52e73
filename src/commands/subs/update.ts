import { getSubscription, updateSubscription } from '../../api/subscriptions.js';
import type { UpdateSubscriptionRequest } from '../../api/types.js';
import { usageError } from '../../errors.js';
import type { Invocation } from '../spec.js';
import type { subsUpdate } from './index.js';

export async function run({ io, services, args: [id], opts, flag, print }: Invocation<typeof subsUpdate>): Promise<void> {
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
  const api = await services.api();
  // The API reads an omitted duration as lifetime (and an omitted expiration date as none):
  // what the user did not change is sent again as it is.
  const current = await getSubscription(api, id);
  if (!opts.lifetime) {
    body.duration ??= current.duration;
    body.expirationDate ??= current.expirationDate;
  }
  const updated = await updateSubscription(api, id, body);
  if (!updated) return;
  await print(updated);
  await io.output.note(`subscription ${updated.id} updated: ${changed.join(', ')}`);
}
