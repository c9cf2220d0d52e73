import type { CardAnswer } from '../../api/cards.js';
import { listBankAccounts } from '../../api/bank-accounts.js';
import { getCustomer, listCustomers, type ListedCustomer } from '../../api/customers.js';
import { listSubscriptions, type ListedSubscription, type SubscriptionAnswer } from '../../api/subscriptions.js';
import { SUBSCRIPTION_STATUSES, type SubscriptionStatus } from '../../api/types.js';
import { listWithdrawals } from '../../api/withdrawals.js';
import type { Context } from '../../context.js';
import { usageError } from '../../errors.js';
import type { ApiClient } from '../../http/client.js';
import { formatDocument } from '../../output/brazil.js';
import { formatCents } from '../../money.js';
import { formatLocalTime } from '../../output/time.js';
import type { Choice, FieldPrompt } from '../../prompt.js';
import { foldForSearch, isUuid } from '../../validation/rules.js';
import { subaccountLabel, subaccountName } from '../../subaccount-names.js';
import { parseNonEmpty } from '../../validation/flags.js';
import { cardsCharged, customerName, subscriptionsOf } from './customer-picture.js';
import { progressLine, SCAN_PAGE_SIZE } from './list.js';
import { collectPages, pagesOf, type PageFetcher } from './scan.js';
import { subaccountDirectory } from './subaccounts.js';

/**
 * Pick lists for a value the user did not give: read from the API, labelled for
 * people (names, amounts, statuses; the id beside them), searchable by typing
 * when longer than a screen (the prompter's select), each entry fitted to the
 * terminal. What is picked or typed is the answer to `field`, which the caller
 * parses with the flag's or argument's parser.
 */

const TYPE_ID = Symbol('type an id');
const SEARCH_AGAIN = Symbol('search again');
const typeIdChoice: Choice<typeof TYPE_ID> = { name: '… type an id', value: TYPE_ID, always: true };

/** A search that matches more than this shows only these, and says to type more. */
const MOST_MATCHES_SHOWN = 200;

interface ListOf {
  /** What the list holds, for "there are no bank accounts to pick from". */
  noun: string;
  /** The question for an id typed in (`Sub-account id`), when the list may not hold every one. */
  typeId?: string;
}

/**
 * One of `choices`, or (with `typeId`) an id typed in, checked by the field's
 * parser. An empty list is a usage error naming what there was none of, unless an
 * id may be typed.
 */
async function pickOrType(ctx: Context, field: FieldPrompt, message: string, listed: ReadonlyArray<Choice<string>>, { noun, typeId }: ListOf): Promise<string> {
  // An item the API sent with an empty id cannot be acted on (one without a text id never gets here: withTextId).
  const choices = listed.filter((choice) => choice.value !== '');
  if (choices.length === 0) {
    if (typeId === undefined) throw usageError(`there are no ${noun} to pick from in the ${ctx.services.accountLabel()}`);
    await ctx.io.output.note(`no ${noun} to pick from: type the id`);
    return field.text(typeId);
  }
  if (typeId === undefined) return field.select(message, choices);
  const picked = await field.select<string | typeof TYPE_ID>(message, [...choices, typeIdChoice]);
  return picked === TYPE_ID ? field.text(typeId) : picked;
}

/** Every item of a list, read many pages at a time (a progress line at a terminal). */
async function readAll<T>({ io }: Context, noun: string, fetch: PageFetcher<T>, keep?: (item: T) => boolean): Promise<T[]> {
  const progress = progressLine(io, noun);
  try {
    return await collectPages(fetch, { limit: SCAN_PAGE_SIZE, signal: io.signal, onProgress: (p) => progress.update(p) }, keep);
  } finally {
    progress.done();
  }
}

/** The items the API sent with a text id: only those can be picked and acted on. */
const withTextId = <T extends { id?: unknown }>(items: readonly T[]): Array<T & { id: string }> =>
  items.flatMap((item) => (typeof item.id === 'string' ? [{ ...item, id: item.id }] : []));

const textOr = (value: unknown, fallback: string) => (typeof value === 'string' && value.trim() !== '' ? value : fallback);

/** `every 30 days`, `every day`. */
export const chargedEvery = (frequency: unknown) => (frequency === 1 ? 'every day' : `every ${String(frequency)} days`);

/** A bank account as people read it; a field the API did not give is said so. */
export const describeBankAccount = (account: Partial<Record<'holderName' | 'bankCode' | 'routingNumber' | 'accountNumber' | 'accountType', unknown>>) =>
  `${textOr(account.holderName, 'holder not given')} · bank ${textOr(account.bankCode, '?')} · branch ${textOr(account.routingNumber, '?')} · ` +
  `account ${textOr(account.accountNumber, '?')} (${textOr(account.accountType, 'type not given')})`;

/** A bank account of the context's account (main or sub-account). */
export async function pickBankAccount(ctx: Context, field: FieldPrompt): Promise<string> {
  const api = await ctx.services.api();
  const accounts = await readAll(ctx, 'bank accounts', (query, signal) => listBankAccounts(api, query, { signal }));
  const choices = accounts.map((account) => ({
    name: describeBankAccount(account),
    value: String(account.id),
    description: `bank account ${account.id} · ${textOr(account.status, 'status not given')}`,
  }));
  return pickOrType(ctx, field, `Bank account (${ctx.services.accountLabel()})`, choices, { noun: 'bank accounts' });
}

/** The people behind customer ids: single reads, or every page of customers when that is fewer requests. */
export async function customerNames({ io }: Context, api: ApiClient, ids: ReadonlySet<string>): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  if (ids.size === 0) return names;
  const first = await listCustomers(api, { page: 1, limit: SCAN_PAGE_SIZE });
  const pages = first.totalPages ?? Math.ceil(first.total / SCAN_PAGE_SIZE);
  if (pages <= ids.size) {
    const customers = await collectPages(
      pagesOf(listCustomers, api, {}),
      { limit: SCAN_PAGE_SIZE, signal: io.signal },
      (customer) => typeof customer.id === 'string' && ids.has(customer.id),
    );
    for (const customer of withTextId(customers)) names.set(customer.id, customerName(customer));
    return names;
  }
  const wanted = [...ids];
  const AT_ONCE = 16;
  for (let start = 0; start < wanted.length; start += AT_ONCE) {
    const customers = await Promise.all(wanted.slice(start, start + AT_ONCE).map((id) => getCustomer(api, id).catch(() => undefined)));
    for (const customer of customers) if (customer) names.set(customer.id, customerName(customer));
  }
  return names;
}

const subscriptionChoice = (subscription: ListedSubscription, names: ReadonlyMap<string, string>): Choice<string> => {
  const splits = subscription.splits.length;
  const { customerId, amount } = subscription;
  return {
    name: [
      textOr(subscription.title, '(no title)'),
      (typeof customerId === 'string' ? names.get(customerId) : undefined) ?? `customer ${String(customerId)}`,
      `${typeof amount === 'number' ? formatCents(amount) : 'amount not given'} ${chargedEvery(subscription.frequency)}`,
      textOr(subscription.status, 'status not given'),
    ].join(' · '),
    value: subscription.id,
    description: `${subscription.id}${splits > 0 ? ` · ${splits} split${splits > 1 ? 's' : ''}` : ''}`,
  };
};

/** The statuses a subscription can still change in: a cancelled (DELETED) one never does. */
export const CHANGEABLE: readonly SubscriptionStatus[] = SUBSCRIPTION_STATUSES.filter((status) => status !== 'DELETED');

export interface SubscriptionPick {
  /** Only subscriptions in these statuses (a cancelled one cannot change). */
  statuses?: readonly SubscriptionStatus[];
  /** Only those with splits (to remove one). */
  withSplits?: boolean;
  /** The question (default: Subscription). */
  message?: string;
}

/** A subscription of the company: title, customer, amount and status. */
export async function pickSubscription(ctx: Context, field: FieldPrompt, pick: SubscriptionPick = {}): Promise<string> {
  const { statuses, withSplits, message = 'Subscription' } = pick;
  const api = await ctx.services.api();
  // One status is the API's own filter; several are kept here.
  const status = statuses?.length === 1 ? statuses[0] : undefined;
  const subscriptions = await readAll(
    ctx,
    'subscriptions',
    pagesOf(listSubscriptions, api, { status }),
    (subscription) => (!statuses || statuses.some((wanted) => wanted === subscription.status)) && (!withSplits || subscription.splits.length > 0),
  );
  const customerIds = subscriptions.map((subscription) => subscription.customerId).filter((id) => typeof id === 'string');
  const names = await customerNames(ctx, api, new Set(customerIds));
  const which = [statuses?.join(', '), withSplits ? 'with splits' : undefined].filter(Boolean).join(', ');
  const choices = subscriptions.map((subscription) => subscriptionChoice(subscription, names));
  return pickOrType(ctx, field, message, choices, { noun: `subscriptions${which ? ` (${which})` : ''}`, typeId: 'Subscription id' });
}

/** A split's share as people read it: `R$ 10,00` or `12.5% of the amount`. */
export const describeSplitValue = (split: SubscriptionAnswer['splits'][number]) =>
  split.splitType === 'AMOUNT' ? formatCents(split.splitAmount ?? 0) : `${String(split.splitPercentage)}% of the amount`;

/** One split of a subscription (read with its split ids): its value and receiver by name. */
export async function pickSplit(ctx: Context, field: FieldPrompt, subscription: SubscriptionAnswer): Promise<string> {
  const { splits } = subscription;
  // A profile that never listed sub-accounts knows no receiver's name: the directory remembers them.
  if (splits.some((split) => subaccountName(ctx.services, split.subaccountId) === undefined)) await subaccountDirectory(ctx);
  const choices = splits
    .map((split) => ({
      name: [
        `${describeSplitValue(split)} to ${subaccountLabel(ctx.services, split.subaccountId)}`,
        ...(split.chargebackLiable ? ['chargeback liable'] : []),
      ].join(' · '),
      value: split.id,
      description: `split ${split.id} · net ${typeof split.liquidAmount === 'number' ? formatCents(split.liquidAmount) : 'not given'}`,
    }));
  if (choices.length === 0) throw usageError(`subscription ${subscription.id} "${textOr(subscription.title, '')}" has no splits to remove`);
  return pickOrType(ctx, field, `Split of "${textOr(subscription.title, subscription.id)}"`, choices, { noun: 'splits' });
}

/** A sub-account by name and status (the sandbox's list, or those this profile knows), or an id typed in. */
export async function pickSubaccount(ctx: Context, field: FieldPrompt, { approvedOnly = false } = {}): Promise<string> {
  const directory = await subaccountDirectory(ctx);
  const active = ctx.services.settings().profile?.subaccount;
  const entries: Array<{ id: string; name?: unknown; status?: unknown }> = directory.subaccounts;
  const choices = entries
    // Only an APPROVED sub-account receives splits; one whose status payctl does not know is offered too.
    .filter((entry) => !approvedOnly || entry.status === undefined || entry.status === 'APPROVED')
    .map((entry) => ({
      name: `${textOr(entry.name, 'name not known')} · ${textOr(entry.status, 'status not known')}${entry.id === active ? ' · active' : ''}`,
      value: entry.id,
      description: entry.id,
    }));
  const message = approvedOnly ? 'Receiving sub-account (must be APPROVED)' : 'Sub-account';
  return pickOrType(ctx, field, message, choices, { noun: 'sub-accounts', typeId: 'Sub-account id' });
}

/** What a typed search matches: every word in the name or e-mail, or the document's digits. */
function customerSearch(typed: string): (customer: ListedCustomer) => boolean {
  const words = foldForSearch(typed).split(/\s+/).filter(Boolean);
  const digits = /^[\d.\-/\s]+$/.test(typed) ? typed.replace(/\D/g, '') : '';
  return (customer) => {
    if (digits.length >= 3 && String(customer.document ?? '').replace(/\D/g, '').includes(digits)) return true;
    const text = foldForSearch(`${customer.firstName ?? ''} ${customer.lastName ?? ''} ${customer.email ?? ''}`);
    return words.length > 0 && words.every((word) => text.includes(word));
  };
}

const searchTerm = (flag: string, raw: string) => parseNonEmpty(flag, raw, 120);

/**
 * A customer, found by a search: part of the name, the e-mail or the document
 * (or the id itself), matched over every page of customers; then picked from
 * the matches, or searched again.
 */
export async function pickCustomer(ctx: Context, field: FieldPrompt): Promise<string> {
  const api = await ctx.services.api();
  for (;;) {
    const typed = (await field.text('Customer: part of the name, the e-mail or the document (or the id)', searchTerm)).trim();
    if (isUuid(typed)) return typed;
    const matches = withTextId(await readAll(ctx, 'customers searched', pagesOf(listCustomers, api, {}), customerSearch(typed)));
    if (matches.length === 0) {
      await ctx.io.output.note(`no customer matches "${typed}": search again`);
      continue;
    }
    if (matches.length > MOST_MATCHES_SHOWN) {
      await ctx.io.output.note(`${matches.length} customers match "${typed}"; the first ${MOST_MATCHES_SHOWN} are listed: search again for fewer`);
    }
    const choices: Array<Choice<string | typeof SEARCH_AGAIN>> = matches.slice(0, MOST_MATCHES_SHOWN).map((customer) => ({
      name: `${customerName(customer)} <${textOr(customer.email, 'no e-mail')}> · ${formatDocument(String(customer.document ?? ''))}`,
      value: customer.id,
      description: customer.id,
    }));
    const picked = await field.select(`Customer matching "${typed}"`, [...choices, { name: '… search again', value: SEARCH_AGAIN, always: true }]);
    if (picked !== SEARCH_AGAIN) return picked;
  }
}

const cardChoice = (card: CardAnswer): Choice<string> => ({
  name: [
    `${textOr(card.cardBrand, 'card')} ${String(card.first4Digits)}…${String(card.last4Digits)}`,
    textOr(card.holderName, 'no holder name'),
    `expires ${String(card.expirationMonth)}/${String(card.expirationYear)}`,
    ...(card.isActive === false ? ['inactive'] : []),
  ].join(' · '),
  value: card.id,
  description: card.id,
});

/**
 * A card token. The API lists no cards: the customer is searched for, and the
 * cards their subscriptions charge are offered (or an id typed in).
 */
export async function pickCard(ctx: Context, field: FieldPrompt): Promise<string> {
  const api = await ctx.services.api();
  const customerId = await pickCustomer(ctx, field);
  const cards = await cardsCharged(api, await subscriptionsOf(ctx, api, customerId));
  if (cards.length === 0) await ctx.io.output.note('no card found among the cards this customer\'s subscriptions charge');
  return pickOrType(ctx, field, 'Card (those the customer\'s subscriptions charge)', cards.map(cardChoice), { noun: 'cards', typeId: 'Card id' });
}

/** A withdrawal of the context's account: amount, method, status and when. */
export async function pickWithdrawal(ctx: Context, field: FieldPrompt): Promise<string> {
  const api = await ctx.services.api();
  const withdrawals = withTextId(await readAll(ctx, 'withdrawals', (query, signal) => listWithdrawals(api, query, { signal })));
  const choices = withdrawals.map((withdrawal) => ({
    name: [
      typeof withdrawal.amount === 'number' ? formatCents(withdrawal.amount) : 'amount not given',
      textOr(withdrawal.withdrawalPaymentType, 'method not given'),
      textOr(withdrawal.status, 'status not given'),
      formatLocalTime(textOr(withdrawal.createdAt, '')),
      ...(withdrawal.pixKey ? [`PIX ${withdrawal.pixKey}`] : []),
    ]
      .filter(Boolean)
      .join(' · '),
    value: withdrawal.id,
    description: withdrawal.id,
  }));
  return pickOrType(ctx, field, `Withdrawal (${ctx.services.accountLabel()})`, choices, { noun: 'withdrawals', typeId: 'Withdrawal id' });
}
