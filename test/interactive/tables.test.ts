import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import stringWidth from 'string-width';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { runCli, tempConfigDir, type RunResult } from '../helpers/cli.js';
import { startSandboxSession, type SandboxSession } from '../helpers/sandbox.js';
import { runCliOnScreen, type ScreenRun } from '../helpers/screen.js';
import { needsTools } from '../helpers/tools.js';

/**
 * What a person meets at an 80-column terminal (tmux, 80 × 50): every table fits,
 * ids are whole or, where whole they would push other columns out, a UUID by its
 * first 8 characters (test/interactive/columns.test.ts), a footer says how many of how many; long tables go through the
 * pager. Into a pipe the same commands write the tab-separated values they always
 * did.
 */

/** Each test drives tmux; where it is missing the test is named skipped (a failure in CI). */
const screenIt = needsTools('tmux');

const WIDTH = 80;
let s: SandboxSession;
let dir: string;

beforeAll(async () => {
  s = await startSandboxSession('acme');
  dir = mkdtempSync(path.join(tmpdir(), 'payctl-tables-'));
});
afterAll(() => s?.close());

const onScreen = (args: string[], env: Record<string, string | undefined> = {}) =>
  runCliOnScreen(args, { env: { ...s.env, ...env }, width: WIDTH, height: 50 });
const json = async <T>(args: string[]): Promise<T> => {
  const result = await s.run([...args, '--json']);
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as T;
};

/**
 * The lines payctl wrote to the terminal (stdout and stderr), colour codes taken
 * out; a line redrawn after a carriage return (the progress bar, which clears the
 * line first) as it was last drawn.
 */
const linesOf = (run: ScreenRun) =>
  run.bytes
    .replace(/\u001b\[[0-9;?]*[A-Za-z]|\u001b[=>]/g, '')
    .split(/\r?\n/)
    .map((line) => line.split('\r').pop()!);

/** What the terminal received, as text: the screen, before anything scrolled off it. */
const textOf = (run: ScreenRun) => linesOf(run).join('\n');

/** Every line within 80 columns (as the terminal counts them), every id on one line: whole, or a UUID by its first 8 characters. */
function expectFitted(run: ScreenRun, ids: readonly string[]): void {
  expect(run.code, run.screen).toBe(0);
  const lines = linesOf(run);
  const over = lines.filter((line) => stringWidth(line) > WIDTH);
  expect(over, run.screen).toEqual([]);
  expect(ids.length).toBeGreaterThan(0);
  const shown = (id: string, line: string) => line.includes(id) || (/^[0-9a-f]{8}-/.test(id) && new RegExp(`(^| )${id.slice(0, 8)}( |$)`).test(line));
  for (const id of ids) expect(lines.some((line) => shown(id, line)), `${id} on a line\n${run.screen}`).toBe(true);
}

/** The tab-separated values payctl writes into a pipe: the API's raw values of these fields, no header. */
const tsv = (items: readonly Record<string, unknown>[], fields: readonly string[]) =>
  items.map((item) => `${fields.map((field) => rawCell(field.split('.').reduce<unknown>((value, key) => (value as Record<string, unknown> | undefined)?.[key], item))).join('\t')}\n`).join('');
const rawCell = (value: unknown) => (value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value));

/** Every leaf of a resource as a dot path, in the API's order (arrays are leaves): the lines of a single resource in a pipe. */
const leafPaths = (value: unknown, prefix = ''): string[] =>
  value !== null && typeof value === 'object' && !Array.isArray(value)
    ? Object.entries(value).flatMap(([key, inner]) => leafPaths(inner, prefix ? `${prefix}.${key}` : key))
    : [prefix];

function expectPipedTsv(piped: RunResult, expected: string): void {
  expect(piped.code, piped.stderr).toBe(0);
  expect(piped.stdout).toBe(expected);
  expect(piped.stderr).toBe('');
}

interface Customer {
  id: string;
  document: string;
  createdAt: string;
}

const LISTS = [
  { name: 'customers list', args: ['customers', 'list'], noun: 'customers', fields: ['id', 'firstName', 'lastName', 'email', 'document', 'statusId'] },
  { name: 'subs list', args: ['subs', 'list'], noun: 'subscriptions', fields: ['id', 'title', 'amount', 'frequency', 'status', 'splits', 'createdAt'] },
  { name: 'withdrawals list', args: ['withdrawals', 'list'], noun: 'withdrawals', fields: ['id', 'amount', 'liquidAmount', 'status', 'withdrawalPaymentType', 'pixKey', 'createdAt'] },
  { name: 'bank-accounts list', args: ['bank-accounts', 'list'], noun: 'bank accounts', fields: ['id', 'holderName', 'bankCode', 'routingNumber', 'accountNumber', 'accountType', 'status'] },
];

describe.concurrent('lists at an 80-column terminal', () => {
  for (const list of LISTS) {
    screenIt(`${list.name}: fits, ids whole or by 8 characters, a footer with how many of how many; into a pipe the same TSV as ever`, async () => {
      const envelope = JSON.parse((await s.run(['api', 'GET', `/${list.args[0] === 'subs' ? 'subscriptions' : list.args[0]!.replace('-', '_')}`, '--envelope'])).stdout) as { meta: { total: number } };
      const items = await json<Array<Record<string, unknown>>>(list.args);
      const run = await onScreen(list.args);
      expectFitted(run, items.map((item) => String(item.id)));
      const total = envelope.meta.total;
      const footer = total > 20 ? `showing 20 of ${total} ${list.noun}; next: payctl ${list.args.join(' ')} --page 2, or --all` : `showing ${total} of ${total} ${list.noun}`;
      expect(textOf(run)).toContain(footer);
      expectPipedTsv(await s.run(list.args), tsv(items, list.fields));
    });
  }

  screenIt('--fields: the columns given last are left out first, and named', async () => {
    const customers = await json<Customer[]>(['customers', 'list']);
    const run = await onScreen(['customers', 'list', '--fields', 'id,email,document,phoneNumber,createdAt']);
    expectFitted(run, customers.map((c) => c.id));
    expect(textOf(run)).toMatch(/^ID {2,}EMAIL {2,}DOCUMENT {2,}PHONE NUMBER$/m);
    expect(textOf(run)).toMatch(/^not shown at 80 columns: CREATED AT \(pick columns with --fields\)$/m);
  });

  screenIt('customers find: fits, ids whole, a footer with how many of those looked at matched; the same TSV into a pipe', async () => {
    const found = await json<Array<Record<string, unknown>>>(['customers', 'find', '--name', 'sofia']);
    const run = await onScreen(['customers', 'find', '--name', 'sofia']);
    expectFitted(run, found.map((item) => String(item.id)));
    expect(textOf(run)).toMatch(new RegExp(`^${found.length} of 250 customers match$`, 'm'));
    expectPipedTsv(await s.run(['customers', 'find', '--name', 'sofia']), tsv(found, LISTS[0]!.fields));
  });

  screenIt('profiles list: fits, names whole, sub-accounts by 8 characters, a footer; the same TSV into a pipe', async () => {
    const config = tempConfigDir();
    const env = { PAYCTL_CONFIG_DIR: config, PAYCTL_BASE_URL: undefined };
    const subaccount = '4a5985bd-26fb-48ab-920a-a6b9ec714126';
    for (const args of [
      ['profiles', 'add', 'homologacao-financeiro', '--base-url', 'https://api.homologacao.pagamentos.example.com.br', '--env', 'sandbox'],
      ['profiles', 'add', 'producao', '--base-url', 'https://api.pagamentos.example.com.br'],
      ['subaccounts', 'use', subaccount, '--profile', 'homologacao-financeiro'],
    ]) {
      const result = await runCli(args, { env });
      expect(result.code, result.stderr).toBe(0);
    }
    const run = await runCliOnScreen(['profiles', 'list'], { env, width: WIDTH, height: 50 });
    expectFitted(run, ['homologacao-financeiro', 'producao']);
    expect(textOf(run)).toMatch(/^3 profiles$/m);
    // The sub-account is shown by its first 8 characters at 80 columns, and whole when there is room.
    expect(textOf(run)).toMatch(/^homologacao-financeiro .* 4a5985bd( |$)/m);
    expect(textOf(run)).not.toContain(subaccount);
    expectFitted(await runCliOnScreen(['profiles', 'list', '--fields', 'name,env,subaccount'], { env, width: WIDTH, height: 50 }), [subaccount]);
    const profiles = JSON.parse((await runCli(['profiles', 'list', '--json'], { env })).stdout) as Array<Record<string, unknown>>;
    expectPipedTsv(await runCli(['profiles', 'list'], { env }), tsv(profiles, ['name', 'current', 'env', 'baseUrl', 'loggedIn', 'tokenStore', 'tokenExpiresAt', 'subaccount', 'maxWithdrawal', 'maxBatchTotal']));
  });
});

// After the lists: it adds withdrawals, which the withdrawals list would see mid-test.
describe('the batch report at an 80-column terminal', () => {
  screenIt('the batch report: fits, withdrawal ids whole, a footer; each row paid once', async () => {
    const [account] = await json<Array<{ id: number }>>(['bank-accounts', 'list', '--main-account']);
    const count = async () => (await json<unknown[]>(['withdrawals', 'list', '--all', '--main-account'])).length;
    const before = await count();
    const file = path.join(dir, 'payouts.csv');
    const rows = [1, 2, 3].map((n) => `${150 + n},${account!.id},email,fornecedor-${n}.pagamentos.mensais@exemplo-de-empresa.com.br`);
    writeFileSync(file, ['amount,bank_account_id,pix_key_type,pix_key', ...rows].join('\n'));
    const run = await onScreen(['withdraw', 'batch', file, '--method', 'pix', '--main-account', '--yes']);
    expect(await count()).toBe(before + 3);
    // Run again: every row is already done, and the report (as JSON) names their withdrawals.
    const again = await s.run(['withdraw', 'batch', file, '--method', 'pix', '--main-account', '--yes', '-o', 'json']);
    expect(again.code, again.stderr).toBe(0);
    const report = JSON.parse(again.stdout) as Array<{ outcome: string; withdrawalId: string }>;
    expect(report.map((row) => row.outcome)).toEqual(['already-done', 'already-done', 'already-done']);
    expect(await count()).toBe(before + 3);
    expectFitted(run, report.map((row) => row.withdrawalId));
    expect(textOf(run)).toMatch(/^3 rows$/m);
    // Into a pipe the report is the same TSV as ever.
    const piped = await s.run(['withdraw', 'batch', file, '--method', 'pix', '--main-account', '--yes']);
    expect(piped.code, piped.stderr).toBe(0);
    expect(piped.stdout).toBe(tsv(JSON.parse(again.stdout), ['line', 'outcome', 'withdrawalId', 'amount', 'bankAccountId', 'pixKey', 'error']));
    expect(await count()).toBe(before + 3);
  });
});

describe('a confirmation at an 80-column terminal', () => {
  screenIt("a withdrawal's summary fits: the bank account continues under its value; answered No, nothing is sent", async () => {
    const [account] = await json<Array<{ id: number }>>(['bank-accounts', 'list', '--main-account']);
    const count = async () => (await json<unknown[]>(['withdrawals', 'list', '--all', '--main-account'])).length;
    const before = await count();
    const args = ['withdraw', 'pix', '--amount', '15000', '--bank-account', String(account!.id), '--pix-key-type', 'email', '--pix-key', 'financeiro@acme.com.br'];
    const run = await runCliOnScreen([...args, '--main-account'], { env: s.env, width: WIDTH, height: 50, steps: [{ after: /now\? \(y\/N\)/, keys: ['n', 'Enter'] }] });
    expect(run.code, run.screen).toBe(2);
    // The summary as written (the prompt's line is redrawn in place by cursor moves, so it is left out).
    const lines = linesOf(run).filter((line) => !line.includes('now?'));
    expect(lines.filter((line) => stringWidth(line) > WIDTH), run.screen).toEqual([]);
    const to = lines.findIndex((line) => line.startsWith('  to:           bank account'));
    expect(to, run.screen).toBeGreaterThan(-1);
    // The line the bank account did not fit on continues under its value, not at the terminal's edge.
    expect(lines[to + 1], run.screen).toMatch(/^ {16}\S/);
    expect(await count()).toBe(before);
  });
});

describe.concurrent('single resources at an 80-column terminal', () => {
  const gets: Array<{ name: string; args: () => Promise<string[]>; ids: (item: Record<string, unknown>) => string[] }> = [
    { name: 'customers get', args: async () => ['customers', 'get', (await json<Customer[]>(['customers', 'list', '--limit', '1']))[0]!.id], ids: (c) => [String(c.id)] },
    {
      name: 'subs get (with its splits)',
      args: async () => ['subs', 'get', (await json<Array<{ id: string; splits: unknown[] }>>(['subs', 'list', '--limit', '50'])).find((sub) => sub.splits.length > 0)!.id],
      ids: (sub) => [String(sub.id), String(sub.customerId), String(sub.tokenizedCardId)],
    },
    { name: 'withdrawals get', args: async () => ['withdrawals', 'get', (await json<Array<{ id: string }>>(['withdrawals', 'list', '--limit', '1']))[0]!.id], ids: (w) => [String(w.id)] },
    { name: 'bank-accounts get', args: async () => ['bank-accounts', 'get', String((await json<Array<{ id: number }>>(['bank-accounts', 'list', '--limit', '1']))[0]!.id)], ids: (b) => [String(b.id)] },
    {
      name: 'cards get',
      args: async () => ['cards', 'get', (await json<Array<{ cardId: string }>>(['subs', 'list', '--limit', '1']))[0]!.cardId],
      ids: (card) => [String(card.id), String(card.customerId)],
    },
  ];
  for (const get of gets) {
    screenIt(`${get.name}: fits, ids whole; into a pipe the same field<TAB>value lines`, async () => {
      const args = await get.args();
      const item = await json<Record<string, unknown>>(args);
      const run = await onScreen(args);
      expectFitted(run, get.ids(item));
      const fields = leafPaths(item);
      expect(fields).toContain('createdAt');
      expectPipedTsv(await s.run(args), fields.map((field) => `${field}\t${rawCell(field.split('.').reduce<unknown>((value, key) => (value as Record<string, unknown>)[key], item))}\n`).join(''));
    });
  }
});

describe('Brazilian formats and local times in tables (raw values in json and tsv)', () => {
  let customer: Customer;
  beforeAll(async () => {
    [customer] = await json<[Customer]>(['customers', 'list', '--limit', '1', '--page', '7']);
    const update = await s.run(['customers', 'update', customer!.id, '--address-zipcode', '01310-100', '--phone-number', '(11) 3123-4567', '--document', '10799211000190']);
    expect(update.code, update.stderr).toBe(0);
  });

  screenIt('CEP with its leading zero, CNPJ, landline, and the time in São Paulo and in UTC', async () => {
    const raw = await json<{ address: { zipcode: number }; phoneNumber: string; document: string; createdAt: string }>(['customers', 'get', customer.id]);
    expect(raw.address.zipcode).toBe(1310100);
    expect(raw.phoneNumber).toBe('+551131234567');
    const utc = new Date(raw.createdAt);
    const saoPaulo = new Date(utc.getTime() - 3 * 3600_000);
    const minute = (time: Date) => time.toISOString().slice(0, 16).replace('T', ' ');

    const inSaoPaulo = await onScreen(['customers', 'get', customer.id], { TZ: 'America/Sao_Paulo' });
    expectFitted(inSaoPaulo, [customer.id]);
    expect(textOf(inSaoPaulo)).toMatch(/^address zipcode +01310-100$/m);
    expect(textOf(inSaoPaulo)).toMatch(/^phone number +\+55 \(11\) 3123-4567$/m);
    expect(textOf(inSaoPaulo)).toMatch(/^document +10\.799\.211\/0001-90$/m);
    expect(textOf(inSaoPaulo)).toMatch(new RegExp(`^created at +${minute(saoPaulo)}$`, 'm'));

    const inUtc = await onScreen(['customers', 'get', customer.id], { TZ: 'UTC' });
    expect(textOf(inUtc)).toMatch(new RegExp(`^created at +${minute(utc)}$`, 'm'));

    const piped = await s.run(['customers', 'get', customer.id], { env: { TZ: 'America/Sao_Paulo' } });
    expect(piped.stdout).toContain('address.zipcode\t1310100\n');
    expect(piped.stdout).toContain(`createdAt\t${raw.createdAt}\n`);
  });

  screenIt('CPF and CNPJ documents in a list, formatted by their length', async () => {
    const customers = await json<Customer[]>(['customers', 'list', '--page', '2', '--limit', '10']);
    const run = await onScreen(['customers', 'list', '--page', '2', '--limit', '10', '--fields', 'id,document']);
    expectFitted(run, customers.map((c) => c.id));
    for (const c of customers) {
      const d = c.document;
      const shown = d.length === 11 ? `${d.slice(0, 3)}.${d.slice(3, 6)}.${d.slice(6, 9)}-${d.slice(9)}` : `${d.slice(0, 2)}.${d.slice(2, 5)}.${d.slice(5, 8)}/${d.slice(8, 12)}-${d.slice(12)}`;
      expect(textOf(run)).toMatch(new RegExp(`^${c.id} +${shown.replace(/[./]/g, '\\$&')}$`, 'm'));
    }
    expect(textOf(run)).toContain('showing 10 of 250 customers (page 2 of 25); next page (or --all):\npayctl customers list --limit 10 --fields id,document --page 3\n');
  });
});

describe.concurrent('the pager', () => {
  /** A pager that records what it was given (and LESS), says so on its stdout, and takes a moment to exit. */
  function recordingPager(): { command: string; record: string } {
    const folder = mkdtempSync(path.join(tmpdir(), 'payctl-pager-'));
    const record = path.join(folder, 'paged');
    const command = path.join(folder, 'pager.sh');
    writeFileSync(command, `#!/bin/sh\ncat > '${record}'\nprintf '%s' "$LESS" > '${record}.less'\necho "pager got $(wc -l < '${record}' | tr -d ' ') lines"\nsleep 0.5\ntouch '${record}.done'\n`);
    chmodSync(command, 0o755);
    return { command, record };
  }

  screenIt('takes a table longer than the screen (PAYCTL_PAGER); payctl waits for it, then writes the footer', async () => {
    const pager = recordingPager();
    const customers = await json<Customer[]>(['customers', 'list', '--limit', '100']);
    const run = await onScreen(['customers', 'list', '--limit', '100'], { PAYCTL_PAGER: pager.command, PAGER: 'false' });
    expect(run.code, run.screen).toBe(0);
    const paged = readFileSync(pager.record, 'utf8');
    for (const c of customers) expect(paged).toMatch(new RegExp(`^${c.id.slice(0, 8)}  `, 'm'));
    expect(paged.split('\n').filter((line) => stringWidth(line.replace(/\u001b\[[0-9;]*m/g, '')) > WIDTH)).toEqual([]);
    expect(readFileSync(`${pager.record}.less`, 'utf8')).toBe('FRX');
    // The pager's own output reaches the terminal; payctl exited only after the pager did, then wrote the footer.
    expect(existsSync(`${pager.record}.done`)).toBe(true);
    expect(textOf(run)).toMatch(/^pager got 101 lines\n(.*\n)*showing 100 of 250 customers; next page \(or --all\):\npayctl customers list --limit 100 --page 2$/m);
    expect(run.bytes).not.toContain(`${customers[0]!.id.slice(0, 8)}  `);
  });

  screenIt('PAGER when PAYCTL_PAGER is not set; a single resource longer than the screen too', async () => {
    const pager = recordingPager();
    const [customer] = await json<Customer[]>(['customers', 'list', '--limit', '1']);
    const run = await runCliOnScreen(['customers', 'get', customer!.id], { env: { ...s.env, PAGER: pager.command }, width: WIDTH, height: 10 });
    expect(run.code, run.screen).toBe(0);
    expect(readFileSync(pager.record, 'utf8')).toContain(customer!.id);
  });

  const bypasses: Array<{ name: string; args: string[]; env?: Record<string, string> }> = [
    { name: '--no-pager', args: ['--no-pager'] },
    { name: '--no-input', args: ['--no-input'] },
    { name: 'PAYCTL_NO_INPUT=1', args: [], env: { PAYCTL_NO_INPUT: '1' } },
    { name: "PAYCTL_PAGER=''", args: [], env: { PAYCTL_PAGER: '' } },
    { name: 'a table that fits the screen', args: ['--limit', '5'] },
  ];
  for (const bypass of bypasses) {
    screenIt(`is not used with ${bypass.name}: the table is written directly`, async () => {
      const pager = recordingPager();
      const run = await onScreen(['customers', 'list', '--limit', '100', ...bypass.args], { PAYCTL_PAGER: pager.command, ...bypass.env });
      expect(run.code, run.screen).toBe(0);
      expect(existsSync(pager.record)).toBe(false);
      expect(linesOf(run).filter((line) => /^[0-9a-f]{8} {2}/.test(line)).length).toBe(bypass.name.startsWith('a table') ? 5 : 100);
    });
  }

  needsTools('tmux', 'less')('is less -FRX when none is set: payctl waits at its prompt, and exits 0 once q quits it', async () => {
    const customers = await json<Customer[]>(['customers', 'list', '--limit', '100']);
    const run = await runCliOnScreen(['customers', 'list', '--limit', '100'], { env: s.env, width: WIDTH, height: 30, steps: [{ after: /^:$/m, keys: ['q'] }] });
    expect(run.code, run.screen).toBe(0);
    expect(run.seen[0]).toContain(`${customers[0]!.id.slice(0, 8)}  `);
    expect(textOf(run)).toMatch(/^showing 100 of 250 customers; next page \(or --all\):$/m);
  });

  screenIt('is not used into a pipe', async () => {
    const pager = recordingPager();
    const piped = await s.run(['customers', 'list', '--limit', '100'], { env: { PAYCTL_PAGER: pager.command } });
    expect(piped.code).toBe(0);
    expect(piped.stdout.trimEnd().split('\n')).toHaveLength(100);
    expect(existsSync(pager.record)).toBe(false);
  });

  screenIt('that cannot be found is skipped with no error: the table is written directly', async () => {
    for (const missing of ['/nonexistent/pager -R', 'no-such-pager-anywhere --flag']) {
      const run = await onScreen(['customers', 'list', '--limit', '100'], { PAYCTL_PAGER: missing });
      expect(run.code, run.screen).toBe(0);
      expect(linesOf(run).filter((line) => /^[0-9a-f]{8} {2}/.test(line))).toHaveLength(100);
      expect(run.bytes).not.toMatch(/not found|error/i);
    }
  });
});
