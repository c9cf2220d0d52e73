import { getSubscription } from '../../api/subscriptions.js';
import { splitView } from '../../output/views.js';
import type { Invocation } from '../spec.js';
import type { subsGet } from './index.js';

export async function run({ io, services, args: [id], print }: Invocation<typeof subsGet>): Promise<void> {
  const subscription = await getSubscription(await services.api(), id);
  await print(subscription);
  // A table shows the splits below, with the ids remove-split needs.
  if (io.output.format === 'table' && !io.output.options.fields && subscription.splits.length > 0) {
    await io.output.note('');
    const splits = io.output.list(splitView);
    await splits.write(subscription.splits);
    await splits.end();
  }
}
