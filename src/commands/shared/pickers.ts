import type { Page } from '../../api/pages.js';
import { listBankAccounts } from '../../api/bank-accounts.js';
import { listCustomers } from '../../api/customers.js';
import { listSubscriptions } from '../../api/subscriptions.js';
import type { BankAccount, SubscriptionStatus } from '../../api/types.js';
import type { Context } from '../../context.js';
import { usageError } from '../../errors.js';
import { formatCents } from '../../output/money.js';
import type { Choice, FieldPrompt } from '../../prompt.js';

const PICK_PAGE_SIZE = 50;
const NEXT = Symbol('next page');
const PREVIOUS = Symbol('previous page');
const TYPE_ID = Symbol('type an id');

type PickValue = string | typeof NEXT | typeof PREVIOUS | typeof TYPE_ID;

interface PickOptions<T> {
  message: string;
  noun: string;
  fetch: (query: { page: number; limit: number }) => Promise<Page<T>>;
  choice: (item: T) => Choice<string>;
  /** Offer "type an id", for items the list may not show. */
  typeId?: boolean;
}

/**
 * A pick list fetched from the API, a page at a time, with entries to move
 * between pages (customers and subscriptions run into the hundreds). What is
 * picked or typed is the answer to `field`, checked by its flag's parser.
 */
export async function pickFromPages<T>({ services }: Context, field: FieldPrompt, options: PickOptions<T>): Promise<string> {
  for (let page = 1; ; ) {
    const result = await options.fetch({ page, limit: PICK_PAGE_SIZE });
    if (result.items.length === 0 && page === 1 && !options.typeId) {
      throw usageError(`there are no ${options.noun} to pick from in the ${services.accountLabel()}`);
    }
    const totalPages = result.totalPages ?? Math.ceil(result.total / PICK_PAGE_SIZE);
    const choices: Choice<PickValue>[] = result.items.map(options.choice);
    if (page < totalPages) choices.push({ name: `› next ${options.noun} (page ${page + 1} of ${totalPages})`, value: NEXT });
    if (page > 1) choices.push({ name: `‹ previous ${options.noun} (page ${page - 1})`, value: PREVIOUS });
    if (options.typeId) choices.push({ name: '… type an id', value: TYPE_ID });
    const picked = await field.select<PickValue>(options.message, choices);
    if (picked === NEXT) page++;
    else if (picked === PREVIOUS) page--;
    else if (picked === TYPE_ID) return field.text('Id');
    else return picked;
  }
}

export const describeBankAccount = (account: BankAccount) =>
  `${account.holderName} · bank ${account.bankCode} · branch ${account.routingNumber} · account ${account.accountNumber} (${account.accountType})`;

/** A bank account of the context's account (main or sub-account). */
export async function pickBankAccount(ctx: Context, field: FieldPrompt): Promise<string> {
  const api = await ctx.services.api();
  return pickFromPages(ctx, field, {
    message: `Bank account (${ctx.services.accountLabel()})`,
    noun: 'bank accounts',
    fetch: (query) => listBankAccounts(api, query),
    choice: (account) => ({ name: `${account.id}  ${describeBankAccount(account)}`, value: String(account.id) }),
  });
}

export async function pickCustomer(ctx: Context, field: FieldPrompt): Promise<string> {
  const api = await ctx.services.api();
  return pickFromPages(ctx, field, {
    message: 'Customer',
    noun: 'customers',
    fetch: (query) => listCustomers(api, query),
    choice: (customer) => ({ name: `${customer.firstName} ${customer.lastName} <${customer.email}> · ${customer.document}`, value: customer.id, description: customer.id }),
    typeId: true,
  });
}

export async function pickSubscription(ctx: Context, field: FieldPrompt, status?: SubscriptionStatus): Promise<string> {
  const api = await ctx.services.api();
  return pickFromPages(ctx, field, {
    message: status ? `Subscription (${status})` : 'Subscription',
    noun: 'subscriptions',
    fetch: (query) => listSubscriptions(api, { ...query, status }),
    choice: (subscription) => ({
      name: `${subscription.title} · ${formatCents(subscription.amount)} every ${subscription.frequency} days · ${subscription.splits.length} split(s)`,
      value: subscription.id,
      description: subscription.id,
    }),
    typeId: true,
  });
}

const RECEIVER_SCAN_PAGES = 5;

/**
 * The API has no list of sub-accounts, so the receivers offered are the ones
 * already receiving splits of this company's subscriptions (only APPROVED
 * sub-accounts can), plus the profile's active sub-account, plus typing an id.
 */
export async function pickSplitReceiver({ services }: Context, field: FieldPrompt): Promise<string> {
  const api = await services.api();
  const seen = new Map<string, number>();
  const active = services.settings().profile?.subaccount;
  for (let page = 1; page <= RECEIVER_SCAN_PAGES; page++) {
    const result = await listSubscriptions(api, { page, limit: 100 });
    for (const subscription of result.items) {
      for (const split of subscription.splits) seen.set(split.subaccountId, (seen.get(split.subaccountId) ?? 0) + 1);
    }
    if (page >= (result.totalPages ?? 1)) break;
  }
  const choices: Choice<PickValue>[] = [...seen].map(([id, count]) => ({ name: `${id}  (receives ${count} split${count > 1 ? 's' : ''})`, value: id }));
  if (active && !seen.has(active)) choices.unshift({ name: `${active}  (the profile's active sub-account)`, value: active });
  choices.push({ name: '… type an id', value: TYPE_ID });
  const picked = await field.select<PickValue>('Receiving sub-account (must be APPROVED)', choices);
  if (typeof picked === 'string') return picked;
  return field.text('Sub-account id');
}
