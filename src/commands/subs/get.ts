import { getSubscription } from '../../api/subscriptions.js';
import { splitTableView } from '../../output/views.js';
import { resolveRequired } from '../../prompt.js';
import { subaccountName } from '../../subaccount-names.js';
import { pickSubscription } from '../shared/pickers.js';
import { learnReceiverNames } from '../shared/subaccounts.js';
import type { Invocation } from '../spec.js';
import type { subsGet } from './index.js';

export async function run(invocation: Invocation<typeof subsGet>): Promise<void> {
  const { io, services, needArg, print } = invocation;
  const { id } = await resolveRequired(invocation, { id: needArg(0, (field) => pickSubscription(invocation, field)) });
  const subscription = await getSubscription(await services.api(), id);
  await print(subscription);
  // A table shows the splits below, with the ids remove-split needs and their receivers by name.
  if (io.output.format === 'table' && !io.output.options.fields && subscription.splits.length > 0) {
    await learnReceiverNames(invocation, subscription.splits.map((split) => split.subaccountId));
    await io.output.note('');
    const splits = io.output.list(splitTableView);
    await splits.write(subscription.splits.map((split) => ({ ...split, subaccountName: subaccountName(services, split.subaccountId) })));
    await splits.end();
  }
}
