import { addSplit } from '../../api/subscriptions.js';
import type { AddSplitRequest } from '../../api/types.js';
import { formatCents } from '../../money.js';
import { resolveRequired, type Prompter } from '../../prompt.js';
import { pickSubaccount, pickSubscription } from '../shared/pickers.js';
import { rememberSubaccounts, subaccountLabel } from '../../subaccount-names.js';
import { SPLITS_EXCEED_AMOUNT, SUBACCOUNT_NOT_APPROVED, withHints } from '../shared/hints.js';
import type { Invocation } from '../spec.js';
import { cancelledHint } from './changeable.js';
import type { subsAddSplit } from './index.js';

type SplitValue = { type: 'amount'; cents: number } | { type: 'percentage'; percent: number };
type AddSplit = Invocation<typeof subsAddSplit>;

export async function run(invocation: AddSplit): Promise<void> {
  const { io, services, opts, flag, need, print } = invocation;
  const given: SplitValue | undefined =
    opts.amount !== undefined
      ? { type: 'amount', cents: opts.amount }
      : opts.percentage !== undefined
        ? { type: 'percentage', percent: opts.percentage }
        : undefined;
  const resolved = await resolveRequired(invocation, {
    subscriptionId: need('subscription', (field) => pickSubscription(invocation, field, { statuses: ['ACTIVE'], message: 'Subscription to add a split to' })),
    subaccountId: need('receiver', (field) => pickSubaccount(invocation, field, { approvedOnly: true })),
    value: { flag: `${flag('amount')} or ${flag('percentage')}`, value: given, ask: (prompter) => askSplitValue(invocation, prompter) },
  });
  const base = { subscriptionId: resolved.subscriptionId, subaccountId: resolved.subaccountId, chargebackLiable: opts.chargebackLiable };
  const body: AddSplitRequest =
    resolved.value.type === 'amount'
      ? { ...base, splitType: 'amount', splitAmount: resolved.value.cents }
      : { ...base, splitType: 'percentage', splitPercentage: resolved.value.percent };
  const split = await withHints(addSplit(await services.api(), body), splitHints(invocation, body));
  if (!split) return;
  // What the note names is what was asked: the answer is checked for its id only.
  await rememberSubaccounts(services, [{ id: body.subaccountId, seenAs: 'split' }]);
  await print(split);
  const shown = body.splitType === 'amount' ? formatCents(body.splitAmount) : `${body.splitPercentage}%`;
  const receiver = subaccountLabel(services, body.subaccountId);
  const net = typeof split.liquidAmount === 'number' ? ` (net ${formatCents(split.liquidAmount)})` : '';
  await io.output.note(`split ${split.id} added: ${shown} to sub-account ${receiver}${net}`);
}

/** What fixes each refusal of this split, with its ids. */
function splitHints({ services }: AddSplit, body: AddSplitRequest): Record<number, string> {
  const approve = services.settings().env === 'production' ? 'it must be APPROVED first' : `on a sandbox: payctl sandbox approve ${body.subaccountId}`;
  return {
    ...cancelledHint(body.subscriptionId),
    [SPLITS_EXCEED_AMOUNT]: `see the splits it already has: payctl subs get ${body.subscriptionId}`,
    [SUBACCOUNT_NOT_APPROVED]: `sub-account ${subaccountLabel(services, body.subaccountId)} must be APPROVED to receive splits (${approve})`,
  };
}

/** The kind of split, then its value, asked as --amount or --percentage would be. */
async function askSplitValue({ need }: AddSplit, prompter: Prompter): Promise<SplitValue> {
  const type = await prompter.select<'amount' | 'percentage'>('Split type', [
    { name: 'fixed amount (cents)', value: 'amount' },
    { name: 'percentage of the subscription amount', value: 'percentage' },
  ]);
  if (type === 'amount') return { type, cents: await need('amount', (field) => field.text('Amount in cents (R$ 12,34 is 1234)')).ask(prompter) };
  return { type, percent: await need('percentage', (field) => field.text('Percentage (up to 2 decimals)')).ask(prompter) };
}
