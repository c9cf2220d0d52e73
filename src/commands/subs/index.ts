import { SUBSCRIPTION_STATUSES } from '../../api/types.js';
import type { CommandSpec } from '../spec.js';
import { PAGING_OPTIONS } from '../shared/list.js';

const idArg = { name: 'id', description: 'subscription id (UUID)' };
const SUB = '5e6f7a8b-9c0d-4e1f-a2b3-c4d5e6f7a8b9';
const SUBACCOUNT = '3f2b8c1e-0d4a-4b6e-9a7c-2e5d1f0a9b3c';

export const subsCommands: CommandSpec = {
  name: 'subs',
  summary: 'List, show, update and cancel subscriptions; add and remove splits',
  subcommands: [
    {
      name: 'list',
      summary: 'List subscriptions, filtered, a page at a time (or --all)',
      options: [
        { flags: '--status <status>', description: `only this status: ${SUBSCRIPTION_STATUSES.join(', ')}`, values: SUBSCRIPTION_STATUSES },
        { flags: '--title <text>', description: 'title contains this text (any case, with or without accents)' },
        { flags: '--amount <cents>', description: 'plan amount equals these cents' },
        { flags: '--setup-amount <cents>', description: 'setup amount equals these cents' },
        { flags: '--frequency <days>', description: 'days between charges equals this' },
        { flags: '--start-date <yyyy-mm-dd>', description: 'created on or after this date' },
        { flags: '--split-subaccount <id>', description: 'has a split to this sub-account' },
        ...PAGING_OPTIONS,
      ],
      examples: [
        'payctl subs list',
        'payctl subs list --status ACTIVE --title gold --limit 50',
        `payctl subs list --split-subaccount ${SUBACCOUNT} --all --json | jq length`,
        'payctl subs list --start-date 2025-01-01 --fields id,title,amount,status -o csv',
      ],
      load: () => import('./list.js'),
    },
    {
      name: 'get',
      summary: 'Show one subscription and its splits',
      args: [idArg],
      examples: [`payctl subs get ${SUB}`, `payctl subs get ${SUB} --json | jq '.splits[].id'`],
      load: () => import('./get.js'),
    },
    {
      name: 'update',
      summary: 'Change a subscription: customer, card, frequency, title, amount, duration, expiration',
      description: 'Change a subscription; only the flags given change. Splits change with add-split and remove-split.',
      args: [idArg],
      options: [
        { flags: '--customer <id>', description: 'customer id (UUID); the card must be theirs' },
        { flags: '--card <id>', description: 'card token to charge (UUID)' },
        { flags: '--frequency <days>', description: 'days between charges, 1 to 365' },
        { flags: '--title <text>', description: 'title' },
        { flags: '--amount <cents>', description: 'amount in integer cents, at least 100' },
        { flags: '--duration <n>', description: 'number of charge cycles, 1 to 1200' },
        { flags: '--lifetime', description: 'no fixed number of cycles nor expiration date (instead of --duration)' },
        { flags: '--expiration-date <yyyy-mm-dd>', description: 'last day, today or later' },
      ],
      changesData: true,
      examples: [
        `payctl subs update ${SUB} --amount 4990 --title "Plano Ouro"`,
        `payctl subs update ${SUB} --duration 12`,
        `payctl subs update ${SUB} --lifetime --dry-run`,
      ],
      load: () => import('./update.js'),
    },
    {
      name: 'cancel',
      summary: 'Cancel a subscription (cannot be undone; confirms first)',
      description: 'Cancel a subscription. It cannot be undone: a cancelled subscription never comes back. payctl shows it and asks (default No); --yes skips the question.',
      args: [idArg],
      confirms: true,
      changesData: true,
      examples: [`payctl subs cancel ${SUB}`, `payctl subs cancel ${SUB} --yes`, `payctl subs cancel ${SUB} --dry-run`],
      load: () => import('./cancel.js'),
    },
    {
      name: 'add-split',
      summary: 'Add a split to a subscription: a fixed amount or a percentage to a sub-account',
      description:
        'Add a split. Give --amount (cents) or --percentage (up to 2 decimals), not both. The receiver must be an APPROVED sub-account. ' +
        'The API has no list of sub-accounts, so at a terminal the receivers offered are the sub-accounts already receiving splits ' +
        "of this company's subscriptions and the profile's active sub-account, or you type an id; the subscription is picked " +
        'from the ACTIVE ones.',
      options: [
        { flags: '--subscription <id>', description: 'subscription id (UUID); picked from the ACTIVE ones when missing' },
        { flags: '--receiver <id>', description: 'receiving sub-account id (UUID), APPROVED' },
        { flags: '--amount <cents>', description: 'fixed amount in integer cents (not with --percentage)' },
        { flags: '--percentage <p>', description: 'share of the subscription amount, 0.01 to 100, up to 2 decimals (not with --amount)' },
        { flags: '--chargeback-liable', description: 'the sub-account answers for chargebacks (default: no)' },
      ],
      changesData: true,
      examples: [
        'payctl subs add-split      # asks subscription, receiver and value',
        `payctl subs add-split --subscription ${SUB} --receiver ${SUBACCOUNT} --percentage 12.5`,
        `payctl subs add-split --subscription ${SUB} --receiver ${SUBACCOUNT} --amount 1000 --chargeback-liable --json`,
      ],
      load: () => import('./add-split.js'),
    },
    {
      name: 'remove-split',
      summary: 'Remove a split from a subscription (cannot be undone; confirms first)',
      description: 'Remove one split. It cannot be undone. Split ids are shown by payctl subs get. payctl shows the split and asks (default No); --yes skips the question.',
      args: [
        { name: 'subscription-id', description: 'subscription id (UUID)' },
        { name: 'split-id', description: 'split id (UUID), from payctl subs get' },
      ],
      confirms: true,
      changesData: true,
      examples: [`payctl subs get ${SUB}      # shows the split ids`, `payctl subs remove-split ${SUB} 9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d`, `payctl subs remove-split ${SUB} 9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d --yes`],
      load: () => import('./remove-split.js'),
    },
  ],
};
