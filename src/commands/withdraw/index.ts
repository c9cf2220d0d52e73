import { PIX_KEY_TYPES } from '../../api/types.js';
import type { CommandSpec, OptionSpec } from '../spec.js';

const COMMON: OptionSpec[] = [
  { flags: '--amount <cents>', description: 'amount in integer cents, at least 100 (R$ 12,34 is 1234)' },
  { flags: '--bank-account <id>', description: 'receiving bank account id (see payctl bank-accounts list); asked from that list when missing' },
];
const PIX: OptionSpec[] = [
  { flags: '--pix-key-type <type>', description: 'DOCUMENT_CPF, DOCUMENT_CNPJ, EMAIL, PHONE or RANDOM (or cpf, cnpj, email, phone, random)', values: PIX_KEY_TYPES },
  { flags: '--pix-key <key>', description: 'PIX key valid for its type: CPF/CNPJ with check digits, e-mail, mobile phone, or the random UUID' },
];
const TAIL: OptionSpec[] = [
  { flags: '--postback-url <url>', description: 'http(s) address notified on every status change' },
  { flags: '--allow-duplicate', description: 'send even if the same withdrawal was made in the last 10 minutes' },
  { flags: '--from-csv <file>', description: 'CSV of one withdrawal per row', complete: 'files' },
  { flags: '--journal <file>', description: 'journal file, default beside the CSV', complete: 'files' },
  { flags: '--concurrency <n>', description: 'parallel requests, default 4' },
  { flags: '--reconcile', description: 'look rows of unknown outcome up in withdrawals list' },
];

const DESCRIPTION = (method: string) =>
  `Withdraw from the available ${method} balance to a bank account of the account the command runs in. ` +
  'Missing values are asked at a terminal (the bank account from the account\'s list). Before anything moves, payctl shows the ' +
  'balance it draws on, the amount in R$ and cents, the destination, the account and the profile with its environment, and asks ' +
  '(default No). --yes skips the question; without a terminal and without --yes it refuses (exit 2). --dry-run prints the request and sends nothing.\n\n' +
  'Batch (--from-csv FILE): one withdrawal per row. Header row with the columns amount (cents), bank_account_id' +
  `${method === 'PIX' ? ', pix_key_type, pix_key' : ''}, and optionally postback_url and subaccount (a sub-account id; empty: the command's account). ` +
  'Every row is checked before any is sent (bad rows are listed with their line, exit 2); one confirmation shows the count, the total and the ' +
  'totals per account. The journal (--journal, default FILE.journal) records each row before and after sending, flushed to disk: a rerun ' +
  'skips rows done, retries rows refused, and refuses rows whose outcome is unknown until --reconcile finds them in withdrawals list. ' +
  'A report per row goes to stdout (-o json|ndjson|csv|tsv), a summary to stderr. Exit 0 when every row is paid, 5 if any outcome is unknown, ' +
  '3 after an authentication failure, 130 after Ctrl-C, else 1.';

const method = (name: 'pix' | 'card' | 'boleto', options: OptionSpec[], examples: string[], load: CommandSpec['load']): CommandSpec => ({
  name,
  summary: `Withdraw from the ${name === 'boleto' ? 'boleto (billet)' : name.toUpperCase()} balance`,
  description: DESCRIPTION(name === 'boleto' ? 'boleto (billet)' : name.toUpperCase()),
  options,
  accountContext: true,
  confirms: true,
  changesData: true,
  examples,
  load,
});

export const withdrawCommands: CommandSpec = {
  name: 'withdraw',
  summary: 'Withdraw money to a bank account: pix, card or boleto balance (confirms first)',
  subcommands: [
    method(
      'pix',
      [...COMMON, ...PIX, ...TAIL],
      [
        'payctl withdraw pix      # asks bank account, amount and key, then confirms',
        'payctl withdraw pix --amount 15000 --bank-account 12 --pix-key-type email --pix-key financeiro@acme.com.br',
        'payctl withdraw pix --amount 15000 --bank-account 12 --pix-key-type cpf --pix-key 529.982.247-25 --dry-run',
        'payctl withdraw pix --subaccount 3f2b8c1e-0d4a-4b6e-9a7c-2e5d1f0a9b3c --amount 5000 --bank-account 7 --pix-key-type random --pix-key 123e4567-e89b-42d3-a456-426614174000 --yes --json',
        'payctl withdraw pix --from-csv payouts.csv -o csv > payouts-report.csv     # asks once for the whole batch',
        'payctl withdraw pix --from-csv payouts.csv --reconcile --yes     # after a crash: settle unknown rows, send the rest',
      ],
      () => import('./pix.js'),
    ),
    method(
      'card',
      [...COMMON, ...TAIL],
      ['payctl withdraw card', 'payctl withdraw card --amount 250000 --bank-account 12', 'payctl withdraw card --amount 250000 --bank-account 12 --yes --json | jq -r .id'],
      () => import('./card.js'),
    ),
    method(
      'boleto',
      [...COMMON, ...TAIL],
      ['payctl withdraw boleto', 'payctl withdraw boleto --amount 99900 --bank-account 12 --dry-run', 'payctl withdraw boleto --amount 99900 --bank-account 12 --main-account --yes'],
      () => import('./boleto.js'),
    ),
  ],
};
