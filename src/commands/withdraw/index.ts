import { PIX_KEY_TYPES, WITHDRAWAL_METHODS } from '../../api/types.js';
import type { CommandSpec, OptionSpec } from '../spec.js';
import { BATCH_OPTIONS } from './batch-flags.js';

const COMMON: OptionSpec[] = [
  { flags: '--amount <cents>', description: 'amount in integer cents, at least 100 (R$ 12,34 is 1234)' },
  { flags: '--bank-account <id>', description: 'receiving bank account id (see payctl bank-accounts list); asked from that list when missing' },
];
const PIX: OptionSpec[] = [
  { flags: '--pix-key-type <type>', description: 'DOCUMENT_CPF, DOCUMENT_CNPJ, EMAIL, PHONE or RANDOM (or cpf, cnpj, email, phone, random)', values: PIX_KEY_TYPES },
  { flags: '--pix-key <key>', description: 'PIX key valid for its type: CPF/CNPJ with check digits, e-mail, mobile phone, or the random UUID' },
];
const SINGLE: OptionSpec[] = [
  { flags: '--postback-url <url>', description: 'http(s) address notified on every status change' },
  { flags: '--allow-duplicate', description: 'send even if the same withdrawal was made in the last 10 minutes' },
];
const FROM_CSV: OptionSpec = { flags: '--from-csv <file>', description: 'a batch: the same as payctl withdraw batch FILE --method METHOD', complete: 'files' };
const TAIL: OptionSpec[] = [...SINGLE, FROM_CSV, ...BATCH_OPTIONS];

const DESCRIPTION = (name: string, balance: string) =>
  `Withdraw from the available ${balance} balance to a bank account of the account the command runs in. ` +
  'Missing values are asked at a terminal (the bank account from the account\'s list). Before anything moves, payctl shows the ' +
  'balance it draws on, the amount in R$ and cents, the destination, the account and the profile with its environment, and asks ' +
  '(default No). --yes skips the question; without a terminal and without --yes it refuses (exit 2). --dry-run prints the request and sends nothing. ' +
  'The same withdrawal (amount, method and PIX key, or bank account) made in the last 10 minutes in the same account is refused without a ' +
  'terminal, and asked about at one, unless --allow-duplicate; two started at the same moment pay once.\n\n' +
  `--from-csv FILE makes a batch: the same as payctl withdraw batch FILE --method ${name} (see its help).`;

const BATCH_DESCRIPTION =
  'One withdrawal per row of a CSV file (comma or semicolon separated, as spreadsheets save it, with or without a BOM). Header row with the ' +
  'columns amount (cents), bank_account_id, pix_key_type and pix_key (PIX only), and optionally postback_url, subaccount (a sub-account id; ' +
  'empty: the command\'s account) and reference (any text of yours). Every row is checked before any is sent (bad rows are listed with their ' +
  'line, exit 2). A row is known by its content, never by its line: adding, removing or reordering lines never pays a paid row again. Two ' +
  'identical rows are refused (both lines named) unless their references differ or --allow-duplicate-rows is given, which pays each of them once.\n\n' +
  'One confirmation shows the count, the total and the totals per account. The journal (--journal, default FILE.journal, only yours to write) ' +
  'records each row before and after sending, flushed to disk; one batch at a time per journal (a second run refuses at once, naming the ' +
  'process that holds it). A rerun skips rows paid, retries rows refused, and refuses rows whose outcome is unknown until --reconcile finds ' +
  'them in withdrawals list, on the API\'s clock. A report per row goes to stdout (-o json|ndjson|csv|tsv), a summary to stderr. Exit 0 when ' +
  'every row is paid, 5 if any outcome is unknown, 3 after an authentication failure, 130 after Ctrl-C, else 1.';

const balanceName = (name: 'pix' | 'card' | 'boleto') => (name === 'boleto' ? 'boleto (billet)' : name.toUpperCase());

const method = (name: 'pix' | 'card' | 'boleto', options: OptionSpec[], examples: string[], load: CommandSpec['load']): CommandSpec => ({
  name,
  summary: `Withdraw from the ${balanceName(name)} balance`,
  description: DESCRIPTION(name, balanceName(name)),
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
        'payctl withdraw pix --from-csv payouts.csv     # a batch: the same as payctl withdraw batch payouts.csv --method pix',
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
    {
      name: 'batch',
      summary: 'Withdraw once per row of a CSV file, with a journal that makes reruns safe',
      description: BATCH_DESCRIPTION,
      args: [{ name: 'FILE', description: 'CSV file, one withdrawal per row', complete: 'files' }],
      options: [{ flags: '--method <method>', description: 'pix, card or boleto: the balance every row draws on', values: WITHDRAWAL_METHODS }, ...BATCH_OPTIONS],
      accountContext: true,
      confirms: true,
      changesData: true,
      examples: [
        'payctl withdraw batch payouts.csv --method pix -o csv > payouts-report.csv     # asks once for the whole batch',
        'payctl withdraw batch payouts.csv --method pix --dry-run     # what would be sent',
        'payctl withdraw batch payouts.csv --method pix --reconcile --yes     # after a crash: settle unknown rows, send the rest',
        "payctl withdraw batch folha.csv --method boleto --csv-separator ';'",
      ],
      load: () => import('./batch.js'),
    },
  ],
};
