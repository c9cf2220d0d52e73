import { getCustomer } from '../../api/customers.js';
import { cancelSubscription, type SubscriptionAnswer } from '../../api/subscriptions.js';
import type { Context } from '../../context.js';
import type { ApiClient } from '../../http/client.js';
import { formatCentsExact } from '../../money.js';
import { resolveRequired } from '../../prompt.js';
import { subaccountLabel } from '../../subaccount-names.js';
import { confirmChange } from '../shared/confirm.js';
import { customerName } from '../shared/customer-picture.js';
import { withHints } from '../shared/hints.js';
import { learnReceiverNames } from '../shared/subaccounts.js';
import { chargedEvery, CHANGEABLE, describeSplitValue, pickSubscription } from '../shared/pickers.js';
import type { Invocation } from '../spec.js';
import { cancelledHint, changeableSubscription } from './changeable.js';
import type { subsCancel } from './index.js';

export async function run(invocation: Invocation<typeof subsCancel>): Promise<void> {
  const { services, needArg, print } = invocation;
  const pick = { statuses: CHANGEABLE, message: 'Subscription to cancel' };
  const { id } = await resolveRequired(invocation, { id: needArg(0, (field) => pickSubscription(invocation, field, pick)) });
  const api = await services.api();
  const subscription = await changeableSubscription(api, id, 'cancel');
  await confirmChange(
    invocation,
    [
      'About to cancel a subscription. This cannot be undone: it can never be reactivated.',
      `  subscription: ${subscription.id} "${subscription.title}" (${subscription.status})`,
      `  charges:      ${formatCentsExact(subscription.amount)} ${chargedEvery(subscription.frequency)}`,
      `  customer:     ${await customerLabel(api, subscription.customerId)}`,
      ...(await splitLines(invocation, subscription)),
    ],
    `Cancel subscription "${subscription.title}"?`,
  );
  const cancelled = await withHints(cancelSubscription(api, id), cancelledHint(id));
  if (cancelled) await print({ message: `subscription ${cancelled.id} cancelled`, ...cancelled });
}

/** The customer by name and id; by id alone when their record cannot be read. */
async function customerLabel(api: ApiClient, customerId: string): Promise<string> {
  const customer = await getCustomer(api, customerId).catch(() => undefined);
  return customer ? `${customerName(customer)} (${customerId})` : customerId;
}

/** Each split, its value and receiver by name, so that whoever cancels sees whose income stops too. */
async function splitLines(ctx: Context, subscription: SubscriptionAnswer): Promise<string[]> {
  const splits = subscription.splits;
  if (splits.length === 0) return ['  splits:       none'];
  await learnReceiverNames(ctx, splits.map((split) => split.subaccountId));
  const lead = (i: number) => (i === 0 ? '  splits:       ' : '                ');
  return splits.map((split, i) => `${lead(i)}${describeSplitValue(split)} to ${subaccountLabel(ctx.services, split.subaccountId)}`);
}
