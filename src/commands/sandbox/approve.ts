import { approveSubaccount } from '../../api/sandbox.js';
import type { Invocation } from '../spec.js';
import { assertNotProduction } from './guard.js';
import type { sandboxApprove } from './index.js';

export async function run({ services, args: [id], print }: Invocation<typeof sandboxApprove>): Promise<void> {
  assertNotProduction(services);
  const approved = await approveSubaccount(await services.api(), id);
  if (approved) await print(approved);
}
