import { getWithdrawal } from '../../api/withdrawals.js';
import type { Invocation } from '../spec.js';
import type { withdrawalsGet } from './index.js';

export async function run({ services, args: [id], print }: Invocation<typeof withdrawalsGet>): Promise<void> {
  await print(await getWithdrawal(await services.api(), id));
}
