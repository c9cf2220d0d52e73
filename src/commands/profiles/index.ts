import { ENVIRONMENTS, TOKEN_STORES } from '../../config/store.js';
import { usageError } from '../../errors.js';
import { parseCents, parseChoice, parseDuplicateWindow, type Parser } from '../../validation/flags.js';
import { parseLedgerUrl } from '../../ledger/url.js';
import { globalFlag } from '../../flags.js';
import { arg, asText, command, defineCommand, group, optionalArg, switchOption, valueOption } from '../spec.js';
import { profileView } from './view.js';

const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

const parseProfileName: Parser<string> = (_label, name) => {
  if (!PROFILE_NAME.test(name)) throw usageError(`profile name "${name}" is invalid: use letters, digits, - and _ (at most 64, starting with a letter or digit)`);
  return name;
};

/** A profile that exists is looked up by the command, which names the ones there are. */
const existingProfileArg = arg('name', 'profile name', asText, { complete: 'profiles' });

export const profilesList = defineCommand({
  name: 'list',
  summary: 'List profiles; the current one is marked',
  view: profileView,
  examples: ['payctl profiles list', 'payctl profiles list --json | jq -r ".[].name"'],
});

export const profilesShow = defineCommand({
  name: 'show',
  summary: 'Show one profile (the current one by default); the token itself is never shown',
  args: [optionalArg('name', 'profile name', asText, { complete: 'profiles' })],
  view: profileView,
  examples: ['payctl profiles show', 'payctl profiles show prod --json'],
});

export const profilesAdd = defineCommand({
  name: 'add',
  summary: 'Add a profile',
  description: `Add a profile. The global ${globalFlag('baseUrl')}, required here, is the new profile's API base URL.`,
  args: [arg('name', 'profile name', parseProfileName)],
  options: {
    env: valueOption('environment', 'environment (default: local for 127.0.0.1 and localhost, else production)', (flag, raw) => parseChoice(flag, raw, ENVIRONMENTS), {
      choices: ENVIRONMENTS,
    }),
  },
  examples: ['payctl profiles add prod --base-url https://api.example.com --env production', 'payctl profiles add sandbox --base-url http://127.0.0.1:4010 --env local'],
});

export const profilesUse = defineCommand({
  name: 'use',
  summary: 'Make a profile the current one',
  args: [existingProfileArg],
  examples: ['payctl profiles use prod'],
});

export const profilesRemove = defineCommand({
  name: 'remove',
  summary: 'Remove a profile and its token',
  args: [existingProfileArg],
  examples: ['payctl profiles remove old-sandbox'],
});

const parseLimit: Parser<number> = (flag, raw) => parseCents(flag, raw, 1);

export const profilesSet = defineCommand({
  name: 'set',
  summary: "Set a profile's withdrawal limits, csv separator and where its token is kept",
  description:
    'A withdrawal above --max-withdrawal, or a batch whose total is above --max-batch-total, is refused before anything is sent, ' +
    'with --yes or without (exit 2). Limits are integer cents, as amounts are. Changing a limit of a production profile is confirmed ' +
    'at a terminal; without one it needs --yes. --token-store keychain moves the token into the system keychain (macOS Keychain, ' +
    'Windows Credential Manager, Secret Service on Linux), and file moves it back; a keychain that does not answer within 3 s ' +
    "leaves it in the config file, with a warning. --duplicate-window says how far back every withdrawal (single or a batch row) " +
    "is compared with the account's withdrawals on the platform (default 24h). --ledger names the team's PostgreSQL ledger (the password from PGPASSWORD, " +
    '~/.pgpass or the keychain, never in the URL), in which every withdrawal is claimed before it is sent and --max-daily-total ' +
    "is counted; local goes back to the local files. The global --csv-separator, given here, becomes the profile's separator of -o csv.",
  args: [existingProfileArg],
  options: {
    maxWithdrawal: valueOption('cents', 'the largest single withdrawal, in cents (R$ 1.000,00 is 100000)', parseLimit),
    clearMaxWithdrawal: switchOption('remove the single-withdrawal limit'),
    maxBatchTotal: valueOption('cents', 'the largest total of one batch, in cents', parseLimit),
    clearMaxBatchTotal: switchOption('remove the batch limit'),
    duplicateWindow: valueOption('span', 'how far back a withdrawal looks for its twins on the platform: 30m, 24h, 7d (1m to 30d), default 24h', (flag, raw) => {
      parseDuplicateWindow(flag, raw);
      return raw.replace(/\s+/g, '').toLowerCase();
    }),
    maxDailyTotal: valueOption('cents', "the team's total per account and calendar day (America/Sao_Paulo), in cents, counted in the ledger", parseLimit),
    clearMaxDailyTotal: switchOption('remove the daily limit'),
    ledger: valueOption('url', "the team's ledger: postgres://USER@HOST:PORT/DB (no password in it), or local", parseLedgerUrl),
    tokenStore: valueOption('store', 'where the token is kept: file (the config file, 0600) or keychain', (flag, raw) => parseChoice(flag, raw, TOKEN_STORES), {
      choices: TOKEN_STORES,
    }),
  },
  exclusive: [
    { options: ['maxWithdrawal', 'clearMaxWithdrawal'], reason: 'set the limit or remove it' },
    { options: ['maxBatchTotal', 'clearMaxBatchTotal'], reason: 'set the limit or remove it' },
    { options: ['maxDailyTotal', 'clearMaxDailyTotal'], reason: 'set the limit or remove it' },
  ],
  confirms: true,
  examples: [
    'payctl profiles set prod --max-withdrawal 500000 --max-batch-total 5000000',
    'payctl profiles set prod --token-store keychain',
    'payctl profiles set prod --duplicate-window 48h',
    'payctl profiles set prod --ledger postgres://ana@ledger.example.com:5432/payctl?sslmode=verify-full --max-daily-total 10000000',
    "payctl profiles set prod --csv-separator ';'",
    'payctl profiles set prod --clear-max-batch-total --yes',
  ],
});

export const profilesCommands = group('profiles', 'Manage profiles: base URL, environment, token and sub-account per platform account', [
  command(profilesList, () => import('./list.js')),
  command(profilesShow, () => import('./show.js')),
  command(profilesAdd, () => import('./add.js')),
  command(profilesUse, () => import('./use.js')),
  command(profilesSet, () => import('./set.js')),
  command(profilesRemove, () => import('./remove.js')),
], [
  'payctl profiles add prod --base-url https://api.example.com --env production',
  'payctl profiles use prod',
  'payctl profiles set prod --max-withdrawal 500000',
  'payctl profiles list',
]);
