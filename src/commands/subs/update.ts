import { updateSubscription } from '../../api/subscriptions.js';
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
  if (opts.lifetime === true) body.duration = null;
  if (given('expirationDate') !== undefined) body.expirationDate = parseFutureDate('--expiration-date', given('expirationDate')!);
  if (Object.keys(body).length === 0) {
    throw usageError('nothing to change: give at least one of --customer, --card, --frequency, --title, --amount, --duration, --lifetime, --expiration-date');
  }
  const updated = await updateSubscription(await ctx.api(), id, body);
  await ctx.output.item(subscriptionView, updated);
  await ctx.output.note(`subscription ${updated.id} updated: ${Object.keys(body).join(', ')}`);
}
