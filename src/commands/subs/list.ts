import { listSubscriptions } from '../../api/subscriptions.js';
import { runList } from '../shared/list.js';
import type { Invocation } from '../spec.js';
import type { subsList } from './index.js';

export async function run(invocation: Invocation<typeof subsList>): Promise<void> {
  const { services, opts } = invocation;
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
  await runList(invocation, (query) => listSubscriptions(api, { ...query, ...filters }));
}
