import { listWithdrawals } from '../../api/withdrawals.js';
import { runList } from '../shared/list.js';
import type { Invocation } from '../spec.js';
import type { withdrawalsList } from './index.js';

export async function run(invocation: Invocation<typeof withdrawalsList>): Promise<void> {
  const { io, services } = invocation;
  const api = await services.api();
  if (io.output.format === 'table') await io.output.note(`withdrawals of the ${services.accountLabel()}`);
  await runList(invocation, (query, signal) => listWithdrawals(api, query, { signal }));
}
