import { updateSubscription } from '../../api/subscriptions.js';
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
  if (opts.lifetime) body.duration = null;
  if (opts.expirationDate !== undefined) body.expirationDate = opts.expirationDate;
  if (Object.keys(body).length === 0) {
    const every = (['customer', 'card', 'frequency', 'title', 'amount', 'duration', 'lifetime', 'expirationDate'] as const).map(flag);
    throw usageError(`nothing to change: give at least one of ${every.join(', ')}`);
  }
  const updated = await updateSubscription(await services.api(), id, body);
  if (!updated) return;
  await print(updated);
  await io.output.note(`subscription ${updated.id} updated: ${Object.keys(body).join(', ')}`);
}
