import { creditBalance } from '../../api/sandbox.js';
import { usageError } from '../../errors.js';
import type { Invocation } from '../spec.js';
import { assertNotProduction } from './guard.js';
import type { sandboxCredit } from './index.js';

export async function run({ services, opts, flag, print }: Invocation<typeof sandboxCredit>): Promise<void> {
  const { pix, card, billet } = opts;
  if (pix === undefined && card === undefined && billet === undefined) {
    throw usageError(`give at least one of ${(['pix', 'card', 'billet'] as const).map(flag).join(', ')} (integer cents)`);
  }
  assertNotProduction(services);
  const balances = await creditBalance(await services.api(), { pix, card, billet });
  if (balances) await print(balances);
}
