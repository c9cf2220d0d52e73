import { settleWithdrawal } from '../../api/sandbox.js';
import { usageError } from '../../errors.js';
import type { Invocation } from '../spec.js';
import { assertNotProduction } from './guard.js';
import type { sandboxSettle } from './index.js';

export async function run({ services, args: [id], opts, flag, print }: Invocation<typeof sandboxSettle>): Promise<void> {
  if (!opts.status) throw usageError(`missing required flag: ${flag('status')} (COMPLETED or FAILED)`);
  assertNotProduction(services);
  const settled = await settleWithdrawal(await services.api(), id, opts.status);
  if (settled) await print(settled);
}
