import { SETTLEMENT_STATUSES } from '../../api/types.js';
import { balanceView, subaccountView, withdrawalView } from '../../output/views.js';
import { parseCents, parseChoice, parseInteger, parseNonEmpty, parseShare, type Parser } from '../../validation/flags.js';
import { parseId } from '../../config/shown-ids.js';
import { arg, command, defineCommand, group, switchOption, valueOption } from '../spec.js';

const integerFrom =
  (min: number, max: number): Parser<number> =>
  (flag, raw) =>
    parseInteger(flag, raw, min, max);

export const sandboxStart = defineCommand({
  name: 'start',
  summary: 'Start a local, stateful sandbox of the whole API (127.0.0.1:4010 by default) until Ctrl-C',
  options: {
    port: valueOption('n', 'port to listen on; 0 picks a free one (default 4010)', integerFrom(0, 65535)),
    host: valueOption('host', 'address to listen on (default 127.0.0.1)', (flag, raw) => parseNonEmpty(flag, raw, 255)),
    seed: valueOption('n', 'seed of the generated data: the same seed gives the same data (default 1)', integerFrom(0, 2 ** 31 - 1)),
    customers: valueOption('n', "number of acme's customers (default 250)", integerFrom(1, 1_000_000)),
    data: valueOption('file', 'load the data from FILE (and FILE.log) at start; every change is on disk before it is answered', (flag, raw) => parseNonEmpty(flag, raw, 4096), {
      complete: 'files',
    }),
    latency: valueOption('ms', 'answer every request after MS milliseconds, as the platform across a network would (default 0)', integerFrom(0, 60_000)),
    rateLimit: valueOption('n', 'allow each client address N requests a second; past it answer 429 with Retry-After (API routes, not /sandbox/...)', integerFrom(1, 1_000_000)),
    failRate: valueOption('share', 'answer this share of requests (0 to 1) with 503 (API routes, not /sandbox/...)', parseShare),
    failAfterWrite: switchOption('with --fail-rate: a failing POST, PUT or DELETE makes its change first, then answers 503'),
    settleAfter: valueOption('ms', 'PENDING withdrawals settle on their own MS milliseconds after their creation', integerFrom(0, 86_400_000)),
    settleFailedShare: valueOption('share', 'with --settle-after: the share of withdrawals (0 to 1) that end FAILED (default 0.1)', parseShare),
    maxConnections: valueOption('n', 'connections kept open at most; past it the longest-idle are closed (default: from the open-file limit)', integerFrom(1, 1_000_000)),
    tls: switchOption('serve https with a certificate made at start; prints the file of the authority to trust (NODE_EXTRA_CA_CERTS)'),
    quiet: switchOption('log no requests (by default each is a line on stderr), so a sandbox in the background stays out of your terminal'),
    log: valueOption('file', 'append the request log to FILE instead of stderr', (flag, raw) => parseNonEmpty(flag, raw, 4096), { complete: 'files' }),
  },
  exclusive: [{ options: ['quiet', 'log'], reason: 'log no requests, or log them to a file' }],
  examples: [
    'payctl sandbox start',
    'payctl sandbox start --quiet &               # in the background, its request log out of your terminal',
    'payctl sandbox start --log sandbox.log       # the request log in a file (tail -f sandbox.log)',
    'payctl sandbox start --port 0 --seed 7 --customers 100000',
    'payctl sandbox start --data ./sandbox.json   # keeps its state across restarts, even kill -9',
    'payctl sandbox start --latency 50            # try timeouts and --all as against a remote platform',
    'payctl sandbox start --rate-limit 5 --fail-rate 0.1 --fail-after-write   # see how a script copes',
    'payctl sandbox start --settle-after 2000     # withdrawals complete (or fail) by themselves',
    'payctl sandbox start --tls                   # https; run payctl with the NODE_EXTRA_CA_CERTS=… line it prints',
  ],
});

export const sandboxApprove = defineCommand({
  name: 'approve',
  summary: 'Approve a sub-account, so that it can receive splits',
  args: [arg('subaccount-id', 'sub-account id (UUID, or its first 8 characters)', parseId)],
  view: subaccountView,
  changesData: true,
  examples: ['payctl sandbox approve 3f2b8c1e-0d4a-4b6e-9a7c-2e5d1f0a9b3c'],
});

export const sandboxSettle = defineCommand({
  name: 'settle',
  summary: 'Settle a PENDING withdrawal as COMPLETED or FAILED (its postback is sent)',
  args: [arg('withdrawal-id', 'withdrawal id (UUID, or its first 8 characters)', parseId)],
  options: {
    status: valueOption('status', 'outcome (required)', (flag, raw) => parseChoice(flag, raw, SETTLEMENT_STATUSES), { choices: SETTLEMENT_STATUSES }),
  },
  view: withdrawalView,
  accountContext: true,
  changesData: true,
  examples: ['payctl sandbox settle 9d1c…e2 --status COMPLETED', 'payctl sandbox settle 9d1c…e2 --status FAILED --subaccount 3f2b…3c'],
});

export const sandboxCredit = defineCommand({
  name: 'credit',
  summary: 'Add money (integer cents) to the available balances',
  options: {
    pix: valueOption('cents', 'cents to add to the PIX balance', parseCents),
    card: valueOption('cents', 'cents to add to the card balance', parseCents),
    billet: valueOption('cents', 'cents to add to the boleto balance', parseCents),
  },
  view: balanceView,
  accountContext: true,
  changesData: true,
  examples: ['payctl sandbox credit --pix 100000', 'payctl sandbox credit --card 5000 --billet 5000 --subaccount 3f2b…3c'],
});

export const sandboxCommands = group('sandbox', 'Run the local sandbox of the platform, and play its back office', [
  command(sandboxStart, () => import('./start.js')),
  command(sandboxApprove, () => import('./approve.js')),
  command(sandboxSettle, () => import('./settle.js')),
  command(sandboxCredit, () => import('./credit.js')),
], [
  'payctl sandbox start --port 4010',
  'payctl sandbox credit --pix 100000',
  'payctl sandbox settle 7c6d5e4f-3a2b-4c1d-9e8f-7a6b5c4d3e2f --status COMPLETED',
]);
