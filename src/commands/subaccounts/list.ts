import { subaccountView } from '../../output/views.js';
import { subaccountDirectory } from '../shared/subaccounts.js';
import type { Invocation } from '../spec.js';
import type { subaccountsList } from './index.js';

export async function run(invocation: Invocation<typeof subaccountsList>): Promise<void> {
  const { io, view } = invocation;
  const directory = await subaccountDirectory(invocation);
  if (directory.source === 'sandbox') {
    const list = io.output.list(subaccountView);
    await list.write(directory.subaccounts);
    await list.end();
    return;
  }
  if (io.output.format === 'table') {
    await io.output.note("the API has no list of sub-accounts: these are the ones this profile created, used or saw receiving splits");
  }
  const list = io.output.list(view);
  // A table reads "created, used"; json and the others keep the list.
  const rows = io.output.format === 'table' ? directory.subaccounts.map((known) => ({ ...known, seenAs: known.seenAs.join(', ') })) : directory.subaccounts;
  await list.write(rows);
  await list.end();
}
