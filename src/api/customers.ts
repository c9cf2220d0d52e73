import type { ApiClient } from '../http/client.js';
import { fetchPage, type Page, type PageQuery, type PageRequestOptions } from './pages.js';
import type { Customer, UpdateCustomerRequest } from './types.js';

export const listCustomers = (client: ApiClient, query: PageQuery, options?: PageRequestOptions): Promise<Page<Customer>> =>
  fetchPage<Customer>(client, 'listCustomers', '/customers', { ...query }, false, options);

export async function getCustomer(client: ApiClient, id: string): Promise<Customer> {
  return (await client.request<Customer>({ method: 'GET', path: `/customers/${encodeURIComponent(id)}`, operation: 'getCustomer', resourceId: id })).data;
}

export async function updateCustomer(client: ApiClient, id: string, body: UpdateCustomerRequest): Promise<Customer | undefined> {
  return (await client.request<Customer>({ method: 'PUT', path: `/customers/${encodeURIComponent(id)}`, operation: 'updateCustomer', body }))?.data;
}
