import type { ApiClient } from '../http/client.js';
import { fetchPage, type Page, type PageQuery, type PageRequestOptions } from './pages.js';
import type {
  AddSplitRequest,
  CancelledSubscription,
  MessageResult,
  Split,
  Subscription,
  SubscriptionListItem,
  SubscriptionStatus,
  UpdateSubscriptionRequest,
} from './types.js';

export interface SubscriptionFilters {
  title?: string;
  amount?: number;
  setupAmount?: number;
  frequency?: number;
  startDate?: string;
  status?: SubscriptionStatus;
  subaccountId?: string;
}

export const listSubscriptions = (
  client: ApiClient,
  query: PageQuery & SubscriptionFilters,
  options?: PageRequestOptions,
): Promise<Page<SubscriptionListItem>> =>
  fetchPage<SubscriptionListItem>(client, 'listSubscriptions', '/subscriptions', { ...query }, false, options);

const subscriptionPath = (id: string) => `/subscriptions/${encodeURIComponent(id)}`;

export async function getSubscription(client: ApiClient, id: string): Promise<Subscription> {
  return (await client.request<Subscription>({ method: 'GET', path: subscriptionPath(id), operation: 'getSubscription', resourceId: id })).data;
}

export async function updateSubscription(client: ApiClient, id: string, body: UpdateSubscriptionRequest): Promise<Subscription | undefined> {
  return (await client.request<Subscription>({ method: 'PUT', path: subscriptionPath(id), operation: 'updateSubscription', body }))?.data;
}

export async function cancelSubscription(client: ApiClient, id: string): Promise<CancelledSubscription | undefined> {
  return (await client.request<CancelledSubscription>({ method: 'DELETE', path: subscriptionPath(id), operation: 'cancelSubscription' }))?.data;
}

export async function addSplit(client: ApiClient, body: AddSplitRequest): Promise<Split | undefined> {
  return (await client.request<Split>({ method: 'POST', path: '/subscriptions/add_split', operation: 'addSplit', body }))?.data;
}

export async function removeSplit(client: ApiClient, subscriptionId: string, splitId: string): Promise<MessageResult | undefined> {
  const path = `${subscriptionPath(subscriptionId)}/remove_split/${encodeURIComponent(splitId)}`;
  return (await client.request<MessageResult>({ method: 'DELETE', path, operation: 'removeSplit' }))?.data;
}
