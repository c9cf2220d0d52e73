import { addSplit } from '../../api/subscriptions.js';
import type { AddSplitRequest } from '../../api/types.js';
import type { Context } from '../../context.js';
import { usageError } from '../../errors.js';
import { formatCents } from '../../output/money.js';
import { splitView } from '../../output/views.js';
import { resolveRequired } from '../../prompt.js';
import { asPromptCheck, parseCents, parsePercentage, parseUuid } from '../../validate.js';
import { pickSplitReceiver, pickSubscription } from '../shared/pickers.js';
import { optString, type CommandInput } from '../spec.js';

type SplitValue = { type: 'amount'; cents: number } | { type: 'percentage'; percent: number };

const parseSplitAmount = (flag: string, raw: string) => parseCents(flag, raw, 1);

export async function run(ctx: Context, { opts }: CommandInput): Promise<void> {
  ctx.output.fieldsFor(splitView);
  const given = (key: string) => optString(opts, key);
  const subscription = given('subscription') === undefined ? undefined : parseUuid('--subscription', given('subscription')!);
  const receiver = given('receiver') === undefined ? undefined : parseUuid('--receiver', given('receiver')!);
  if (given('amount') !== undefined && given('percentage') !== undefined) {
    throw usageError('--amount and --percentage cannot be used together: a split is a fixed amount or a percentage');
  }
  let value: SplitValue | undefined;
  if (given('amount') !== undefined) value = { type: 'amount', cents: parseSplitAmount('--amount', given('amount')!) };
  if (given('percentage') !== undefined) value = { type: 'percentage', percent: parsePercentage('--percentage', given('percentage')!) };
  const resolved = await resolveRequired(ctx, {
    subscriptionId: { flag: '--subscription', value: subscription, ask: () => pickSubscription(ctx, 'ACTIVE') },
    subaccountId: { flag: '--receiver', value: receiver, ask: () => pickSplitReceiver(ctx) },
    value: { flag: '--amount or --percentage', value, ask: askSplitValue },
  });
  const base = { subscriptionId: resolved.subscriptionId, subaccountId: resolved.subaccountId, chargebackLiable: opts.chargebackLiable === true };
  const body: AddSplitRequest =
    resolved.value.type === 'amount'
      ? { ...base, splitType: 'amount', splitAmount: resolved.value.cents }
      : { ...base, splitType: 'percentage', splitPercentage: resolved.value.percent };
  const split = await addSplit(await ctx.api(), body);
  await ctx.output.item(splitView, split);
  const shown = split.splitType === 'AMOUNT' ? formatCents(split.splitAmount ?? 0) : `${split.splitPercentage}%`;
  await ctx.output.note(`split ${split.id} added: ${shown} to sub-account ${split.subaccountId} (net ${formatCents(split.liquidAmount)})`);
}

async function askSplitValue(prompter: import('../../prompt.js').Prompter): Promise<SplitValue> {
  const type = await prompter.select<'amount' | 'percentage'>('Split type', [
    { name: 'fixed amount (cents)', value: 'amount' },
    { name: 'percentage of the subscription amount', value: 'percentage' },
  ]);
  if (type === 'amount') {
    const raw = await prompter.text('Amount in cents (R$ 12,34 is 1234)', { validate: asPromptCheck(parseSplitAmount, '--amount') });
    return { type, cents: parseSplitAmount('--amount', raw) };
  }
  const raw = await prompter.text('Percentage (up to 2 decimals)', { validate: asPromptCheck(parsePercentage, '--percentage') });
  return { type, percent: parsePercentage('--percentage', raw) };
}
