import { randomUUID } from 'node:crypto';
import type {
  AddSplitRequest,
  CancelledSubscription,
  Card,
  CreateSubscriptionRequest,
  Split,
  SplitListItem,
  Subscription,
  SubscriptionListItem,
  UpdateSubscriptionRequest,
} from '../../api/types.js';
import type { SubscriptionFilters } from '../../api/subscriptions.js';
import { findOrFail, pageMeta, pageQuery, single, type CompanyRequest, type Reply } from '../context.js';
import { ApiError } from '../errors.js';
import { splitAllowanceCents, splitGrossCents, splitLiquidCents } from '../fees.js';
import { foldForSearch, isoDay } from '../../validation/rules.js';
import { replaceContents } from '../store.js';
import { findCard } from './cards.js';
import { findCustomer } from './customers.js';
import { findSubaccount } from './subaccounts.js';

const DAY_MS = 86_400_000;

/** A subscription of the company that can still change: DELETED ones never come back. */
function findChangeableSubscription(request: CompanyRequest, id: unknown): Subscription {
  const subscription = findSubscription(request, id);
  if (subscription.status === 'DELETED')
    throw new ApiError('subscriptionCancelled', `subscription ${subscription.id} is cancelled (DELETED) and cannot change`);
  return subscription;
}

const findSubscription = ({ company }: CompanyRequest, id: unknown) => findOrFail(company.subscriptions, id, 'subscriptionNotFound', 'subscription');

/** The card to charge, which must be the company's (-7508) and the customer's (-7511). */
function cardOfCustomer(request: CompanyRequest, cardId: string, customerId: string): Card {
  const card = findCard(request, cardId);
  if (card.customerId !== customerId) throw new ApiError('cardNotOfCustomer', `tokenized card ${card.id} belongs to another customer`);
  return card;
}

/** Refuses splits whose gross values would exceed what is left of `amount` after the subscription fee. */
function checkSplitAllowance(splits: ReadonlyArray<Pick<Split, 'splitType' | 'splitAmount' | 'splitPercentage'>>, amount: number): void {
  const total = splits.reduce((sum, split) => sum + splitGrossCents(split, amount), 0);
  const allowance = splitAllowanceCents(amount);
  if (total > allowance)
    throw new ApiError('splitSumExceeded', `splits would total ${total} cents; at most ${allowance} of ${amount} are left after the subscription fee`);
}

function checkNotPast(date: string | undefined, field: string, now: Date): void {
  if (date && date < isoDay(now)) throw new ApiError('validation', `${field} must not be in the past`);
}

const withLiquidAmounts = (splits: Split[], amount: number) =>
  splits.map((split) => ({ ...split, liquidAmount: splitLiquidCents(splitGrossCents(split, amount)) }));

/** The list's shape: cardId instead of tokenizedCardId, splits without id. */
function listItem({ tokenizedCardId, splits, ...subscription }: Subscription): SubscriptionListItem {
  return { ...subscription, cardId: tokenizedCardId, splits: splits.map(({ id: _id, ...split }): SplitListItem => split) };
}

function matchesFilters(subscription: Subscription, filters: SubscriptionFilters, titleNeedle: string | undefined): boolean {
  return (
    (titleNeedle === undefined || foldForSearch(subscription.title).includes(titleNeedle)) &&
    (filters.amount === undefined || subscription.amount === filters.amount) &&
    (filters.setupAmount === undefined || subscription.setupAmount === filters.setupAmount) &&
    (filters.frequency === undefined || subscription.frequency === filters.frequency) &&
    (filters.startDate === undefined || subscription.createdAt.slice(0, 10) >= filters.startDate) &&
    (filters.status === undefined || subscription.status === filters.status) &&
    (filters.subaccountId === undefined || subscription.splits.some((split) => split.subaccountId === filters.subaccountId))
  );
}

export function listSubscriptions({ company, query }: CompanyRequest): Reply {
  const filters = query as SubscriptionFilters;
  const titleNeedle = filters.title === undefined ? undefined : foldForSearch(filters.title);
  const matching = company.subscriptions.all().filter((subscription) => matchesFilters(subscription, filters, titleNeedle));
  const paging = pageQuery(query);
  const start = (paging.page - 1) * paging.limit;
  return {
    body: { data: matching.slice(start, start + paging.limit).map(listItem), meta: pageMeta(matching.length, paging), message: 'Subscriptions listed' },
  };
}

export const getSubscription = (request: CompanyRequest): Reply => single(findSubscription(request, request.params.subscriptionId), 'Subscription found');

/**
 * The subscription's fields in the order its answers show them, duration and
 * expirationDate only when it has them (a lifetime subscription has neither).
 */
function subscriptionRecord(fields: Subscription): Subscription {
  const {
    id, customerId, tokenizedCardId, title, amount, setupAmount, frequency, duration,
    dueDate, expirationDate, tolerancePeriod, status, splits, createdAt, updatedAt, canceledAt,
  } = fields;
  return {
    id, customerId, tokenizedCardId, title, amount, setupAmount, frequency,
    ...(duration !== undefined && { duration }),
    dueDate,
    ...(expirationDate !== undefined && { expirationDate }),
    tolerancePeriod, status, splits, createdAt, updatedAt, canceledAt,
  };
}

/**
 * customerId, tokenizedCardId, frequency, title and amount keep their value when
 * omitted. duration and expirationDate are the subscription's term as the body
 * states it: omitted means lifetime (as the reference says of duration) and no
 * expiration date. All checks run before anything changes.
 */
export function updateSubscription(request: CompanyRequest): Reply {
  const subscription = findChangeableSubscription(request, request.params.subscriptionId);
  const { duration, expirationDate, ...changes } = request.body as UpdateSubscriptionRequest;
  const customerId = changes.customerId ?? subscription.customerId;
  if (changes.customerId !== undefined) findCustomer(request, customerId);
  cardOfCustomer(request, changes.tokenizedCardId ?? subscription.tokenizedCardId, customerId);
  const amount = changes.amount ?? subscription.amount;
  checkSplitAllowance(subscription.splits, amount);
  // the current date may be sent again even once past: only a new one must be ahead
  if (expirationDate !== subscription.expirationDate) checkNotPast(expirationDate, 'expirationDate', request.now);

  const updated = subscriptionRecord({
    ...subscription,
    ...changes,
    duration,
    expirationDate,
    splits: withLiquidAmounts(subscription.splits, amount),
    updatedAt: request.now.toISOString(),
  });
  replaceContents(subscription, updated);
  request.changes.subscription(subscription);
  return single(subscription, 'Subscription updated');
}

export function cancelSubscription(request: CompanyRequest): Reply {
  const subscription = findChangeableSubscription(request, request.params.subscriptionId);
  const now = request.now.toISOString();
  Object.assign(subscription, { status: 'DELETED', canceledAt: now, updatedAt: now });
  request.changes.subscription(subscription);
  const cancelled: CancelledSubscription = { id: subscription.id, status: 'DELETED' };
  return single(cancelled, 'Subscription cancelled');
}

export function addSplit(request: CompanyRequest): Reply {
  const body = request.body as AddSplitRequest;
  const subscription = findChangeableSubscription(request, body.subscriptionId);
  const receiver = findSubaccount(request, body.subaccountId);
  if (receiver.status !== 'APPROVED')
    throw new ApiError('subaccountNotApproved', `sub-account ${receiver.id} is ${receiver.status}: only APPROVED sub-accounts receive splits`);
  const terms =
    body.splitType === 'amount'
      ? { splitType: 'AMOUNT' as const, splitAmount: body.splitAmount, splitPercentage: null }
      : { splitType: 'PERCENTAGE' as const, splitAmount: null, splitPercentage: body.splitPercentage };
  checkSplitAllowance([...subscription.splits, terms], subscription.amount);
  const split: Split = {
    id: randomUUID(),
    subaccountId: receiver.id,
    ...terms,
    liquidAmount: splitLiquidCents(splitGrossCents(terms, subscription.amount)),
    chargebackLiable: body.chargebackLiable ?? false,
  };
  subscription.splits.push(split);
  subscription.updatedAt = request.now.toISOString();
  request.changes.subscription(subscription);
  return single(split, 'Split added');
}

export function removeSplit(request: CompanyRequest): Reply {
  const subscription = findChangeableSubscription(request, request.params.subscriptionId);
  const index = subscription.splits.findIndex((split) => split.id === request.params.splitId);
  if (index < 0) throw new ApiError('splitNotFound', `split ${String(request.params.splitId)} not found on subscription ${subscription.id}`);
  subscription.splits.splice(index, 1);
  subscription.updatedAt = request.now.toISOString();
  request.changes.subscription(subscription);
  return single({ message: 'Split removed' }, 'Split removed');
}

/** Fixture: a subscription in any status but DELETED (cancel it to get one). */
export function sandboxCreateSubscription(request: CompanyRequest): Reply {
  const body = request.body as CreateSubscriptionRequest;
  findCustomer(request, body.customerId);
  cardOfCustomer(request, body.tokenizedCardId, body.customerId);
  const now = request.now.toISOString();
  const subscription = subscriptionRecord({
    id: randomUUID(),
    customerId: body.customerId,
    tokenizedCardId: body.tokenizedCardId,
    title: body.title,
    amount: body.amount,
    setupAmount: body.setupAmount ?? 0,
    frequency: body.frequency,
    duration: body.duration,
    dueDate: body.dueDate ?? isoDay(new Date(request.now.getTime() + body.frequency * DAY_MS)),
    expirationDate: body.expirationDate,
    tolerancePeriod: body.tolerancePeriod ?? 0,
    status: body.status ?? 'ACTIVE',
    splits: [],
    createdAt: now,
    updatedAt: now,
    canceledAt: null,
  });
  request.company.subscriptions.add(subscription);
  request.changes.subscription(subscription);
  return single(subscription, 'Subscription created');
}
