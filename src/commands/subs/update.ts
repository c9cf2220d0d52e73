import { getSubscription, updateSubscription } from '../../api/subscriptions.js';
import type { UpdateSubscriptionRequest } from '../../api/types.js';
import type { Context } from '../../context.js';
import { usageError } from '../../errors.js';
import { subscriptionView } from '../../output/views.js';
import { parseCents, parseDuration, parseFrequency, parseFutureDate, parseNonEmpty, parseUuid } from '../../validate.js';
import { optString, type CommandInput } from '../spec.js';

export async function run(ctx: Context, { args, opts }: CommandInput): Promise<void> {
  const id = parseUuid('ID', args[0]!);
  ctx.output.fieldsFor(subscriptionView);
  const body: UpdateSubscriptionRequest = {};
  const given = (key: string) => optString(opts, key);
  if (given('duration') !== undefined && opts.lifetime === true) throw usageError('--duration and --lifetime cannot be used together: a lifetime subscription has no number of cycles');
  if (given('customer') !== undefined) body.customerId = parseUuid('--customer', given('customer')!);
  if (given('card') !== undefined) body.tokenizedCardId = parseUuid('--card', given('card')!);
  if (given('frequency') !== undefined) body.frequency = parseFrequency('--frequency', given('frequency')!);
  if (given('title') !== undefined) body.title = parseNonEmpty('--title', given('title')!, 120);
  if (given('amount') !== undefined) body.amount = parseCents('--amount', given('amount')!, 100);
  if (given('duration') !== undefined) body.duration = parseDuration('--duration', given('duration')!);
  if (given('expirationDate') !== undefined) body.expirationDate = parseFutureDate('--expiration-date', given('expirationDate')!);
  const lifetime = opts.lifetime === true;
  const changed = [...Object.keys(body), ...(lifetime ? ['lifetime'] : [])];
  if (changed.length === 0) {
    throw usageError('nothing to change: give at least one of --customer, --card, --frequency, --title, --amount, --duration, --lifetime, --expiration-date');
  }
  const api = await ctx.api();
  // The API reads an omitted duration as lifetime (and an omitted expiration date as none):
  // what the user did not change is sent again as it is.
  const current = await getSubscription(api, id);
  if (!lifetime) body.duration ??= current.duration;
  if (!lifetime) body.expirationDate ??= current.expirationDate;
  const updated = await updateSubscription(api, id, body);
  await ctx.output.item(subscriptionView, updated);
  await ctx.output.note(`subscription ${updated.id} updated: ${changed.join(', ')}`);
}
