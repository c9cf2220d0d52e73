import { listSubscriptions } from '../../api/subscriptions.js';
import { ofCustomer } from '../shared/customer-picture.js';
import { pagesOf, runList, writeMatches } from '../shared/list.js';
import type { Invocation } from '../spec.js';
import type { subsList } from './index.js';

export async function run(invocation: Invocation<typeof subsList>): Promise<void> {
  const { services, opts, view } = invocation;
  const filters = {
    status: opts.status,
    title: opts.title,
    amount: opts.amount,
    setupAmount: opts.setupAmount,
    frequency: opts.frequency,
    startDate: opts.startDate,
    subaccountId: opts.splitSubaccount,
  };
  const api = await services.api();
  // The API has no customer filter: every page (narrowed by the filters it has) is read and that customer's kept.
  if (opts.customer !== undefined) {
    await writeMatches(invocation, view, pagesOf(listSubscriptions, api, filters), ofCustomer(opts.customer));
    return;
  }
  await runList(invocation, (query, signal) => listSubscriptions(api, { ...query, ...filters }, { signal }));
}
