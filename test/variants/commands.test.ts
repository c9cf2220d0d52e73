import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunResult } from '../helpers/cli.js';
import { runInProcess } from '../helpers/in-process.js';
import { fakeJwt } from '../helpers/fake-api.js';
import {
  ABSENT,
  IDS,
  NEEDS,
  bodyVariant,
  operationById,
  otherType,
  replaceAt,
  replaceUnneeded,
  routeOf,
  startVariantApi,
  stepsOf,
  textVariant,
  UNKNOWN_VALUES,
  withUnknowns,
  type Envelope,
  type Variant,
} from '../helpers/variant-api.js';
import { tally, trackFailures } from '../hardening/tally.js';
import { answerViolation, compiledOperations } from '../../src/sandbox/openapi.js';

/**
 * Every command payctl has that reads an answer, each with the flags it needs to
 * run without a prompt, against every variant of the answers: each run works or
 * fails with a clear message naming the operation and the field, with the exit
 * code of an answer that is not the API's (4 for GET, 5 otherwise); none ends in
 * "unexpected failure", and no POST, PUT or DELETE is ever sent twice.
 */

interface CommandRow {
  name: string;
  argv: (dir: string) => string[];
  input?: string;
  /** A value of UNKNOWN_VALUES the output shows as it came. */
  showsUnknown?: string;
  /** Fields the command itself checks (beyond src/api/needs.json), by operation. */
  alsoNeeds?: Record<string, string[]>;
  /** `api` prints whatever `data` holds. */
  raw?: boolean;
  /** The duplicate check reads the withdrawals list: an item it cannot read counts as possibly the same (a single withdrawal or a batch row). */
  guardsDuplicates?: boolean;
  /** Reads the subscription first: a split its (emptied) list does not hold is refused, nothing sent. */
  checksSplitIsItsOwn?: boolean;
}

const CSV = 'amount,bank_account_id,pix_key_type,pix_key\n1500,7,EMAIL,ana@example.com\n2500,7,EMAIL,bia@example.com\n';
const SUBACCOUNT_FILE = {
  name: 'Ana Silva',
  juridicDataPartner: { name: 'Ana', lastName: 'Silva', cpf: '52998224725', email: 'ana@example.com', birthdate: '1990-04-12', contactPhone: '11912345678', monthRevenue: 5000, jobOccupation: 'Designer', fullnameMom: 'Maria Silva' },
  addresses: [{ addressType: 'RESPONSIBLE', zipcode: 1310100, street: 'Avenida Paulista', streetNumber: 1000, neighborhood: 'Bela Vista', city: 'São Paulo', state: 'SP', complement: 'ap 1', reference: 'perto do metrô' }],
  accountBank: { holderName: 'Ana Silva', bankCode: '341', accountType: 'CHECKING', accountNumber: '123456', routingNumber: '0001', document: '52998224725' },
};

const SUBACCOUNT_PJ_FILE = {
  ...SUBACCOUNT_FILE,
  name: 'Silva Design Ltda',
  juridicLegalData: { cnpj: '11222333000181', contactPhone: '1133334444', fantasyName: 'Silva Design', socialReason: 'Silva Design Ltda', avgAnualBilling: 120000.5, searchingServices: 'design', socialMedia: '@silvadesign' },
  addresses: [{ ...SUBACCOUNT_FILE.addresses[0]!, addressType: 'COMMERCIAL' }],
  accountBank: { ...SUBACCOUNT_FILE.accountBank, document: '11222333000181' },
};

const file = (dir: string, name: string, text: string) => {
  writeFileSync(path.join(dir, name), text);
  return path.join(dir, name);
};

const COMMANDS: CommandRow[] = [
  { name: 'balance', argv: () => ['balance', '-o', 'table'] },
  { name: 'customers list', argv: () => ['customers', 'list', '-o', 'table'], showsUnknown: 'BLOCKED' },
  { name: 'customers list --all csv', argv: () => ['customers', 'list', '--all', '-o', 'csv'] },
  { name: 'customers get', argv: () => ['customers', 'get', IDS.customer, '-o', 'table'], showsUnknown: 'BLOCKED' },
  { name: 'customers find', argv: () => ['customers', 'find', '--email', 'ana@example.com', '--name', 'ana', '--phone', '11912345678', '--document', '529.982.247-25'] },
  { name: 'customers update', argv: () => ['customers', 'update', IDS.customer, '--first-name', 'Ana'] },
  { name: 'cards get', argv: () => ['cards', 'get', IDS.card, '-o', 'table'] },
  {
    name: 'cards tokenize',
    argv: () => ['cards', 'tokenize', '--customer', IDS.customer, '--holder-name', 'ANA SILVA', '--exp-month', '12', '--exp-year', '2031', '--card-stdin'],
    input: '4111111111111111\n739\n',
  },
  { name: 'subs list', argv: () => ['subs', 'list', '-o', 'table'], showsUnknown: 'ON_HOLD' },
  { name: 'subs list --all json', argv: () => ['subs', 'list', '--all', '--json'] },
  { name: 'subs get', argv: () => ['subs', 'get', IDS.subscription, '-o', 'table'], showsUnknown: 'ON_HOLD' },
  { name: 'subs update', argv: () => ['subs', 'update', IDS.subscription, '--title', 'Plano Prata'] },
  { name: 'subs cancel', argv: () => ['subs', 'cancel', IDS.subscription, '--yes'] },
  { name: 'subs add-split', argv: () => ['subs', 'add-split', '--subscription', IDS.subscription, '--receiver', IDS.subaccount, '--amount', '100'] },
  { name: 'subs remove-split', argv: () => ['subs', 'remove-split', IDS.subscription, IDS.split, '--yes'], checksSplitIsItsOwn: true },
  { name: 'bank-accounts list', argv: () => ['bank-accounts', 'list', '-o', 'table'], showsUnknown: 'ON_HOLD' },
  { name: 'bank-accounts get', argv: () => ['bank-accounts', 'get', String(IDS.bankAccount), '-o', 'table'], showsUnknown: 'ON_HOLD' },
  { name: 'bank-accounts delete', argv: () => ['bank-accounts', 'delete', String(IDS.bankAccount), '--yes'] },
  { name: 'withdrawals list', argv: () => ['withdrawals', 'list', '-o', 'table'], showsUnknown: 'ON_HOLD' },
  { name: 'withdrawals get', argv: () => ['withdrawals', 'get', IDS.withdrawal, '-o', 'table'], showsUnknown: 'CPF' },
  {
    name: 'withdraw pix',
    argv: () => ['withdraw', 'pix', '--amount', '1500', '--bank-account', String(IDS.bankAccount), '--pix-key-type', 'email', '--pix-key', 'ana@example.com', '--yes'],
    guardsDuplicates: true,
  },
  { name: 'withdraw card', argv: () => ['withdraw', 'card', '--amount', '2500', '--bank-account', String(IDS.bankAccount), '--yes'], guardsDuplicates: true },
  { name: 'withdraw batch', argv: (dir) => ['withdraw', 'batch', file(dir, 'rows.csv', CSV), '--method', 'pix', '--journal', path.join(dir, 'rows.journal'), '--yes'], guardsDuplicates: true },
  { name: 'subaccounts create pf', argv: (dir) => ['subaccounts', 'create', 'pf', '--from-file', file(dir, 'subaccount.json', JSON.stringify(SUBACCOUNT_FILE))] },
  { name: 'subaccounts create pj', argv: (dir) => ['subaccounts', 'create', 'pj', '--from-file', file(dir, 'subaccount.json', JSON.stringify(SUBACCOUNT_PJ_FILE))] },
  {
    name: 'auth login',
    argv: () => ['auth', 'login', '--client-id', 'acme', '--client-secret-stdin'],
    input: 'acme-sandbox-secret\n',
    // login reads its token itself: without a usable one it stores nothing (exit 5).
    alsoNeeds: { auth: ['accessToken'] },
  },
  { name: 'sandbox approve', argv: () => ['sandbox', 'approve', IDS.subaccount] },
  { name: 'sandbox settle', argv: () => ['sandbox', 'settle', IDS.withdrawal, '--status', 'COMPLETED'] },
  { name: 'sandbox credit', argv: () => ['sandbox', 'credit', '--pix', '1000'] },
  { name: 'api GET', argv: () => ['api', 'GET', `/subscriptions/${IDS.subscription}`], raw: true },
];

const needsOf = (row: CommandRow, operationId: string) => [...(NEEDS[operationId] ?? []), ...(row.alsoNeeds?.[operationId] ?? [])];

/** Each variant of the answers, with what a run must come to. */
type Expectation =
  | { kind: 'works' }
  /** An answer that is not the API's: the operation and field named, exit 4 for a GET, 5 otherwise. */
  | { kind: 'fails'; route: string; field?: string; method: string }
  /** Every answer broken: the first request decides the exit code. */
  | { kind: 'broken' }
  /** Every request refused (4xx) with a body of another shape: exit 1 with the status. */
  | { kind: 'refused' };

interface Case {
  row: CommandRow;
  variant: Variant;
  expect: Expectation;
}

/** A variant of every success answer, leaving untouched what the command's own operations need. */
const unneededVariant = (row: CommandRow, name: string, replace: (value: unknown, field: string) => unknown): Variant =>
  bodyVariant(name, (envelope, operation) => ({ ...envelope, data: replaceUnneededFor(row, envelope.data, operation.operationId, replace) }));

function replaceUnneededFor(row: CommandRow, data: unknown, operationId: string, replace: (value: unknown, field: string) => unknown): unknown {
  const extra = row.alsoNeeds?.[operationId];
  if (!extra) return replaceUnneeded(data, operationId, replace);
  // Fields the command checks itself are kept as they are.
  return replaceUnneeded(data, operationId, (value, field) => (extra.includes(field) ? value : replace(value, field)));
}

const emptyLists = (value: unknown): unknown =>
  Array.isArray(value) ? [] : value && typeof value === 'object' ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, emptyLists(v)])) : value;

/** Variants where the command must work: fields it does not need bent every way at once, unknown values, empty lists, envelopes without meta. */
function workingVariants(row: CommandRow): Variant[] {
  return [
    unneededVariant(row, 'fields it does not need absent', () => ABSENT),
    unneededVariant(row, 'fields it does not need null', () => null),
    unneededVariant(row, 'fields it does not need of another type', (value) => otherType(value)),
    bodyVariant('unknown enumeration values (CPF as key type) and unknown fields; meta counts as text', (envelope) => {
      const bent = withUnknowns(envelope) as Envelope;
      return envelope.meta ? { ...bent, meta: Object.fromEntries(Object.entries(envelope.meta as object).map(([k, v]) => [k, String(v)])) } : bent;
    }),
    bodyVariant('empty lists, envelopes without meta or message', (envelope) => ({ data: emptyLists(envelope.data) })),
  ];
}

/** Variants that break the envelope of every answer. */
const BROKEN_VARIANTS: Array<{ variant: Variant; rawWorks?: boolean }> = [
  { variant: bodyVariant('data missing', ({ data: _data, ...rest }) => rest) },
  { variant: bodyVariant('data null', (envelope) => ({ ...envelope, data: null })) },
  { variant: bodyVariant('data a number', (envelope) => ({ ...envelope, data: 42 })) },
  { variant: bodyVariant('data a string', (envelope) => ({ ...envelope, data: 'ok' })) },
  { variant: bodyVariant('data a list where an object was, an object where a list was', (envelope) => ({ ...envelope, data: Array.isArray(envelope.data) ? { items: envelope.data } : [envelope.data] })), rawWorks: true },
  { variant: bodyVariant('the body a bare list', (envelope) => [envelope.data]) },
  { variant: textVariant('HTML instead of JSON', 'text/html', '<html><body><h1>502 Bad Gateway</h1></body></html>') },
  { variant: textVariant('an empty body', 'application/json', '') },
];

/** Refusals (4xx) whose body is not the API's error shape, or holds fields of other types. */
const REFUSALS: Variant[] = [
  { name: '400 with an HTML page', answer: () => ({ status: 400, contentType: 'text/html', text: '<html><body>Bad Request</body></html>' }) },
  { name: '422 with a message that is a number and a returnCode that is text', answer: () => ({ status: 422, contentType: 'application/json', text: JSON.stringify({ data: { message: 42, returnCode: 'E42' } }) }) },
  { name: '409 with an error shape of its own', answer: () => ({ status: 409, contentType: 'application/json', text: JSON.stringify({ error: { code: 'conflict' }, data: null }) }) },
];

/** How payctl names a needed field in its message: `splits[0].id`, `data[0].id` in a list. */
const shownField = (needPath: string) => {
  const text = stepsOf(needPath).join('.').replace(/\.?\[\]/g, '[0]');
  return text.startsWith('[') ? `data${text}` : text;
};

/** Fields the document allows to be null. */
const NULLABLE = new Set(['splitAmount', 'splitPercentage', 'canceledAt']);

/** One operation's answers bent at one needed field; every other answer as it is. */
function neededFieldCases(row: CommandRow, operationId: string): Case[] {
  const operation = operationById(operationId);
  const route = routeOf(operation);
  return needsOf(row, operationId).flatMap((needPath) => {
    const optional = needPath.endsWith('?');
    const leaf = stepsOf(needPath).at(-1)!;
    const bend = (name: string, replace: (value: unknown) => unknown, works: boolean): Case => ({
      row,
      variant: bodyVariant(`${operationId}: ${needPath} ${name}`, (envelope, answering) =>
        answering.operationId === operationId ? { ...envelope, data: replaceAt(envelope.data, needPath, replace) } : envelope,
      ),
      expect: works ? { kind: 'works' } : { kind: 'fails', route, field: row.alsoNeeds?.[operationId]?.includes(needPath) ? leaf : shownField(needPath), method: operation.method },
    });
    return [
      ...(leaf === '[]' ? [] : [bend('absent', () => ABSENT, optional)]),
      bend('null', () => null, NULLABLE.has(leaf)),
      bend('of another type', otherType, false),
    ];
  });
}

let scratch: string;
/** The operations each command calls when every answer is as the document says. */
const called = new Map<string, string[]>();

const isBug = /unexpected failure|bug in payctl|\n\s+at .+:\d+:\d+/;

/** Runs one case against its own variant API; returns what is wrong with the outcome, or undefined. */
async function runCase({ row, variant, expect: expected }: Case): Promise<string | undefined> {
  const api = await startVariantApi(variant);
  const dir = mkdtempSync(path.join(scratch, 'case-'));
  let result: RunResult;
  try {
    result = await runInProcess(row.argv(dir), {
      env: { PAYCTL_CONFIG_DIR: path.join(dir, 'config'), PAYCTL_BASE_URL: api.url, PAYCTL_TOKEN: fakeJwt(Math.floor(Date.now() / 1000) + 3600) },
      input: row.input,
    });
  } finally {
    await api.close();
  }
  const problems: string[] = [];
  const output = `${result.stdout}\n${result.stderr}`;
  if (isBug.test(output)) problems.push('an internal failure reached the user');
  const writes = api.requests.filter((request) => request.method !== 'GET').map((request) => `${request.method} ${request.url} ${request.body}`);
  if (new Set(writes).size !== writes.length) problems.push(`a write was sent twice: ${writes.join(' | ')}`);
  // In json modes the error is the JSON document alone on stderr.
  if (result.code !== 0 && !/^(error: .+|\{"error":\{"message":".+)/m.test(result.stderr)) problems.push('failed without an error: line');
  switch (expected.kind) {
    case 'works':
      if (row.guardsDuplicates && result.code === 2 && /possible duplicate|match withdrawals already on the platform/.test(result.stderr)) {
        if (writes.length > 0) problems.push('the duplicate guard refused, yet something was sent');
        break;
      }
      if (row.checksSplitIsItsOwn && result.code === 2 && /is not one of the splits of subscription/.test(result.stderr)) {
        if (writes.length > 0) problems.push('the split was refused as not its own, yet something was sent');
        break;
      }
      if (result.code !== 0) problems.push(`exit ${result.code}, expected 0`);
      break;
    case 'fails': {
      const code = expected.method === 'GET' ? 4 : 5;
      if (result.code !== code) problems.push(`exit ${result.code}, expected ${code}`);
      if (!result.stderr.includes(expected.route)) problems.push(`the error does not name ${expected.route}`);
      if (expected.field && !result.stderr.includes(expected.field)) problems.push(`the error does not name ${expected.field}`);
      break;
    }
    case 'refused':
      if (result.code !== 1) problems.push(`exit ${result.code}, expected 1`);
      if (!/\((?:returnCode -?\d+, )?HTTP 4\d\d\)|"status":4\d\d/.test(result.stderr)) problems.push('the error does not give the HTTP status');
      break;
    case 'broken': {
      // Every answer is broken, so payctl stops at its first request: the first operation the command
      // calls with the document's answers (`called`), exit 4 for a read, 5 for a write. Not the first
      // request recorded here, which a request of a case that shared this process can be; nor whether a
      // write was sent, which would pass a command that reads a broken answer and writes anyway.
      const first = called.get(row.name)?.[0];
      const method = first === undefined ? undefined : operationById(first)?.method;
      if (method === undefined) {
        problems.push(`no first operation known for ${row.name} (the test of the document's answers records them)`);
        break;
      }
      const code = method === 'GET' ? 4 : 5;
      if (result.code !== code) problems.push(`exit ${result.code}, expected ${code} (its first request, ${first}, is a ${method})`);
      if (!/answer is not the API's|not an API answer/.test(result.stderr)) problems.push('the error does not say the answer is not the API\'s');
      break;
    }
  }
  if (problems.length === 0) return undefined;
  return `payctl ${row.name} / ${variant.name}: ${problems.join('; ')}\n  exit ${result.code}\n  stdout: ${result.stdout.slice(0, 400)}\n  stderr: ${result.stderr.slice(0, 600)}`;
}

/** Runs cases a few at a time (each is a payctl process and a server), and returns every problem found. */
async function runAll(cases: readonly Case[], concurrency = 6): Promise<string[]> {
  const problems: string[] = [];
  let next = 0;
  const worker = async () => {
    while (next < cases.length) {
      const problem = await runCase(cases[next++]!);
      if (problem) problems.push(problem);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return problems;
}

/** Runs the cases, fails on any problem, and counts them in the hardening summary. */
async function check(cases: readonly Case[]): Promise<void> {
  expect(cases.length).toBeGreaterThan(0);
  const problems = await runAll(cases);
  expect(problems, problems.join('\n\n')).toEqual([]);
  tally('variants', cases.length);
}

trackFailures();

describe('every command against answers that differ from the document', () => {
  beforeAll(async () => {
    scratch = mkdtempSync(path.join(tmpdir(), 'payctl-variants-'));
  });
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('the fixtures are the document\'s answers, and every command works with them', async () => {
    const operations = compiledOperations();
    const faults: string[] = [];
    const plain = bodyVariant('as documented', (envelope, operation) => {
      const violation = answerViolation(operations.find((o) => o.operationId === operation.operationId), operation.successStatus, envelope);
      if (violation) faults.push(`${operation.operationId}: ${violation}`);
      return envelope;
    });
    const cases = COMMANDS.map((row): Case => ({ row, variant: plain, expect: { kind: 'works' } }));
    await check(cases);
    expect(faults).toEqual([]);
    // Which operations each command calls, for the cases that bend one of them.
    await Promise.all(
      COMMANDS.map(async (row) => {
        const api = await startVariantApi(plain);
        const dir = mkdtempSync(path.join(scratch, 'discover-'));
        await runInProcess(row.argv(dir), { env: { PAYCTL_CONFIG_DIR: path.join(dir, 'config'), PAYCTL_BASE_URL: api.url, PAYCTL_TOKEN: fakeJwt(Math.floor(Date.now() / 1000) + 3600) }, input: row.input });
        await api.close();
        called.set(row.name, [...new Set(api.operations())]);
      }),
    );
    expect(called.size).toBe(COMMANDS.length);
    expect([...called].filter(([, operations]) => operations.length === 0)).toEqual([]);
  });

  it('fields a command does not need, bent every way, unknown values and fields, empty lists, no meta: it works and shows them as given', async () => {
    await check(COMMANDS.flatMap((row) => workingVariants(row).map((variant): Case => ({ row, variant, expect: { kind: 'works' } }))));
  });

  it('an unknown status, key type or enumeration value reads as itself', async () => {
    const unknowns = workingVariants(COMMANDS[0]!)[3]!;
    const rows = COMMANDS.filter((row) => row.showsUnknown);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      const api = await startVariantApi(unknowns);
      const dir = mkdtempSync(path.join(scratch, 'unknown-'));
      // A table wide enough for every column: a narrower one leaves some out.
      const env = { PAYCTL_CONFIG_DIR: path.join(dir, 'config'), PAYCTL_BASE_URL: api.url, PAYCTL_TOKEN: fakeJwt(Math.floor(Date.now() / 1000) + 3600), COLUMNS: '240' };
      const result = await runInProcess(row.argv(dir), { env });
      await api.close();
      expect(result.code, `${row.name}: ${result.stderr}`).toBe(0);
      expect(result.stdout, row.name).toContain(row.showsUnknown!);
      expect(Object.values(UNKNOWN_VALUES)).toContain(row.showsUnknown);
    }
    tally('variants', rows.length);
  });

  it('a needed field missing, null or of another type: an error naming the operation and the field, exit 4 for GET, 5 otherwise', async () => {
    // Each operation's needed fields are bent in the first command that calls it.
    const done = new Set<string>();
    const cases: Case[] = [];
    for (const row of COMMANDS) {
      for (const operationId of called.get(row.name) ?? []) {
        if (done.has(operationId) || row.raw) continue;
        done.add(operationId);
        cases.push(...neededFieldCases(row, operationId));
      }
    }
    // Every operation with needed fields is bent, but GET /sandbox/subaccounts, which no command calls yet.
    const withNeeds = Object.keys(NEEDS).filter((id) => !id.startsWith('$') && NEEDS[id]!.length > 0 && id !== 'sandboxListSubaccounts');
    expect(withNeeds.filter((id) => !done.has(id))).toEqual([]);
    await check(cases);
  });

  it('broken envelopes (no data, data of another kind, a bare list, HTML, nothing): a clear error, exit 4 for a GET, 5 for a write', async () => {
    // Each command meets three of the broken envelopes, in turn, so every one is met by a dozen commands.
    const cases = COMMANDS.flatMap((row, index) =>
      [0, 1, 2].map((offset): Case => {
        const { variant, rawWorks } = BROKEN_VARIANTS[(index * 3 + offset) % BROKEN_VARIANTS.length]!;
        return { row, variant, expect: row.raw && rawWorks ? { kind: 'works' } : { kind: 'broken' } };
      }),
    );
    await check(cases);
  });

  it('refusals whose body is not the API\'s error shape: exit 1 with the HTTP status, never an internal failure', async () => {
    await check(COMMANDS.map((row, index): Case => ({ row, variant: REFUSALS[index % REFUSALS.length]!, expect: { kind: 'refused' } })));
  });
});
