import { SUBSCRIPTION_STATUSES } from '../../api/types.js';
import { messageView, splitView, subscriptionView } from '../../output/views.js';
import {
  parseAmountFilter,
  parseChoice,
  parseDate,
  parseDuration,
  parseFrequency,
  parseFutureDate,
  parseNonEmpty,
  parsePercentage,
  parseSplitAmount,
  parseSubscriptionAmount,
  type Parser,
} from '../../validation/flags.js';
import { parseId } from '../../config/shown-ids.js';
import { ALL_OR_PAGE, PAGING_OPTIONS } from '../shared/list.js';
import { aliasOf, command, defineCommand, group, pickedArg, switchOption, valueOption } from '../spec.js';

const idArg = pickedArg('id', 'subscription id (UUID, or its first 8 characters); picked from a list at a terminal when missing', parseId);
const SUB = '5e6f7a8b-9c0d-4e1f-a2b3-c4d5e6f7a8b9';
const SUBACCOUNT = '3f2b8c1e-0d4a-4b6e-9a7c-2e5d1f0a9b3c';

const parseTitle: Parser<string> = (flag, raw) => parseNonEmpty(flag, raw, 120);

export const subsList = defineCommand({
  name: 'list',
  summary: 'List subscriptions, filtered, a page at a time (or --all)',
  options: {
    status: valueOption('status', `only this status: ${SUBSCRIPTION_STATUSES.join(', ')}`, (flag, raw) => parseChoice(flag, raw, SUBSCRIPTION_STATUSES), {
      values: SUBSCRIPTION_STATUSES,
    }),
    title: valueOption('text', 'title contains this text (any case, with or without accents)', parseTitle),
    amount: valueOption('cents', 'plan amount equals these cents', parseAmountFilter),
    setupAmount: valueOption('cents', 'setup amount equals these cents', parseAmountFilter),
    frequency: valueOption('days', 'days between charges equals this', parseFrequency),
    startDate: valueOption('yyyy-mm-dd', 'created on or after this date', parseDate),
    splitSubaccount: valueOption('id', 'has a split to this sub-account', parseId),
    customer: valueOption('id', "only this customer's; reads every page (the API has no such filter)", parseId),
    ...PAGING_OPTIONS,
  },
  exclusive: [
    ALL_OR_PAGE,
    { options: ['customer', 'page'], reason: "--customer reads every page and shows all of the customer's" },
    { options: ['customer', 'limit'], reason: "--customer reads every page and shows all of the customer's" },
  ],
  view: subscriptionView,
  examples: [
    'payctl subs list',
    'payctl subs list --status ACTIVE --title gold --limit 50',
    `payctl subs list --split-subaccount ${SUBACCOUNT} --all --json | jq length`,
    'payctl subs list --customer 8d0c2f7a-5b1e-4c3d-9f6a-1e2b3c4d5e6f --status ACTIVE',
    'payctl subs list --start-date 2025-01-01 --fields id,title,amount,status -o csv',
  ],
});

export const subsGet = defineCommand({
  name: 'get',
  summary: 'Show one subscription and its splits',
  args: [idArg],
  view: subscriptionView,
  examples: [`payctl subs get ${SUB}`, `payctl subs get ${SUB} --json | jq '.splits[].id'`],
});

export const subsUpdate = defineCommand({
  name: 'update',
  summary: 'Change a subscription: customer, card, frequency, title, amount, duration, expiration',
  description: 'Change a subscription; only the flags given change. Splits change with add-split and remove-split.',
  args: [idArg],
  options: {
    customer: valueOption('id', 'customer id (UUID, or its first 8 characters); the card must be theirs', parseId),
    card: valueOption('id', 'card token to charge (UUID, or its first 8 characters)', parseId),
    frequency: valueOption('days', 'days between charges, 1 to 365', parseFrequency),
    title: valueOption('text', 'title', parseTitle),
    amount: valueOption('cents', 'amount in integer cents, at least 100', parseSubscriptionAmount),
    duration: valueOption('n', 'number of charge cycles, 1 to 1200', parseDuration),
    lifetime: switchOption('no fixed number of cycles nor expiration date (instead of --duration)'),
    expirationDate: valueOption('yyyy-mm-dd', 'last day, today or later', parseFutureDate),
  },
  exclusive: [{ options: ['duration', 'lifetime'], reason: 'a lifetime subscription has no number of cycles' }],
  view: subscriptionView,
  changesData: true,
  examples: [
    `payctl subs update ${SUB} --amount 4990 --title "Plano Ouro"`,
    `payctl subs update ${SUB} --duration 12`,
    `payctl subs update ${SUB} --lifetime --dry-run`,
  ],
});

export const subsCancel = defineCommand({
  name: 'cancel',
  summary: 'Cancel a subscription (cannot be undone; confirms first)',
  description:
    'Cancel a subscription. It cannot be undone: a cancelled subscription never comes back. payctl shows it and asks (default No); ' +
    '--yes skips the question.',
  args: [idArg],
  view: messageView,
  confirms: true,
  changesData: true,
  examples: [`payctl subs cancel ${SUB}`, `payctl subs cancel ${SUB} --yes`, `payctl subs cancel ${SUB} --dry-run`],
});

export const subsAddSplit = defineCommand({
  name: 'add-split',
  summary: 'Add a split to a subscription: a fixed amount or a percentage to a sub-account',
  description:
    'Add a split. Give --amount (cents) or --percentage (up to 2 decimals), not both. The receiver must be an APPROVED sub-account. ' +
    'The API has no list of sub-accounts, so at a terminal the receivers offered are the sub-accounts already receiving splits ' +
    "of this company's subscriptions and the profile's active sub-account, or you type an id; the subscription is picked " +
    'from the ACTIVE ones.',
  options: {
    subscription: valueOption('id', 'subscription id (UUID, or its first 8 characters); picked from the ACTIVE ones when missing', parseId),
    receiver: valueOption('id', 'receiving sub-account id (UUID, or its first 8 characters), APPROVED', parseId),
    amount: valueOption('cents', 'fixed amount in integer cents (not with --percentage)', parseSplitAmount),
    percentage: valueOption('p', 'share of the subscription amount, 0.01 to 100, up to 2 decimals (not with --amount)', parsePercentage),
    chargebackLiable: switchOption('the sub-account answers for chargebacks (default: no)'),
  },
  exclusive: [{ options: ['amount', 'percentage'], reason: 'a split is a fixed amount or a percentage' }],
  view: splitView,
  changesData: true,
  examples: [
    'payctl subs add-split      # asks subscription, receiver and value',
    `payctl subs add-split --subscription ${SUB} --receiver ${SUBACCOUNT} --percentage 12.5`,
    `payctl subs add-split --subscription ${SUB} --receiver ${SUBACCOUNT} --amount 1000 --chargeback-liable --json`,
  ],
});

export const subsRemoveSplit = defineCommand({
  name: 'remove-split',
  summary: 'Remove a split from a subscription (cannot be undone; confirms first)',
  description:
    'Remove one split. It cannot be undone. Split ids are shown by payctl subs get. payctl shows the split and asks (default No); ' +
    '--yes skips the question.',
  args: [
    pickedArg('subscription-id', 'subscription id (UUID, or its first 8 characters); picked from a list at a terminal when missing', parseId),
    pickedArg('split-id', 'split id (UUID, or its first 8 characters), from payctl subs get; picked from a list at a terminal when missing', parseId),
  ],
  view: messageView,
  confirms: true,
  changesData: true,
  examples: [
    `payctl subs get ${SUB}      # shows the split ids`,
    `payctl subs remove-split ${SUB} 9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d`,
    `payctl subs remove-split ${SUB} 9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d --yes`,
  ],
});

export const subsCommands = group('subs', 'List, show, update and cancel subscriptions; add and remove splits', [
  command(subsList, () => import('./list.js')),
  command(subsGet, () => import('./get.js')),
  command(subsUpdate, () => import('./update.js')),
  command(subsCancel, () => import('./cancel.js')),
  command(subsAddSplit, () => import('./add-split.js')),
  command(subsRemoveSplit, () => import('./remove-split.js')),
], [
  'payctl subs list --status ACTIVE',
  'payctl subs get      # picks a subscription from a list',
  'payctl subs cancel 9b1f4c2d-7e3a-4d5b-8c6f-0a1b2c3d4e5f --dry-run',
  'payctl subs add-split      # asks subscription, receiver and value',
]);

/** The API's own word for them. */
export const subscriptionsAlias = aliasOf(subsCommands, 'subscriptions', 'subs');
