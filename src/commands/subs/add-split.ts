import { addSplit } from '../../api/subscriptions.js';
import type { AddSplitRequest } from '../../api/types.js';
import { formatCents } from '../../output/money.js';
import { resolveRequired, type Prompter } from '../../prompt.js';
import { pickSplitReceiver, pickSubscription } from '../shared/pickers.js';
import type { Invocation } from '../spec.js';
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
    subscriptionId: need('subscription', (field) => pickSubscription(invocation, field, 'ACTIVE')),
    subaccountId: need('receiver', (field) => pickSplitReceiver(invocation, field)),
    value: { flag: `${flag('amount')} or ${flag('percentage')}`, value: given, ask: (prompter) => askSplitValue(invocation, prompter) },
  });
  const base = { subscriptionId: resolved.subscriptionId, subaccountId: resolved.subaccountId, chargebackLiable: opts.chargebackLiable };
  const body: AddSplitRequest =
    resolved.value.type === 'amount'
      ? { ...base, splitType: 'amount', splitAmount: resolved.value.cents }
      : { ...base, splitType: 'percentage', splitPercentage: resolved.value.percent };
  const split = await addSplit(await services.api(), body);
  if (!split) return;
  await print(split);
  const shown = split.splitType === 'AMOUNT' ? formatCents(split.splitAmount ?? 0) : `${split.splitPercentage}%`;
  await io.output.note(`split ${split.id} added: ${shown} to sub-account ${split.subaccountId} (net ${formatCents(split.liquidAmount)})`);
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
