import type { ApiClient } from '../http/client.js';
import { pageOf, type Page, type PageQuery, type PageRequestOptions } from './pages.js';
import type { AddSplitRequest, UpdateSubscriptionRequest } from './types.js';
import type { Answers, QueryParameters } from './validators.js';

/** The filters the API's list of subscriptions takes, as the document gives them. */
export type SubscriptionFilters = Omit<QueryParameters['listSubscriptions'], keyof PageQuery>;

export type ListedSubscription = Answers['listSubscriptions'][number];
export type SubscriptionAnswer = Answers['getSubscription'];

export async function listSubscriptions(
  client: ApiClient,
  query: PageQuery & SubscriptionFilters,
  options?: PageRequestOptions,
): Promise<Page<ListedSubscription>> {
  const { data, meta } = await client.call('listSubscriptions', { query, ...options });
  return pageOf(data, meta, query);
}

export async function getSubscription(client: ApiClient, id: string): Promise<SubscriptionAnswer> {
  return (await client.call('getSubscription', { params: { subscriptionId: id } })).data;
}

export async function updateSubscription(client: ApiClient, id: string, body: UpdateSubscriptionRequest): Promise<Answers['updateSubscription'] | undefined> {
  return (await client.call('updateSubscription', { params: { subscriptionId: id }, body }))?.data;
}

export async function cancelSubscription(client: ApiClient, id: string): Promise<Answers['cancelSubscription'] | undefined> {
  return (await client.call('cancelSubscription', { params: { subscriptionId: id } }))?.data;
}

export async function addSplit(client: ApiClient, body: AddSplitRequest): Promise<Answers['addSplit'] | undefined> {
  return (await client.call('addSplit', { body }))?.data;
}

export async function removeSplit(client: ApiClient, subscriptionId: string, splitId: string): Promise<Answers['removeSplit'] | undefined> {
  return (await client.call('removeSplit', { params: { subscriptionId, splitId } }))?.data;
}
