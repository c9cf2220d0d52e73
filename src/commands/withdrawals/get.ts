import { getWithdrawal } from '../../api/withdrawals.js';
import { resolveRequired } from '../../prompt.js';
import { pickWithdrawal } from '../shared/pickers.js';
import type { Invocation } from '../spec.js';
import type { withdrawalsGet } from './index.js';

export async function run(invocation: Invocation<typeof withdrawalsGet>): Promise<void> {
  const { services, needArg, print } = invocation;
  const { id } = await resolveRequired(invocation, { id: needArg(0, (field) => pickWithdrawal(invocation, field)) });
  await print(await getWithdrawal(await services.api(), id));
}
