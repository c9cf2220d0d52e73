import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, cleanEnv, runCli, type RunResult } from '../helpers/cli.js';
import { runInProcess } from '../helpers/in-process.js';
import { fakeJwt, sendJson, startFakeApi } from '../helpers/fake-api.js';
import { startSandboxSession, type SandboxSession } from '../helpers/sandbox.js';
import { csvFile, fundedMainAccount, PIX_HEADER, pixRows, sandboxWithdrawals, startProxy } from '../money/helpers.js';
import { createSubaccount, json, parsed, splitReceivers, subaccountFlags } from '../commands/helpers.js';
import { normalAnswer } from '../hardening/commands.js';

/**
 * The audit trail, read as a file: each write leaves one intent and one outcome;
 * a write cut short leaves an unknown outcome until a read settles it; a log that
 * cannot be written stops the write; rotation under two writers loses nothing.
 */

interface Record {
  type: 'intent' | 'outcome' | 'settled';
  id: string;
  at: string;
  method?: string;
  path?: string;
  body?: unknown;
  status?: number | null;
  exitCode?: number;
  resourceId?: string | null;
}

const stateDir = () => mkdtempSync(path.join(tmpdir(), 'payctl-state-'));
const auditFolder = (state: string) => path.join(state, 'payctl');

/** Every record of every audit file of a state folder, in file order. */
function recordsIn(state: string): Record[] {
  const folder = auditFolder(state);
  const files = readdirSync(folder).filter((name) => name.endsWith('.ndjson')).sort((a, b) => (a === 'audit.ndjson' ? 1 : b === 'audit.ndjson' ? -1 : a.localeCompare(b)));
  return files.flatMap((name) =>
    readFileSync(path.join(folder, name), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record),
  );
}

let s: SandboxSession;
beforeAll(async () => {
  s = await startSandboxSession('acme');
  parsed(await s.run(['sandbox', 'credit', '--pix', '1000000', '--card', '1000000', '--billet', '1000000', '--json']));
});
afterAll(() => s?.close());

const inState = (state: string, args: string[], input?: string): Promise<RunResult> => s.run(args, { env: { XDG_STATE_HOME: state }, input });

describe('every write is recorded once before it is sent and once with its outcome', () => {
  it('withdraw pix, card, boleto, batch, subs cancel, remove-split, add-split, update, customers update, bank-accounts delete, cards tokenize, subaccounts create, api POST', async () => {
    const bank = (await json<Array<{ id: number }>>(s, ['bank-accounts', 'list']))[0]!.id;
    const active = await json<Array<{ id: string; splits: Array<{ subaccountId: string }> }>>(s, ['subs', 'list', '--status', 'ACTIVE', '--limit', '100']);
    const withSplit = active.find((sub) => sub.splits.length > 0)!;
    const splitId = (await json<{ splits: Array<{ id: string }> }>(s, ['subs', 'get', withSplit.id])).splits[0]!.id;
    const [toCancel, toSplit, toUpdate] = active.filter((sub) => sub.id !== withSplit.id);
    const receiver = (await splitReceivers(s))[0]!;
    const customer = (await json<Array<{ id: string }>>(s, ['customers', 'list', '--limit', '1']))[0]!.id;
    const fresh = await createSubaccount(s, 'Loja Audit');
    const freshBank = (await json<Array<{ id: number }>>(s, ['bank-accounts', 'list', '--subaccount', fresh]))[0]!.id;
    const batch = csvFile('audit.csv', ['amount,bank_account_id,pix_key_type,pix_key', `1101,${bank},email,audit-b1@acme.com.br`, `1102,${bank},email,audit-b2@acme.com.br`]);

    const writes: Array<{ args: string[]; input?: string; method: string; path: RegExp; count?: number }> = [
      { args: ['withdraw', 'pix', '--amount', '1201', '--bank-account', String(bank), '--pix-key-type', 'email', '--pix-key', 'audit@acme.com.br', '--yes'], method: 'POST', path: /^\/withdrawals\/withdraw$/ },
      { args: ['withdraw', 'card', '--amount', '1202', '--bank-account', String(bank), '--yes'], method: 'POST', path: /^\/withdrawals\/withdraw$/ },
      { args: ['withdraw', 'boleto', '--amount', '1203', '--bank-account', String(bank), '--yes'], method: 'POST', path: /^\/withdrawals\/withdraw$/ },
      { args: ['withdraw', 'batch', batch, '--method', 'pix', '--yes'], method: 'POST', path: /^\/withdrawals\/withdraw$/, count: 2 },
      { args: ['subs', 'cancel', toCancel!.id, '--yes'], method: 'DELETE', path: /^\/subscriptions\/[0-9a-f-]+$/ },
      { args: ['subs', 'remove-split', withSplit.id, splitId, '--yes'], method: 'DELETE', path: /\/remove_split\// },
      { args: ['subs', 'add-split', '--subscription', toSplit!.id, '--receiver', receiver, '--amount', '100'], method: 'POST', path: /^\/subscriptions\/add_split$/ },
      { args: ['subs', 'update', toUpdate!.id, '--title', 'Plano auditado'], method: 'PUT', path: /^\/subscriptions\/[0-9a-f-]+$/ },
      { args: ['customers', 'update', customer, '--first-name', 'Auditada'], method: 'PUT', path: /^\/customers\/[0-9a-f-]+$/ },
      { args: ['bank-accounts', 'delete', String(freshBank), '--subaccount', fresh, '--yes'], method: 'DELETE', path: /^\/bank_accounts\/\d+$/ },
      {
        args: ['cards', 'tokenize', '--customer', customer, '--holder-name', 'ANA SOUZA', '--exp-month', '8', '--exp-year', '2031', '--card-stdin'],
        input: '4111111111111111\n123\n',
        method: 'POST',
        path: /^\/cards\/tokenize$/,
      },
      { args: ['subaccounts', 'create', 'pf', ...subaccountFlags('Loja Auditada', '111444777')], method: 'POST', path: /^\/subaccounts\/pf$/ },
      { args: ['api', 'POST', '/sandbox/balance', '--data', '{"pix":100}'], method: 'POST', path: /^\/sandbox\/balance$/ },
    ];
    for (const write of writes) {
      const state = stateDir();
      const result = await inState(state, [...write.args, '--json'], write.input);
      expect(result.code, `${write.args.join(' ')}: ${result.stderr}`).toBe(0);
      const records = recordsIn(state);
      const intents = records.filter((r) => r.type === 'intent');
      const outcomes = records.filter((r) => r.type === 'outcome');
      const label = write.args.slice(0, 2).join(' ');
      expect(intents, label).toHaveLength(write.count ?? 1);
      expect(outcomes, label).toHaveLength(write.count ?? 1);
      for (const intent of intents) {
        expect(intent, label).toMatchObject({ method: write.method, profile: 'default', env: 'local', baseUrl: s.sandbox.url });
        expect(intent.path, label).toMatch(write.path);
        // Before its outcome, and answered: 2xx, exit 0.
        expect(records.indexOf(intent), label).toBeLessThan(records.findIndex((r) => r.type === 'outcome' && r.id === intent.id));
        expect(outcomes.find((o) => o.id === intent.id), label).toMatchObject({ exitCode: 0, status: expect.any(Number) });
      }
      expect(JSON.stringify(records), label).not.toContain('4111111111111111');
      const file = path.join(auditFolder(state), 'audit.ndjson');
      expect((statSync(file).mode & 0o777).toString(8), label).toBe('600');
      expect((statSync(auditFolder(state)).mode & 0o777).toString(8), label).toBe('700');
    }
  });

  it('a dry run sends nothing and records nothing', async () => {
    const state = stateDir();
    const result = await inState(state, ['api', 'POST', '/sandbox/balance', '--data', '{"pix":100}', '--dry-run']);
    expect(result.code, result.stderr).toBe(0);
    expect(() => readdirSync(auditFolder(state))).toThrow();
  });

  it('a secret in the path of a write is masked in the trail, as everywhere payctl writes', async () => {
    const state = stateDir();
    const card = '4111111111111111';
    const result = await inState(state, ['api', 'DELETE', `/cards/${card}`]);
    expect(result.code).not.toBe(0);
    const [intent] = recordsIn(state);
    expect(intent).toMatchObject({ type: 'intent', method: 'DELETE' });
    expect(intent!.path).toMatch(/^\/cards\/\*+$/);
    expect(readdirSync(auditFolder(state)).map((name) => readFileSync(path.join(auditFolder(state), name), 'utf8')).join('')).not.toContain(card);
  });

  it('a refused write has its outcome: the HTTP status and exit 1', async () => {
    const bank = (await json<Array<{ id: number }>>(s, ['bank-accounts', 'list']))[0]!.id;
    const state = stateDir();
    const result = await inState(state, ['withdraw', 'card', '--amount', '900000000', '--bank-account', String(bank), '--yes']);
    expect(result.code, result.stderr).toBe(1);
    const [intent, outcome] = recordsIn(state);
    expect(intent).toMatchObject({ type: 'intent', method: 'POST' });
    expect(outcome).toMatchObject({ type: 'outcome', id: intent!.id, status: 422, exitCode: 1 });
    expect(JSON.parse((await inState(state, ['audit', '--json'])).stdout)).toMatchObject([{ outcome: 'refused', status: 422, exitCode: 1 }]);
  });
});

describe('an audit log that cannot be written stops the write', () => {
  const cases: Array<[string, (state: string) => void]> = [
    ['the payctl state folder is a file', (state) => writeFileSync(path.join(state, 'payctl'), '')],
    ['the audit file is a folder', (state) => mkdirSync(path.join(state, 'payctl', 'audit.ndjson'), { recursive: true })],
    [
      'the audit file can be written by others',
      (state) => {
        mkdirSync(path.join(state, 'payctl'), { mode: 0o700 });
        writeFileSync(path.join(state, 'payctl', 'audit.ndjson'), '');
        chmodSync(path.join(state, 'payctl', 'audit.ndjson'), 0o666);
      },
    ],
  ];
  it.each(cases)('%s: exit 2 naming the file, nothing sent', async (_, spoil) => {
    const bank = (await json<Array<{ id: number }>>(s, ['bank-accounts', 'list']))[0]!.id;
    const state = stateDir();
    spoil(state);
    const before = (await sandboxWithdrawals(s)).length;
    const result = await inState(state, ['withdraw', 'card', '--amount', '1301', '--bank-account', String(bank), '--yes', '--allow-duplicate']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error: .*audit log .*audit\.ndjson.*nothing was sent/m);
    expect((await sandboxWithdrawals(s)).length).toBe(before);
  });
});

describe('rotation', () => {
  it('two processes appending across many rotations: every entry kept, each intent with its outcome', async () => {
    // One batch in the main account, one in a sub-account: a batch holds its account's withdrawal lock while
    // it sends, so two in one account would append one after the other.
    const [sub] = await splitReceivers(s);
    const credit = await s.run(['api', 'POST', '/sandbox/balance', '--subaccount', sub!, '--data', JSON.stringify({ pix: 900_000_000 })]);
    expect(credit.code, credit.stderr).toBe(0);
    const bank = (await json<Array<{ id: number }>>(s, ['bank-accounts', 'list']))[0]!.id;
    const subBank = (await json<Array<{ id: number }>>(s, ['bank-accounts', 'list', '--subaccount', sub!]))[0]!.id;
    const state = stateDir();
    const rows = (prefix: string, to: number) => ['amount,bank_account_id,pix_key_type,pix_key', ...Array.from({ length: 15 }, (_, i) => `${1400 + i},${to},email,${prefix}${i}@acme.com.br`)];
    const before = [(await sandboxWithdrawals(s)).length, (await sandboxWithdrawals(s, sub)).length];
    const env = { XDG_STATE_HOME: state, PAYCTL_AUDIT_MAX_BYTES: '2048' };
    const [a, b] = await Promise.all([
      s.run(['withdraw', 'batch', csvFile('a.csv', rows('rot-a', bank)), '--method', 'pix', '--concurrency', '4', '--yes'], { env }),
      s.run(['withdraw', 'batch', csvFile('b.csv', rows('rot-b', subBank)), '--method', 'pix', '--concurrency', '4', '--yes', '--subaccount', sub!], { env }),
    ]);
    expect([a.code, b.code], a.stderr + b.stderr).toEqual([0, 0]);
    expect([(await sandboxWithdrawals(s)).length, (await sandboxWithdrawals(s, sub)).length]).toEqual([before[0]! + 15, before[1]! + 15]);
    const files = readdirSync(auditFolder(state)).filter((name) => name.endsWith('.ndjson'));
    expect(files.length).toBeGreaterThan(5);
    const records = recordsIn(state);
    const intents = records.filter((r) => r.type === 'intent');
    const outcomes = new Set(records.filter((r) => r.type === 'outcome').map((r) => r.id));
    expect(intents).toHaveLength(30);
    expect(new Set(intents.map((r) => r.id)).size).toBe(30);
    expect(intents.filter((intent) => !outcomes.has(intent.id))).toEqual([]);
    expect(outcomes.size).toBe(30);
    const listed = JSON.parse((await inState(state, ['audit', '--all', '--json'])).stdout) as Array<{ outcome: string }>;
    expect(listed).toHaveLength(30);
    expect(listed.filter((entry) => entry.outcome !== 'done')).toEqual([]);
  });
});

describe('payctl audit', () => {
  /** An audit folder written as payctl writes it, with intents `hoursAgo` old. */
  function handWritten(hoursAgo: number[]): string {
    const state = stateDir();
    mkdirSync(auditFolder(state), { mode: 0o700 });
    const lines = hoursAgo.flatMap((hours, i) => {
      const at = new Date(Date.now() - hours * 3600_000).toISOString();
      const id = `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
      return [
        { type: 'intent', id, at, user: 'ana', host: 'h', pid: 1, profile: 'default', env: 'local', baseUrl: 'http://127.0.0.1:4010', account: null, method: 'POST', path: '/sandbox/balance', body: { pix: i } },
        { type: 'outcome', id, at, status: 200, resourceId: null, exitCode: 0 },
      ];
    });
    writeFileSync(path.join(auditFolder(state), 'audit.ndjson'), lines.map((line) => `${JSON.stringify(line)}\n`).join(''), { mode: 0o600 });
    return state;
  }
  const audit = async (state: string, args: string[]) => {
    const result = await runInProcess(['audit', ...args, '--json'], { env: { XDG_STATE_HOME: state } });
    expect(result.code, result.stderr).toBe(0);
    return JSON.parse(result.stdout) as Array<{ body: { pix: number }; outcome: string }>;
  };

  it('--since a duration or a date keeps the entries made since then', async () => {
    const state = handWritten([30, 5, 3, 1, 0.1]);
    expect((await audit(state, ['--since', '2h'])).map((e) => e.body.pix)).toEqual([3, 4]);
    expect((await audit(state, ['--since', '4h'])).map((e) => e.body.pix)).toEqual([2, 3, 4]);
    const yesterday = new Date(Date.now() - 40 * 3600_000);
    const date = `${yesterday.getFullYear()}-${String(yesterday.getMonth() + 1).padStart(2, '0')}-${String(yesterday.getDate()).padStart(2, '0')}`;
    expect(await audit(state, ['--since', date])).toHaveLength(5);
    expect(await audit(state, ['--since', '2999-01-01'])).toEqual([]);
    const bad = await runInProcess(['audit', '--since', 'yesterday'], { env: { XDG_STATE_HOME: state } });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--since "yesterday" is not a duration or a date');
  });

  it('--since takes a time as the table prints it, in the local zone (TZ=Asia/Tokyo)', async () => {
    const state = handWritten([5, 3, 1]);
    // The moment two hours ago, written as the table writes it in Tokyo (UTC+9, no daylight saving).
    const tokyo = new Date(Date.now() - 2 * 3600_000 + 9 * 3600_000).toISOString();
    const asPrinted = `${tokyo.slice(0, 10)} ${tokyo.slice(11, 16)}`;
    const result = await runCli(['audit', '--since', asPrinted, '--json'], { env: { XDG_STATE_HOME: state, TZ: 'Asia/Tokyo' } });
    expect(result.code, result.stderr).toBe(0);
    expect((JSON.parse(result.stdout) as Array<{ body: { pix: number } }>).map((e) => e.body.pix)).toEqual([2]);
    const table = await runCli(['audit', '-o', 'table'], { env: { XDG_STATE_HOME: state, TZ: 'Asia/Tokyo' } });
    expect(table.stdout).toContain(`${tokyo.slice(0, 10)} `);
    const impossible = await runCli(['audit', '--since', '2026-11-26 25:10'], { env: { XDG_STATE_HOME: state } });
    expect(impossible.code).toBe(2);
    expect(impossible.stderr).toContain('--since "2026-11-26 25:10" is not a duration or a date');
  });

  it('shows the last 50 entries by default, every one with --all; csv and a table work', async () => {
    const state = handWritten(Array.from({ length: 60 }, (_, i) => 60 - i));
    const last = await audit(state, []);
    expect(last).toHaveLength(50);
    expect(last[0]!.body.pix).toBe(10);
    expect(await audit(state, ['--all'])).toHaveLength(60);
    const csv = await runInProcess(['audit', '-o', 'csv', '--fields', 'method,path,outcome'], { env: { XDG_STATE_HOME: state } });
    expect(csv.stdout.split('\n')[0]).toBe('method,path,outcome');
    expect(csv.stdout.split('\n')[1]).toBe('POST,/sandbox/balance,done');
    expect(csv.stderr).toContain('add --all');
  });
});

describe('a write cut short is of unknown outcome until a read settles it', () => {
  it('kill -9 while the server holds the POST: the intent stays, audit says unknown; withdrawals get settles it', async () => {
    const created = { id: '7c6d5e4f-3a2b-4c1d-9e8f-7a6b5c4d3e2f', amount: 2501, liquidAmount: 2450, status: 'COMPLETED', withdrawalPaymentType: 'CARD', bankAccountId: 7, createdAt: new Date().toISOString(), updatedAt: new Date().toISOString() };
    let posted: () => void = () => undefined;
    const arrived = new Promise<void>((resolve) => (posted = resolve));
    const api = await startFakeApi((request, res) => {
      if (request.method === 'POST') return posted(); // held: never answered
      if (request.url.startsWith(`/withdrawals/${created.id}`)) return sendJson(res, 200, { data: created, message: 'ok' });
      const answer = normalAnswer(request);
      sendJson(res, answer.status, answer.body);
    });
    try {
      const state = stateDir();
      const env = { PAYCTL_CONFIG_DIR: mkdtempSync(path.join(tmpdir(), 'payctl-kill-')), PAYCTL_BASE_URL: api.url, PAYCTL_TOKEN: fakeJwt(Math.floor(Date.now() / 1000) + 3600), XDG_STATE_HOME: state };
      const child = spawn(process.execPath, [BIN, 'withdraw', 'card', '--amount', '2501', '--bank-account', '7', '--yes'], { env: cleanEnv(env), stdio: 'ignore' });
      const ended = new Promise((resolve) => child.on('exit', resolve));
      await arrived;
      child.kill('SIGKILL');
      await ended;
      const records = recordsIn(state);
      expect(records.map((r) => r.type)).toEqual(['intent']);
      expect(records[0]).toMatchObject({ method: 'POST', path: '/withdrawals/withdraw', body: { withdrawalMethod: 'card', amount: 2501, bankAccountId: 7 } });

      const unknown = JSON.parse((await runInProcess(['audit', '--json'], { env })).stdout);
      expect(unknown).toMatchObject([{ method: 'POST', path: '/withdrawals/withdraw', outcome: 'unknown', status: null, exitCode: null }]);

      const get = await runInProcess(['withdrawals', 'get', created.id, '--json'], { env });
      expect(get.code, get.stderr).toBe(0);
      const settled = JSON.parse((await runInProcess(['audit', '--json'], { env })).stdout);
      expect(settled).toMatchObject([{ outcome: 'settled: paid', resourceId: created.id, settledBy: 'withdrawals get', settledStatus: 'COMPLETED' }]);
      // A later read of the same withdrawal settles nothing more.
      await runInProcess(['withdrawals', 'get', created.id, '--json'], { env });
      expect(recordsIn(state).map((r) => r.type)).toEqual(['intent', 'settled']);
    } finally {
      await api.close();
    }
  });
});

describe('withdraw batch --reconcile settles a row whose answer was a 500', () => {
  it('the audit shows it unknown, then settled: paid by the reconcile', async () => {
    const bank = await fundedMainAccount(s);
    const proxy = await startProxy(s.sandbox.url);
    try {
      const state = stateDir();
      const file = csvFile('recon.csv', [PIX_HEADER, ...pixRows('auditrecon', 3, bank)]);
      const first = proxy.posts.length;
      proxy.setRule((_, index) => (index - first === 1 ? 'answer-500' : 'forward'));
      const run = (extra: string[]) =>
        s.run(['withdraw', 'batch', file, '--method', 'pix', '--yes', '--concurrency', '1', ...extra], { env: { PAYCTL_BASE_URL: proxy.url, XDG_STATE_HOME: state } });
      expect((await run([])).code).toBe(5);
      proxy.setRule(() => 'forward');
      const audit = async () => JSON.parse((await inState(state, ['audit', '--json'])).stdout) as Array<{ outcome: string; status: number | null; settledBy: string | null; resourceId: string | null }>;
      expect((await audit()).map((entry) => entry.outcome)).toEqual(['done', 'unknown', 'done']);
      expect((await audit())[1]).toMatchObject({ status: 500 });
      const settled = await run(['--reconcile']);
      expect(settled.code, settled.stderr).toBe(0);
      const after = await audit();
      expect(after.map((entry) => entry.outcome)).toEqual(['done', 'settled: paid', 'done']);
      expect(after[1]).toMatchObject({ settledBy: 'withdraw batch --reconcile', resourceId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    } finally {
      await proxy.close();
    }
  });
});
