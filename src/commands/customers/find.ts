import { listCustomers, type ListedCustomer } from '../../api/customers.js';
import { usageError } from '../../errors.js';
import { writeMatches, type PageFetcher } from '../shared/list.js';
import type { Invocation } from '../spec.js';
import type { customersFind } from './index.js';
import { matchesSearch } from './search.js';

export async function run(invocation: Invocation<typeof customersFind>): Promise<void> {
  const { services, opts, flag, view } = invocation;
  if (Object.values(opts).every((value) => value === undefined)) {
    throw usageError(`give at least one of ${(['email', 'document', 'name', 'phone'] as const).map(flag).join(', ')}`);
  }
  const client = await services.api();
  const fetch: PageFetcher<ListedCustomer> = (query, signal) => listCustomers(client, query, { callerHandlesRateLimit: true, signal });
  await writeMatches(invocation, view, fetch, (customer) => matchesSearch(customer, opts));
}
