import { getCustomer } from '../../api/customers.js';
import type { Invocation } from '../spec.js';
import type { customersGet } from './index.js';

export async function run({ services, args: [id], print }: Invocation<typeof customersGet>): Promise<void> {
  await print(await getCustomer(await services.api(), id));
}
