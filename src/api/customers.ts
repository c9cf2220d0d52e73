import type { ApiClient } from '../http/client.js';
import { pageOf, type Page, type PageQuery, type PageRequestOptions } from './pages.js';
import type { UpdateCustomerRequest } from './types.js';
import type { Answers } from './validators.js';

export type ListedCustomer = Answers['listCustomers'][number];
export type CustomerAnswer = Answers['getCustomer'];

export async function listCustomers(client: ApiClient, query: PageQuery, options?: PageRequestOptions): Promise<Page<ListedCustomer>> {
  const { data, meta } = await client.call('listCustomers', { query, ...options });
  return pageOf(data, meta, query);
}

export async function getCustomer(client: ApiClient, id: string): Promise<CustomerAnswer> {
  return (await client.call('getCustomer', { params: { customerId: id } })).data;
}

export async function updateCustomer(client: ApiClient, id: string, body: UpdateCustomerRequest): Promise<Answers['updateCustomer'] | undefined> {
  return (await client.call('updateCustomer', { params: { customerId: id }, body }))?.data;
}
