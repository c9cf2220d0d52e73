import { PIX_KEY_TYPES, WITHDRAWAL_METHODS, type WithdrawalMethod } from '../../api/types.js';
import { batchReportView } from '../../batch/report.js';
import { withdrawalView } from '../../output/views.js';
import { parseChoice, parseInteger } from '../../validation/flags.js';
import { WITHDRAW_PARSERS } from '../../withdrawal/request.js';
import { WAIT_OPTIONS } from '../shared/wait.js';
import { arg, asText, command, defineCommand, flagOf, group, switchOption, textOption, valueOption, type OptionDefs } from '../spec.js';

const DESTINATION = {
  amount: valueOption('cents', 'amount in integer cents, at least 100 (R$ 12,34 is 1234)', WITHDRAW_PARSERS.amount),
  bankAccount: valueOption('id', 'receiving bank account id (see payctl bank-accounts list); asked from that list when missing', WITHDRAW_PARSERS.bankAccount),
} satisfies OptionDefs;

const PIX_KEY = {
  pixKeyType: valueOption('type', 'DOCUMENT_CPF, DOCUMENT_CNPJ, EMAIL, PHONE or RANDOM (or cpf, cnpj, email, phone, random)', WITHDRAW_PARSERS.pixKeyType, {
    values: PIX_KEY_TYPES,
  }),
  pixKey: valueOption('key', 'PIX key valid for its type: CPF/CNPJ with check digits, e-mail, mobile phone, or the random UUID', WITHDRAW_PARSERS.pixKey),
} satisfies OptionDefs;

const SINGLE = {
  postbackUrl: valueOption('url', 'http(s) address notified on every status change', WITHDRAW_PARSERS.postbackUrl),
  allowDuplicate: switchOption("send even if the same withdrawal was made within the profile's --duplicate-window (default 24h)"),
  fromCsv: textOption('file', 'a batch: the same as payctl withdraw batch FILE --method METHOD', { complete: 'files' }),
  ...WAIT_OPTIONS,
} satisfies OptionDefs;

const DESCRIPTION = (name: string, balance: string) =>
  `Withdraw from the available ${balance} balance to a bank account of the account the command runs in. ` +
  'Missing values are asked at a terminal (the bank account from the account\'s list). Before anything moves, payctl shows the ' +
  'balance it draws on, the amount in R$ and cents, its fee and what arrives (the sandbox\'s fees; a production profile: set by the platform), the destination, the account and the profile with its environment, and asks ' +
  '(default No). --yes skips the question; without a terminal and without --yes it refuses (exit 2). --dry-run prints the request and sends nothing. ' +
  'The same withdrawal (method, amount, bank account and PIX key) already on the platform in the same account, made by anyone within the ' +
  "profile's --duplicate-window (default 24h), is refused before the question (exit 2, each one named) unless --allow-duplicate; two " +
  'started at the same moment, from any profile or config folder, pay once. A withdrawal above the ' +
  "profile's --max-withdrawal is refused (exit 2).\n\n" +
  '--wait reads the withdrawal after sending until it is COMPLETED (exit 0) or FAILED (exit 1), and prints it then; after ' +
  '--wait-timeout seconds it stops waiting (exit 5: the withdrawal exists and is still PENDING; follow it with withdrawals get).\n\n' +
  `--from-csv FILE makes a batch: the same as payctl withdraw batch FILE --method ${name} (see its help).`;

const BATCH_DESCRIPTION =
  'One withdrawal per row of a CSV file (comma or semicolon separated, as spreadsheets save it, with or without a BOM) or of an .xlsx ' +
  "workbook's first sheet (or --sheet NAME), its cells read as they show (a number typed as text, a CPF with its leading zero, a date). " +
  'Header row with the columns amount (cents) or amount_brl (reais as written in Brazil: 1.234,56, R$ 1.234,56 or 1234,56, converted ' +
  'exactly; never both in one file; a cents cell that reads as reais is refused with what it would be in cents), bank_account_id, pix_key_type and pix_key (PIX only), and optionally postback_url, subaccount (a sub-account id; ' +
  'empty: the command\'s account) and reference (any text of yours). Every row is checked before any is sent (bad rows are listed with their ' +
  'line, exit 2). A row is known by its content, never by its line: adding, removing or reordering lines never pays a paid row again. Two ' +
  'identical rows are refused (both lines named) unless their references differ or --allow-duplicate-rows is given, which pays each of them once. ' +
  "Before the question, every row to send is compared with the account's withdrawals on the platform made within the profile's " +
  '--duplicate-window (default 24h), read once for the file: a row with the same method, amount, bank account and key as one of them ' +
  '(a copy of a paid file, a re-export, a colleague\'s file) is refused (exit 2, each named) unless --allow-duplicate; withdrawals its ' +
  'own journal paid are not counted.\n\n' +
  'One confirmation shows the count, the total and the totals per account, the fee and what arrives, and each account\'s balance against its total ' +
  '(warned when short: sent anyway, the API refuses what it cannot cover). The journal (--journal, default FILE.journal, only yours to write) ' +
  'records each row before and after sending, flushed to disk; one batch at a time per journal (a second run refuses at once, naming the ' +
  'process that holds it). A rerun skips rows paid, retries rows refused, and refuses rows whose outcome is unknown until --reconcile finds ' +
  'them in withdrawals list, on the API\'s clock. A report per row goes to stdout (-o json|ndjson|csv|tsv), a summary to stderr. A row whose ' +
  'request never reached the API (connection refused, DNS) is not sent, and sending stops there: the rest are not sent either, and a rerun sends them. Exit 0 when ' +
  'every row is paid, 5 if any outcome is unknown, 3 after an authentication failure, 130 after Ctrl-C, 4 when the API could not be reached, else 1. A file with a row above the ' +
  "profile's --max-withdrawal, or whose total is above its --max-batch-total, is refused before anything is sent (exit 2).\n\n" +
  '--wait then reads every withdrawal the run sent until it is COMPLETED or FAILED (one line on stderr at a terminal), and the report ' +
  'shows each one\'s last status: exit 1 if one FAILED, 5 if one is still PENDING after --wait-timeout seconds (default 300); ' +
  'Ctrl-C stops the wait, not the withdrawals.';

const balanceName = (name: WithdrawalMethod) => (name === 'boleto' ? 'boleto (billet)' : name.toUpperCase());

export const withdrawBatch = defineCommand({
  name: 'batch',
  summary: 'Withdraw once per row of a CSV file, with a journal that makes reruns safe',
  description: BATCH_DESCRIPTION,
  args: [arg('FILE', 'CSV file or .xlsx workbook, one withdrawal per row', asText, { complete: 'files' })],
  options: {
    method: valueOption('method', 'pix, card or boleto: the balance every row draws on', (flag, raw) => parseChoice(flag, raw, WITHDRAWAL_METHODS), {
      values: WITHDRAWAL_METHODS,
    }),
    journal: textOption('file', 'journal of what was paid, default FILE.journal beside the CSV', { complete: 'files' }),
    concurrency: valueOption('n', 'requests in flight at once, 1 to 16, default 4', (flag, raw) => parseInteger(flag, raw, 1, 16)),
    reconcile: switchOption('settle rows of unknown outcome from withdrawals list, then send the rest'),
    allowDuplicateRows: switchOption('pay identical rows once each, instead of refusing the file'),
    allowDuplicate: switchOption("send rows that match withdrawals already on the platform within the profile's --duplicate-window (default 24h)"),
    sheet: textOption('name', 'the sheet of an .xlsx FILE to read (default: its first)'),
    ...WAIT_OPTIONS,
    wait: switchOption('after sending, wait until every row sent is COMPLETED or FAILED; exit by the worst outcome'),
  },
  view: batchReportView,
  accountContext: true,
  confirms: true,
  changesData: true,
  examples: [
    'payctl withdraw batch payouts.csv --method pix -o csv > payouts-report.csv     # asks once for the whole batch',
    'payctl withdraw batch payouts.csv --method pix --dry-run     # what would be sent',
    'payctl withdraw batch payouts.csv --method pix --reconcile --yes     # after a crash: settle unknown rows, send the rest',
    "payctl withdraw batch folha.csv --method boleto --csv-separator ';'",
    'payctl withdraw batch folha.xlsx --sheet Novembro --method pix     # a workbook; amounts in amount (cents) or amount_brl (1.234,56)',
    'payctl withdraw batch payouts.csv --method pix --yes --wait     # exit 0 once every row is COMPLETED',
  ],
});

/** What the single withdrawals share, whatever their method. */
const SINGLE_TRAITS = { view: withdrawalView, accountContext: true, confirms: true, changesData: true } as const;

/** `withdraw METHOD --from-csv FILE` is `withdraw batch FILE --method METHOD`. */
const batchOf = (method: WithdrawalMethod) =>
  ({ option: 'fromCsv', as: (file: string) => [withdrawBatch.name, file, flagOf('method', withdrawBatch.options.method), method] }) as const;

export const withdrawPix = defineCommand({
  name: 'pix',
  summary: `Withdraw from the ${balanceName('pix')} balance`,
  description: DESCRIPTION('pix', balanceName('pix')),
  options: { ...DESTINATION, ...PIX_KEY, ...SINGLE },
  ...SINGLE_TRAITS,
  respelling: batchOf('pix'),
  examples: [
    'payctl withdraw pix      # asks bank account, amount and key, then confirms',
    'payctl withdraw pix --amount 15000 --bank-account 12 --pix-key-type email --pix-key financeiro@acme.com.br',
    'payctl withdraw pix --amount 15000 --bank-account 12 --pix-key-type cpf --pix-key 529.982.247-25 --dry-run',
    'payctl withdraw pix --subaccount 3f2b8c1e-0d4a-4b6e-9a7c-2e5d1f0a9b3c --amount 5000 --bank-account 7 --pix-key-type random --pix-key 123e4567-e89b-42d3-a456-426614174000 --yes --json',
    'payctl withdraw pix --from-csv payouts.csv     # a batch: the same as payctl withdraw batch payouts.csv --method pix',
  ],
});

export const withdrawCard = defineCommand({
  name: 'card',
  summary: `Withdraw from the ${balanceName('card')} balance`,
  description: DESCRIPTION('card', balanceName('card')),
  options: { ...DESTINATION, ...SINGLE },
  ...SINGLE_TRAITS,
  respelling: batchOf('card'),
  examples: ['payctl withdraw card', 'payctl withdraw card --amount 250000 --bank-account 12', 'payctl withdraw card --amount 250000 --bank-account 12 --yes --json | jq -r .id'],
});

export const withdrawBoleto = defineCommand({
  name: 'boleto',
  summary: `Withdraw from the ${balanceName('boleto')} balance`,
  description: DESCRIPTION('boleto', balanceName('boleto')),
  options: { ...DESTINATION, ...SINGLE },
  ...SINGLE_TRAITS,
  respelling: batchOf('boleto'),
  examples: ['payctl withdraw boleto', 'payctl withdraw boleto --amount 99900 --bank-account 12 --dry-run', 'payctl withdraw boleto --amount 99900 --bank-account 12 --main-account --yes'],
});

export const withdrawCommands = group('withdraw', 'Withdraw money to a bank account: pix, card or boleto balance (confirms first)', [
  command(withdrawPix, () => import('./single.js')),
  command(withdrawCard, () => import('./single.js')),
  command(withdrawBoleto, () => import('./single.js')),
  command(withdrawBatch, () => import('./batch.js')),
], [
  'payctl withdraw pix      # asks bank account, amount and key, then confirms',
  'payctl withdraw card --amount 250000 --bank-account 12',
  'payctl withdraw boleto --amount 99900 --bank-account 12 --dry-run',
  'payctl withdraw batch payouts.csv --method pix',
]);
