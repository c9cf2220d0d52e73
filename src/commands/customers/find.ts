import { listCustomers } from '../../api/customers.js';
import { usageError } from '../../errors.js';
import { pagesOf, writeMatches } from '../shared/list.js';
import type { Invocation } from '../spec.js';
import type { customersFind } from './index.js';
import { matchesSearch } from './search.js';

export async function run(invocation: Invocation<typeof customersFind>): Promise<void> {
  const { services, opts, flag, view } = invocation;
  if (Object.values(opts).every((value) => value === undefined)) {
    throw usageError(`give at least one of ${(['email', 'document', 'name', 'phone'] as const).map(flag).join(', ')}`);
  }
  const client = await services.api();
  await writeMatches(invocation, view, pagesOf(listCustomers, client, {}), (customer) => matchesSearch(customer, opts));
}
