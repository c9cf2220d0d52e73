import { getWithdrawal } from '../../api/withdrawals.js';
import { resolveRequired } from '../../prompt.js';
import { followToTheEnd, type FollowedWithdrawal } from '../../withdrawal/wait.js';
import { pickWithdrawal } from '../shared/pickers.js';
import { DEFAULT_WAIT_SECONDS } from '../shared/wait.js';
import type { Invocation } from '../spec.js';
import type { withdrawalsGet } from './index.js';

export async function run(invocation: Invocation<typeof withdrawalsGet>): Promise<void> {
  const { services, needArg, print, opts } = invocation;
  const { id } = await resolveRequired(invocation, { id: needArg(0, (field) => pickWithdrawal(invocation, field)) });
  const api = await services.api();
  // A withdrawal sent without an answer is shown in the audit log as unknown until a read like this one finds it.
  const show = async (withdrawal: FollowedWithdrawal) => {
    await print(withdrawal);
    const { findingOf, settleWithdrawals } = await import('../../audit/trail.js');
    const finding = findingOf(withdrawal, api.subaccount ?? null);
    if (!finding) return;
    await settleWithdrawals(services, [finding], 'withdrawals get');
    // So is a claim a crashed run left in the team's ledger.
    await (await import('../../ledger/index.js')).settleLeftOverSingle(services, finding);
  };
  const withdrawal = await getWithdrawal(api, id);
  if (!opts.wait) return show(withdrawal);
  const follow = `payctl withdrawals get ${id}`;
  await followToTheEnd(invocation, api, withdrawal, opts.waitTimeout ?? DEFAULT_WAIT_SECONDS, { account: services.accountLabel(), follow, print: show });
}
