import { SETTLEMENT_STATUSES } from '../../api/types.js';
import type { CommandSpec } from '../spec.js';

export const sandboxCommands: CommandSpec = {
  name: 'sandbox',
  summary: 'Run the local sandbox of the platform, and play its back office',
  subcommands: [
    {
      name: 'start',
      summary: 'Start a local, stateful sandbox of the whole API (127.0.0.1:4010 by default) until Ctrl-C',
      options: [
        { flags: '--port <n>', description: 'port to listen on; 0 picks a free one (default 4010)' },
        { flags: '--host <host>', description: 'address to listen on (default 127.0.0.1)' },
        { flags: '--seed <n>', description: 'seed of the generated data: the same seed gives the same data (default 1)' },
        { flags: '--customers <n>', description: "number of acme's customers (default 250)" },
        { flags: '--data <file>', description: 'load the data from FILE (and FILE.log) at start; every change is on disk before it is answered', complete: 'files' },
        { flags: '--latency <ms>', description: 'answer every request after MS milliseconds, as the platform across a network would (default 0)' },
        { flags: '--rate-limit <n>', description: 'allow each client address N requests a second; past it answer 429 with Retry-After (API routes, not /sandbox/...)' },
        { flags: '--fail-rate <share>', description: 'answer this share of requests (0 to 1) with 503 (API routes, not /sandbox/...)' },
        { flags: '--fail-after-write', description: 'with --fail-rate: a failing POST, PUT or DELETE makes its change first, then answers 503' },
        { flags: '--settle-after <ms>', description: 'PENDING withdrawals settle on their own MS milliseconds after their creation' },
        { flags: '--settle-failed-share <share>', description: 'with --settle-after: the share of withdrawals (0 to 1) that end FAILED (default 0.1)' },
        { flags: '--max-connections <n>', description: 'connections kept open at most; past it the longest-idle are closed (default: from the open-file limit)' },
        { flags: '--tls', description: 'serve https with a certificate made at start; prints the file of the authority to trust (NODE_EXTRA_CA_CERTS)' },
      ],
      examples: [
        'payctl sandbox start',
        'payctl sandbox start --port 0 --seed 7 --customers 100000',
        'payctl sandbox start --data ./sandbox.json   # keeps its state across restarts, even kill -9',
        'payctl sandbox start --latency 50            # try timeouts and --all as against a remote platform',
        'payctl sandbox start --rate-limit 5 --fail-rate 0.1 --fail-after-write   # see how a script copes',
        'payctl sandbox start --settle-after 2000     # withdrawals complete (or fail) by themselves',
        'payctl sandbox start --tls                   # https; run payctl with the NODE_EXTRA_CA_CERTS=… line it prints',
      ],
      load: () => import('./start.js'),
    },
    {
      name: 'approve',
      summary: 'Approve a sub-account, so that it can receive splits',
      args: [{ name: 'subaccount-id', description: 'sub-account id (UUID)' }],
      changesData: true,
      examples: ['payctl sandbox approve 3f2b8c1e-0d4a-4b6e-9a7c-2e5d1f0a9b3c'],
      load: () => import('./approve.js'),
    },
    {
      name: 'settle',
      summary: 'Settle a PENDING withdrawal as COMPLETED or FAILED (its postback is sent)',
      args: [{ name: 'withdrawal-id', description: 'withdrawal id (UUID)' }],
      options: [{ flags: '--status <status>', description: 'outcome (required)', choices: SETTLEMENT_STATUSES }],
      accountContext: true,
      changesData: true,
      examples: ['payctl sandbox settle 9d1c…e2 --status COMPLETED', 'payctl sandbox settle 9d1c…e2 --status FAILED --subaccount 3f2b…3c'],
      load: () => import('./settle.js'),
    },
    {
      name: 'credit',
      summary: 'Add money (integer cents) to the available balances',
      options: [
        { flags: '--pix <cents>', description: 'cents to add to the PIX balance' },
        { flags: '--card <cents>', description: 'cents to add to the card balance' },
        { flags: '--billet <cents>', description: 'cents to add to the boleto balance' },
      ],
      accountContext: true,
      changesData: true,
      examples: ['payctl sandbox credit --pix 100000', 'payctl sandbox credit --card 5000 --billet 5000 --subaccount 3f2b…3c'],
      load: () => import('./credit.js'),
    },
  ],
};
