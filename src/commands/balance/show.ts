import { getBalance } from '../../api/withdrawals.js';
import type { Invocation } from '../spec.js';
import type { balance } from './index.js';

export async function run({ io, services, print }: Invocation<typeof balance>): Promise<void> {
  const balances = await getBalance(await services.api());
  if (io.output.format === 'table') await io.output.note(`balance of the ${services.accountLabel()} (profile ${services.settings().profileName})`);
  await print(balances);
}
