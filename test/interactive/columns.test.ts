import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import stringWidth from 'string-width';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxSession, sandboxToken, withdrawalCount, type SandboxSession } from '../helpers/sandbox.js';
import { freshFetch } from '../helpers/fresh-fetch.js';
import { runCliOnScreen, type ScreenRun } from '../helpers/screen.js';
import { needsTools } from '../helpers/tools.js';

/**
 * What finance and support read at a terminal: at 80 columns each list shows what its
 * reader needs (customers: name, e-mail, document; withdrawals: amount, destination,
 * status, time; audit: time, what was sent where, amount, outcome), a UUID by its first
 * 8 characters where whole it would push those out; and those 8 characters, copied from
 * the screen, stand for the id in the next command. Into a pipe ids stay whole.
 */

const screenIt = needsTools('tmux');

let s: SandboxSession;
beforeAll(async () => {
  s = await startSandboxSession('acme');
});
afterAll(() => s?.close());

const onScreen = (args: string[], width: number, env: Record<string, string> = {}) =>
  runCliOnScreen(args, { env: { ...s.env, TZ: 'America/Sao_Paulo', ...env }, width, height: 50 });
const json = async <T>(args: string[]): Promise<T> => {
  const result = await s.run([...args, '--json']);
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as T;
};

/** The screen's lines, as tmux's capture-pane read them, each within the terminal's width. */
function screenLines(run: ScreenRun, width: number): string[] {
  expect(run.code, run.screen).toBe(0);
  const lines = run.screen.split('\n');
  expect(lines.filter((line) => stringWidth(line) > width), run.screen).toEqual([]);
  return lines;
}

/** The line of the table whose row begins with this id's first 8 characters. */
const rowOf = (lines: readonly string[], id: string) => lines.find((line) => line.startsWith(`${id.slice(0, 8)}  `));
/** The first 8 characters of an id, as the first word of the table's first row. */
const copiedId = (lines: readonly string[]) => /^([0-9a-f]{8}) {2}/.exec(lines[1]!)?.[1];
const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

interface Customer { id: string; firstName: string; lastName: string; email: string; document: string; statusId: string }
interface Withdrawal { id: string; amount: number; status: string; pixKey?: string; bankAccountId: number; createdAt: string }
interface Subscription { id: string; status: string; splits: Array<{ subaccountId: string }> }

const cpf = (d: string) => `${d.slice(0, 3)}.${d.slice(3, 6)}.${d.slice(6, 9)}-${d.slice(9)}`;
/** A PIX key as a table shows it: CPF, CNPJ and phone formatted, anything else as it is. */
const pixKey = (k: string) =>
  /^\d{11}$/.test(k) ? cpf(k)
  : /^\d{14}$/.test(k) ? `${k.slice(0, 2)}.${k.slice(2, 5)}.${k.slice(5, 8)}/${k.slice(8, 12)}-${k.slice(12)}`
  : /^\+55\d{11}$/.test(k) ? `+55 (${k.slice(3, 5)}) ${k.slice(5, 10)}-${k.slice(10)}`
  : k;
const brl = (cents: number) => `R$ ${Math.trunc(cents / 100).toLocaleString('de-DE')},${String(cents % 100).padStart(2, '0')}`;
const saoPaulo = (iso: string) => new Date(Date.parse(iso) - 3 * 3600_000).toISOString().slice(0, 16).replace('T', ' ');

async function subscriptionStatus(id: string): Promise<string> {
  const response = await freshFetch(`${s.sandbox.url}/subscriptions/${id}`, { headers: { authorization: `Bearer ${await sandboxToken(s)}` } });
  return ((await response.json()) as { data: { status: string } }).data.status;
}

describe.concurrent('what each list shows at 80 columns, and at 60 and 200', () => {
  screenIt('customers list: name, e-mail and document at 80 (ids by 8 characters); ids whole and the status at 200; name, document and the e-mail cut at 60', async () => {
    const customers = await json<Customer[]>(['customers', 'list', '--limit', '8']);
    const at80 = screenLines(await onScreen(['customers', 'list', '--limit', '8'], 80), 80);
    expect(at80[0]).toMatch(/^ID {8}NAME +EMAIL +DOCUMENT$/);
    for (const c of customers) {
      expect(rowOf(at80, c.id), at80.join('\n')).toMatch(new RegExp(`^${c.id.slice(0, 8)}  ${c.firstName} ${c.lastName} +${escaped(c.email)} +${escaped(cpf(c.document))}$`));
    }
    expect(at80.join('\n')).not.toContain(customers[0]!.id);

    const at200 = screenLines(await onScreen(['customers', 'list', '--limit', '8'], 200), 200);
    expect(at200[0]).toMatch(/^ID {36}NAME +EMAIL +DOCUMENT +STATUS$/);
    for (const c of customers) expect(at200.some((line) => line.startsWith(`${c.id}  ${c.firstName} ${c.lastName}`) && line.endsWith(c.statusId))).toBe(true);

    const at60 = screenLines(await onScreen(['customers', 'list', '--limit', '8'], 60), 60);
    // At 60 the e-mail is what gives way: cut, the name and document whole.
    expect(at60[0]).toMatch(/^ID {8}NAME +EMAIL +DOCUMENT$/);
    for (const c of customers) expect(rowOf(at60, c.id)).toMatch(new RegExp(`^${c.id.slice(0, 8)}  ${c.firstName} ${c.lastName} +\\S+ +${escaped(cpf(c.document))}$`));
  });

  screenIt('withdrawals list: amount, destination (the PIX key, else the bank account), status and local time at 80', async () => {
    const withdrawals = await json<Withdrawal[]>(['withdrawals', 'list', '--limit', '10', '--main-account']);
    expect(withdrawals.some((w) => !w.pixKey)).toBe(true);
    const at80 = screenLines(await onScreen(['withdrawals', 'list', '--limit', '10', '--main-account'], 80), 80);
    const header = at80.findIndex((line) => line.startsWith('ID '));
    expect(at80[header]).toMatch(/^ID +AMOUNT {2}DESTINATION +STATUS +CREATED AT$/);
    for (const w of withdrawals) {
      const destination = w.pixKey ? pixKey(w.pixKey) : `bank account ${w.bankAccountId}`;
      const row = rowOf(at80, w.id);
      expect(row, at80.join('\n')).toMatch(new RegExp(`^${w.id.slice(0, 8)} +${escaped(brl(w.amount))}  ${escaped(destination)} +${w.status} +${saoPaulo(w.createdAt)}$`));
    }
  });
});

describe('payctl audit at 80 columns', () => {
  screenIt('time (local), what was sent to which resource, the amount and the outcome', async () => {
    // An audit trail of this test's own: the worker's holds other files' writes, whose longer paths would set the widths.
    const env = { XDG_STATE_HOME: mkdtempSync(path.join(tmpdir(), 'payctl-state-')) };
    const [account] = await json<Array<{ id: number }>>(['bank-accounts', 'list', '--main-account']);
    const [sub] = await json<Subscription[]>(['subs', 'list', '--status', 'ACTIVE', '--limit', '1']);
    const paid = await s.run(['withdraw', 'pix', '--amount', '1234', '--bank-account', String(account!.id), '--pix-key-type', 'email', '--pix-key', 'a@acme.com.br', '--main-account', '--yes', '--json'], { env });
    expect(paid.code, paid.stderr).toBe(0);
    const withdrawal = JSON.parse(paid.stdout) as { id: string };
    expect((await s.run(['subs', 'cancel', sub!.id, '--yes'], { env })).code).toBe(0);
    const audit = await s.run(['audit', '--json'], { env });
    expect(audit.code, audit.stderr).toBe(0);
    const entries = JSON.parse(audit.stdout) as Array<{ at: string; path: string }>;
    const at = (pathOf: string) => saoPaulo(entries.find((entry) => entry.path === pathOf)!.at);

    const lines = screenLines(await onScreen(['audit'], 80, env), 80);
    expect(lines[0]).toMatch(/^TIME +SENT +AMOUNT {2}OUTCOME/);
    expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^${at('/withdrawals/withdraw')}  POST /withdrawals/withdraw +R\\$ 12,34  done {2,}${withdrawal.id.slice(0, 8)}$`)));
    expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^${at(`/subscriptions/${sub!.id}`)}  DELETE /subscriptions/${sub!.id.slice(0, 8)} +- {2}done`)));
  });
});

describe('the first 8 characters of an id, copied from a table at 80 columns', () => {
  screenIt('customers get, withdrawals get and subs cancel take them; into a pipe the answer has the whole id', async () => {
    const customers = await json<Customer[]>(['customers', 'list', '--limit', '5', '--page', '3']);
    const customer = copiedId(screenLines(await onScreen(['customers', 'list', '--limit', '5', '--page', '3'], 80), 80));
    expect(customer).toBe(customers[0]!.id.slice(0, 8));
    const got = await s.run(['customers', 'get', customer!, '--json']);
    expect(got.code, got.stderr).toBe(0);
    expect((JSON.parse(got.stdout) as Customer).id).toBe(customers[0]!.id);

    const withdrawals = await json<Withdrawal[]>(['withdrawals', 'list', '--limit', '5', '--main-account']);
    const lines = screenLines(await onScreen(['withdrawals', 'list', '--limit', '5', '--main-account'], 80), 80);
    const withdrawal = copiedId(lines.slice(lines.findIndex((line) => line.startsWith('ID '))));
    expect(withdrawal).toBe(withdrawals[0]!.id.slice(0, 8));
    const read = await s.run(['withdrawals', 'get', withdrawal!, '--main-account']);
    expect(read.code, read.stderr).toBe(0);
    expect(read.stdout).toContain(`id\t${withdrawals[0]!.id}\n`);

    const subs = await json<Subscription[]>(['subs', 'list', '--status', 'ACTIVE', '--limit', '5']);
    const sub = copiedId(screenLines(await onScreen(['subs', 'list', '--status', 'ACTIVE', '--limit', '5'], 80), 80));
    expect(sub).toBe(subs[0]!.id.slice(0, 8));
    const cancelled = await s.run(['subs', 'cancel', sub!, '--yes']);
    expect(cancelled.code, cancelled.stderr).toBe(0);
    expect(await subscriptionStatus(subs[0]!.id)).not.toBe('ACTIVE');
  });

  screenIt('one that begins two ids payctl has shown is refused (exit 2, both named); one it has not shown too; nothing is sent', async () => {
    const subs = await json<Subscription[]>(['subs', 'list', '--status', 'ACTIVE', '--limit', '5', '--page', '2']);
    const target = subs[0]!.id;
    expect(copiedId(screenLines(await onScreen(['subs', 'list', '--status', 'ACTIVE', '--limit', '5', '--page', '2'], 80), 80))).toBe(target.slice(0, 8));
    // Another id with the same first 8 characters, shown in this profile (say, a withdrawal seen last week).
    const twin = `${target.slice(0, 8)}-0000-4000-8000-000000000000`;
    const file = path.join(s.configDir, 'shown-ids.json');
    const shown = JSON.parse(readFileSync(file, 'utf8')) as Record<string, Record<string, string>>;
    writeFileSync(file, JSON.stringify({ ...shown, default: { ...shown.default, [twin]: 'withdrawal' } }));
    const withdrawals = await withdrawalCount(s);

    const refused = await s.run(['subs', 'cancel', target.slice(0, 8), '--yes']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`ID "${target.slice(0, 8)}" is ambiguous`);
    expect(refused.stderr).toContain(`${target} (subscription)`);
    expect(refused.stderr).toContain(`${twin} (withdrawal)`);
    expect(refused.stderr).toContain('give the full id');
    const unknown = await s.run(['subs', 'cancel', 'abcdef12', '--yes']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/ID "abcdef12" is unknown: no id payctl has shown in profile "default" begins with it; give the full id/);
    expect(await subscriptionStatus(target)).toBe('ACTIVE');
    expect(await withdrawalCount(s)).toBe(withdrawals);
    // Typed whole, the same id goes through.
    expect((await s.run(['subs', 'cancel', target, '--yes'])).code).toBe(0);
    expect(await subscriptionStatus(target)).not.toBe('ACTIVE');
  });
});

describe('split receivers by name', () => {
  screenIt('subs get at 80 columns: the receiver by name, the split id whole', async () => {
    const subs = await json<Subscription[]>(['subs', 'list', '--limit', '50']);
    const sub = subs.find((one) => one.splits.length > 0)!;
    const names = await json<Array<{ id: string; name: string }>>(['api', 'GET', '/sandbox/subaccounts']);
    const receiver = names.find((one) => one.id === sub.splits[0]!.subaccountId)!;
    const lines = screenLines(await onScreen(['subs', 'get', sub.id], 80), 80);
    const header = lines.findIndex((line) => line.startsWith('ID '));
    expect(lines[header]).toMatch(/^ID +RECEIVER +PERCENT +AMOUNT +NET$/);
    expect(lines[header + 1]).toMatch(new RegExp(`^[0-9a-f-]{36}  ${escaped(receiver.name)} `));
  });

  it('the cancel confirmation names each receiver, its id beside; answered by --dry-run, nothing is sent', async () => {
    const subs = await json<Subscription[]>(['subs', 'list', '--status', 'ACTIVE', '--all']);
    const sub = subs.reverse().find((one) => one.splits.length > 0)!;
    const names = await json<Array<{ id: string; name: string }>>(['api', 'GET', '/sandbox/subaccounts']);
    const receiver = names.find((one) => one.id === sub.splits[0]!.subaccountId)!;
    const run = await s.run(['subs', 'cancel', sub.id, '--dry-run']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(new RegExp(`^ {2}splits: +.* to ${escaped(receiver.name)} \\(${receiver.id}\\)$`, 'm'));
    expect(await subscriptionStatus(sub.id)).toBe('ACTIVE');
  });
});

describe('into a pipe', () => {
  it('a table keeps ids whole at 80 columns (and json, ndjson, csv, tsv): the columns are those of a person\'s table all the same', async () => {
    const customers = await json<Customer[]>(['customers', 'list', '--limit', '5']);
    const table = await s.run(['customers', 'list', '--limit', '5', '-o', 'table'], { env: { COLUMNS: '80' } });
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout.split('\n')[0]).toMatch(/^ID {36}NAME +EMAIL/);
    for (const c of customers) expect(table.stdout).toMatch(new RegExp(`^${c.id}  ${c.firstName} `, 'm'));
    for (const format of ['tsv', 'csv', 'ndjson']) {
      const out = await s.run(['customers', 'list', '--limit', '5', '-o', format], { env: { COLUMNS: '80' } });
      for (const c of customers) expect(out.stdout).toContain(c.id);
    }
  });

  it('the first 8 characters of an id a table showed stand for it; nothing shown begins with them: exit 2', async () => {
    const customers = await json<Customer[]>(['customers', 'list', '--limit', '3', '--page', '9']);
    const unseen = customers[2]!.id.slice(0, 8);
    expect((await s.run(['customers', 'get', customers[1]!.id, '-o', 'table'])).code).toBe(0);
    const got = await s.run(['customers', 'get', customers[1]!.id.slice(0, 8)]);
    expect(got.code, got.stderr).toBe(0);
    expect(got.stdout).toContain(`id\t${customers[1]!.id}\n`);
    const refused = await s.run(['customers', 'get', unseen]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`ID "${unseen}" is unknown`);
    const short = await s.run(['customers', 'get', customers[1]!.id.slice(0, 5)]);
    expect(short.code).toBe(2);
    expect(short.stderr).toContain('must be a UUID such as 3f2b8c1e-0d4a-4b6e-9a7c-2e5d1f0a9b3c, or its first 8 characters or more as a table showed them');
  });
});
