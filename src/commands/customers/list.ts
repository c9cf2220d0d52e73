import { listCustomers } from '../../api/customers.js';
import { runList } from '../shared/list.js';
import type { Invocation } from '../spec.js';
import type { customersList } from './index.js';

export async function run(invocation: Invocation<typeof customersList>): Promise<void> {
  const api = await invocation.services.api();
  await runList(invocation, (query, signal) => listCustomers(api, query, { signal }));
}
