import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, runCli, tempConfigDir, type RunResult } from '../helpers/cli.js';
import { closedPort, fakeJwt, sendJson, startFakeApi, type FakeApi, type RecordedRequest } from '../helpers/fake-api.js';
import { runInProcess } from '../helpers/in-process.js';
import { startSandboxSession, type SandboxSession } from '../helpers/sandbox.js';
import { parsed, sandboxReader, subaccountFlags, type SandboxReader } from './helpers.js';

/**
 * Support's commands: a customer's subscriptions and cards, the list of
 * sub-accounts and their names, help and version, api's spellings, json-mode
 * stderr, hints with real ids, and what is refused before anything is sent.
 * In-process against a sandbox, or a fake API where a test counts what was sent.
 */

interface Split {
  id?: string;
  subaccountId: string;
}
interface Subscription {
  id: string;
  customerId: string;
  cardId: string;
  title: string;
  status: string;
  splits: Split[];
  updatedAt: string;
}
interface Subaccount {
  id: string;
  name: string;
  status: string;
}

let s: SandboxSession;
let api: SandboxReader;
let subscriptions: Subscription[];

beforeAll(async () => {
  s = await startSandboxSession('acme');
  api = await sandboxReader(s);
  subscriptions = await api.all<Subscription>('/subscriptions');
});
afterAll(() => s?.close());

const ids = (items: Array<{ id: string }>) => items.map((item) => item.id);
const ndjsonOf = <T>(stdout: string): T[] =>
  stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as T);

/** The customer with the most subscriptions, and those, in the list's order. */
function busiestCustomer(): { customerId: string; theirs: Subscription[] } {
  const counts = new Map<string, number>();
  for (const subscription of subscriptions) counts.set(subscription.customerId, (counts.get(subscription.customerId) ?? 0) + 1);
  const [customerId] = [...counts].sort((a, b) => b[1] - a[1])[0]!;
  return { customerId, theirs: subscriptions.filter((subscription) => subscription.customerId === customerId) };
}

/** A fake API, and how to run payctl against it, logged in with a token of its own. */
async function fakeApiSession(): Promise<{ fake: FakeApi; run: (args: string[]) => Promise<RunResult> }> {
  const fake = await startFakeApi();
  const env = { PAYCTL_CONFIG_DIR: tempConfigDir(), PAYCTL_BASE_URL: fake.url, PAYCTL_TOKEN: fakeJwt(Math.floor(Date.now() / 1000) + 3600) };
  return { fake, run: (args) => runInProcess(args, { env }) };
}

const writes = (requests: readonly RecordedRequest[]) => requests.filter((request) => request.method !== 'GET');

describe('subs list --customer', () => {
  it("keeps that customer's subscriptions, read from every page, in the list's order", async () => {
    const { customerId, theirs } = busiestCustomer();
    expect(theirs.length).toBeGreaterThan(1);
    const asJson = parsed<Subscription[]>(await s.run(['subs', 'list', '--customer', customerId, '--json']));
    expect(ids(asJson)).toEqual(ids(theirs));
    const asNdjson = await s.run(['subs', 'list', '--customer', customerId, '-o', 'ndjson']);
    expect(ids(ndjsonOf<Subscription>(asNdjson.stdout))).toEqual(ids(theirs));
    const table = await s.run(['subs', 'list', '--customer', customerId, '-o', 'table']);
    expect(table.code).toBe(0);
    for (const subscription of theirs) expect(table.stdout).toContain(subscription.id);
    expect(table.stderr).toContain(`${theirs.length} of ${subscriptions.length} subscriptions match`);
  });

  it('goes with the filters the API has', async () => {
    const { customerId, theirs } = busiestCustomer();
    const status = theirs[0]!.status;
    const filtered = parsed<Subscription[]>(await s.run(['subs', 'list', '--customer', customerId, '--status', status, '--json']));
    expect(ids(filtered)).toEqual(ids(theirs.filter((subscription) => subscription.status === status)));
    expect(filtered.length).toBeGreaterThan(0);
  });

  it('cannot go with --page or --limit, and sends nothing', async () => {
    const { fake, run } = await fakeApiSession();
    try {
      const customer = '8d0c2f7a-5b1e-4c3d-9f6a-1e2b3c4d5e6f';
      const paged = await run(['subs', 'list', '--customer', customer, '--page', '2']);
      expect(paged.code).toBe(2);
      expect(paged.stderr).toContain('--customer and --page cannot be used together');
      const limited = await run(['subs', 'list', '--customer', customer, '--limit', '5']);
      expect(limited.code).toBe(2);
      expect(limited.stderr).toContain('--customer and --limit cannot be used together');
      expect(fake.requests).toEqual([]);
    } finally {
      await fake.close();
    }
  });
});

describe('customers get', () => {
  it('as a table shows the customer, their subscriptions and the cards those charge', async () => {
    const { customerId, theirs } = busiestCustomer();
    const cardIds = [...new Set(theirs.map((subscription) => subscription.cardId))];
    const cards = await Promise.all(cardIds.map((id) => api.get<{ id: string; last4Digits: string }>(`/cards/${id}`)));
    expect(cards.length).toBeGreaterThan(0);
    const table = await s.run(['customers', 'get', customerId, '-o', 'table']);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toContain(customerId);
    for (const subscription of theirs) expect(table.stdout).toContain(subscription.id);
    for (const card of cards) {
      expect(table.stdout).toContain(card.id);
      expect(table.stdout).toContain(`…${card.last4Digits}`);
    }
    expect(table.stderr).toContain(theirs.length === 1 ? '1 subscription' : `${theirs.length} subscriptions`);
    expect(table.stderr).toContain(cards.length === 1 ? '1 card' : `${cards.length} cards`);
  });

  it("--json, ndjson and tsv keep the API's customer record alone", async () => {
    const { customerId, theirs } = busiestCustomer();
    const record = await api.get<Record<string, unknown>>(`/customers/${customerId}`);
    expect(parsed(await s.run(['customers', 'get', customerId, '--json']))).toEqual(record);
    expect(ndjsonOf((await s.run(['customers', 'get', customerId, '-o', 'ndjson'])).stdout)).toEqual([record]);
    const tsv = await s.run(['customers', 'get', customerId]);
    expect(tsv.code).toBe(0);
    expect(tsv.stdout).toContain(`id\t${customerId}`);
    for (const subscription of theirs) expect(tsv.stdout).not.toContain(subscription.id);
  });
});

describe('subaccounts list and names', () => {
  it("against a sandbox: its own list, by name; names then label sub-accounts elsewhere", async () => {
    const listed = await api.all<Subaccount>('/sandbox/subaccounts');
    expect(listed.length).toBeGreaterThan(2);
    const asJson = parsed<Subaccount[]>(await s.run(['subaccounts', 'list', '--json']));
    expect(asJson.map(({ id, name, status }) => ({ id, name, status }))).toEqual(listed.map(({ id, name, status }) => ({ id, name, status })));
    const table = await s.run(['subaccounts', 'list', '-o', 'table']);
    for (const subaccount of listed) expect(table.stdout).toContain(subaccount.name);

    // Names are remembered: confirmations, notes and the splits table name the sub-account.
    const withSplit = subscriptions.find((subscription) => subscription.status === 'ACTIVE' && subscription.splits.length > 0)!;
    const receiver = listed.find((subaccount) => subaccount.id === withSplit.splits[0]!.subaccountId)!;
    const shown = await s.run(['subs', 'get', withSplit.id, '-o', 'table']);
    expect(shown.stdout).toMatch(new RegExp(`RECEIVER[\\s\\S]*${receiver.name}`));
    const cancel = await s.run(['subs', 'cancel', withSplit.id, '--dry-run']);
    expect(cancel.stderr).toContain(`to ${receiver.name} (${receiver.id})`);
    const accounts = await s.run(['bank-accounts', 'list', '--subaccount', receiver.id, '-o', 'table']);
    expect(accounts.stderr).toContain(`bank accounts of the sub-account ${receiver.name} (${receiver.id})`);
  });

  it('where the API has no such list (404): those this profile created, used or saw in splits, remembered', async () => {
    const { fake, run } = await fakeApiSession();
    const created = '11111111-1111-4111-8111-111111111111';
    const used = '22222222-2222-4222-8222-222222222222';
    const receivers = ['33333333-3333-4333-8333-333333333333', '44444444-4444-4444-8444-444444444444'];
    fake.handle((request, response) => {
      const url = new URL(request.url, 'http://fake');
      if (request.method === 'POST' && url.pathname === '/subaccounts/pf') {
        return sendJson(response, 200, { data: { id: created, name: 'Loja Criada', status: 'PENDING' }, message: 'created' });
      }
      if (url.pathname === '/subscriptions') {
        const data = receivers.map((receiver, i) => ({ id: `5555555${i}-5555-4555-8555-555555555555`, splits: [{ subaccountId: receiver }] }));
        return sendJson(response, 200, { data, meta: { total: 2, page: 1, limit: 100, totalPages: 1 }, message: 'ok' });
      }
      if (url.pathname === '/bank_accounts/5') {
        const account = { id: 5, holderName: 'Ana', bankCode: '341', routingNumber: '0001', accountNumber: '1-2', document: '52998224725' };
        return sendJson(response, 200, { data: account, message: 'ok' });
      }
      sendJson(response, 404, { data: { message: 'route not found', returnCode: -1 } });
    });
    try {
      expect((await run(['subaccounts', 'create', 'pf', ...subaccountFlags('Loja Criada')])).code).toBe(0);
      expect((await run(['subaccounts', 'use', used])).code).toBe(0);
      const asJson = parsed<Array<Subaccount & { seenAs: string[] }>>(await run(['subaccounts', 'list', '--json']));
      expect(asJson).toEqual(
        expect.arrayContaining([
          { id: created, name: 'Loja Criada', status: 'PENDING', seenAs: ['created'] },
          { id: used, seenAs: ['used'] },
          { id: receivers[0], seenAs: ['split'] },
          { id: receivers[1], seenAs: ['split'] },
        ]),
      );
      expect(asJson).toHaveLength(4);
      expect(fake.requests.map((request) => `${request.method} ${new URL(request.url, 'http://fake').pathname}`)).toEqual(
        expect.arrayContaining(['GET /sandbox/subaccounts', 'GET /subscriptions']),
      );
      const table = await run(['subaccounts', 'list', '-o', 'table']);
      expect(table.stdout).toMatch(/Loja Criada\s+PENDING\s+created/);
      expect(table.stderr).toContain('the API has no list of sub-accounts');
      const deletion = await run(['bank-accounts', 'delete', '5', '--subaccount', created, '--dry-run']);
      expect(deletion.stderr).toContain(`account:      sub-account Loja Criada (${created})`);
    } finally {
      await fake.close();
    }
  });
});

describe('help and version', () => {
  it('payctl help COMMAND… is payctl COMMAND… --help, in the bundle and from the launcher', async () => {
    for (const words of [[], ['subs'], ['subs', 'list'], ['customers', 'update'], ['withdraw', 'pix']]) {
      const asked = await runInProcess(['help', ...words]);
      expect(asked.code).toBe(0);
      expect(asked.stdout).toEqual((await runInProcess([...words, '--help'])).stdout);
    }
    // The launcher answers both spellings from the help pre-rendered at build (test/foundation/startup.test.ts checks that text for every command).
    for (const words of [[], ['withdraw', 'pix']]) {
      const asked = await runCli(['help', ...words]);
      expect(asked.code).toBe(0);
      expect(asked.stdout).toMatch(/^Usage: payctl/);
      expect(asked.stdout).toEqual((await runCli([...words, '--help'])).stdout);
    }
    const unknown = await runInProcess(['help', 'subs', 'nope']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("unknown command 'subs nope'");
    expect(unknown.stderr).toContain('hint: see the commands: payctl help subs');
  });

  it('version, -v, -V and --version print the same version', async () => {
    const { version } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };
    for (const spelling of [['version'], ['-v'], ['-V'], ['--version'], ['version', '--no-color']]) {
      const printed = await runCli(spelling);
      expect(printed.code, spelling.join(' ')).toBe(0);
      expect(printed.stdout, spelling.join(' ')).toBe(`${version}\n`);
    }
    const inProcess = await Promise.all([['version'], ['-v'], ['--version']].map((spelling) => runInProcess(spelling)));
    expect(new Set(inProcess.map((run) => run.stdout)).size).toBe(1);
  });

  it('customers update --help says each rule once', async () => {
    const help = (await runInProcess(['customers', 'update', '--help'])).stdout;
    expect(help).toMatch(/--email <value> +E-mail\n/);
    expect(help).toMatch(/--birthdate <value> +Birthdate \(YYYY-MM-DD\)\n/);
    expect(help).toMatch(/--address-zipcode <value> +CEP \(8 digits\)\n/);
    expect(help).toMatch(/--address-street-number <value> +Number\n/);
    expect(help).toMatch(/--document <value> +CPF or CNPJ \(check digits verified\)\n/);
  });
});

describe('--fields where a command prints no resource', () => {
  it('auth status has its fields: an unknown one is exit 2 naming those it has; a known one is shown', async () => {
    const bogus = await s.run(['auth', 'status', '--fields', 'bogus']);
    expect(bogus.code).toBe(2);
    expect(bogus.stdout).toBe('');
    expect(bogus.stderr).toBe(
      'error: --fields: unknown field bogus; valid fields: profile, baseUrl, env, loggedIn, tokenSource, tokenStore, tokenStoreSetting, tokenExpiresAt, clientId, subaccount\n',
    );
    const chosen = await s.run(['auth', 'status', '--fields', 'baseUrl,loggedIn']);
    expect(chosen.code, chosen.stderr).toBe(0);
    expect(chosen.stdout).toBe(`baseUrl\t${s.sandbox.url}\nloggedIn\ttrue\n`);
  });

  it('a command with no fields to choose is exit 2 naming --fields, and does nothing', async () => {
    const env = { PAYCTL_CONFIG_DIR: tempConfigDir() };
    for (const args of [
      ['profiles', 'add', 'x', '--base-url', 'http://127.0.0.1:4010', '--fields', 'name'],
      ['profiles', 'use', 'x', '--fields', 'a'],
      ['profiles', 'set', 'default', '--max-withdrawal', '100000', '--fields', 'maxWithdrawal'],
      ['profiles', 'remove', 'x', '--fields', 'a'],
      ['subaccounts', 'use', '3f2b8c1e-0d4a-4b6e-9a7c-2e5d1f0a9b3c', '--fields', 'id'],
      ['subaccounts', 'clear', '--fields', 'id'],
      ['version', '--fields', 'version'],
      ['completion', 'bash', '--fields', 'a', '--json'],
    ]) {
      const refused = await runInProcess(args, { env });
      expect(refused.code, args.join(' ')).toBe(2);
      expect(refused.stdout, args.join(' ')).toBe('');
      expect(refused.stderr, args.join(' ')).toContain('--fields cannot be used with this command: it has no fields to choose from');
    }
    // Nothing was added, set or used: the config was never written.
    expect(existsSync(path.join(env.PAYCTL_CONFIG_DIR, 'config.json'))).toBe(false);
  });

  it('api picks any fields of the answer itself', async () => {
    const balance = await s.run(['api', 'GET', '/withdrawals/balance', '--fields', 'disponiblePixBalance']);
    expect(balance.code, balance.stderr).toBe(0);
    expect(Object.keys(JSON.parse(balance.stdout))).toEqual(['disponiblePixBalance']);
    const customers = await s.run(['api', 'GET', '/customers', '--query', 'limit=2', '--fields', 'id,address.city']);
    expect(customers.code, customers.stderr).toBe(0);
    expect(JSON.parse(customers.stdout)).toEqual([
      { id: expect.any(String), address: { city: expect.any(String) } },
      { id: expect.any(String), address: { city: expect.any(String) } },
    ]);
  });
});

describe('api', () => {
  it('takes the method in any case and the path with or without its leading slash', async () => {
    const spellings = [
      ['api', 'GET', '/customers', '--query', 'limit=2'],
      ['api', 'get', '/customers', '--query', 'limit=2'],
      ['api', 'Get', 'customers', '--query', 'limit=2'],
      ['api', 'get', 'customers?limit=2'],
    ];
    const outputs = await Promise.all(spellings.map(async (args) => parsed<Array<{ id: string }>>(await s.run(args))));
    expect(outputs[0]).toHaveLength(2);
    for (const output of outputs) expect(output).toEqual(outputs[0]);
  });

  it('refuses an absolute URL, whatever the spelling, and sends nothing', async () => {
    const { fake, run } = await fakeApiSession();
    try {
      for (const target of ['https://example.com/customers', '//example.com/customers', 'HTTP://example.com/x']) {
        const refused = await run(['api', 'get', target]);
        expect(refused.code, target).toBe(2);
        expect(refused.stderr).toContain('give a route relative to the base URL');
      }
      expect(fake.requests).toEqual([]);
    } finally {
      await fake.close();
    }
  });
});

describe('json modes: a failure leaves one JSON document on stderr', () => {
  const unknownId = '00000000-0000-4000-8000-000000000000';
  const cases: Array<{ name: string; args: (active: string) => string[]; code: number }> = [
    { name: 'an unknown option', args: () => ['subs', 'list', '--bogus'], code: 2 },
    { name: 'a bad argument', args: () => ['subs', 'get', 'nope'], code: 2 },
    { name: 'a group without its command', args: () => ['subs'], code: 2 },
    { name: 'a missing id without a terminal', args: () => ['subs', 'cancel'], code: 2 },
    { name: 'a confirmation without a terminal', args: (active) => ['subs', 'cancel', active], code: 2 },
    { name: 'an API refusal', args: () => ['subs', 'get', unknownId], code: 1 },
  ];
  for (const { name, args, code } of cases) {
    it(`${name}: exit ${code}`, async () => {
      const active = subscriptions.find((subscription) => subscription.status === 'ACTIVE')!.id;
      for (const format of [['--json'], ['-o', 'ndjson']]) {
        const failed = await s.run([...args(active), ...format]);
        expect(failed.code).toBe(code);
        const document = JSON.parse(failed.stderr) as { error: { message: string; exitCode: number } };
        expect(document.error.exitCode).toBe(code);
        expect(document.error.message.length).toBeGreaterThan(0);
      }
    });
  }

  it('no token (exit 3) and no server (exit 4)', async () => {
    const noToken = await runInProcess(['balance', '--json'], { env: { PAYCTL_CONFIG_DIR: tempConfigDir(), PAYCTL_BASE_URL: s.sandbox.url } });
    expect(noToken.code).toBe(3);
    expect(JSON.parse(noToken.stderr)).toMatchObject({ error: { exitCode: 3 } });
    const env = { PAYCTL_CONFIG_DIR: tempConfigDir(), PAYCTL_BASE_URL: `http://127.0.0.1:${await closedPort()}`, PAYCTL_TOKEN: fakeJwt(Math.floor(Date.now() / 1000) + 3600) };
    const noServer = await runInProcess(['customers', 'list', '-o', 'ndjson'], { env });
    expect(noServer.code).toBe(4);
    expect(JSON.parse(noServer.stderr)).toMatchObject({ error: { exitCode: 4 } });
  });

  it('what a run wrote on its way (a confirmation shown with --yes) is not there when it fails, and is when it succeeds', async () => {
    const { fake, run } = await fakeApiSession();
    const id = '66666666-6666-4666-8666-666666666666';
    const subscription = { id, title: 'Plano', amount: 990, frequency: 30, customerId: '77777777-7777-4777-8777-777777777777', status: 'ACTIVE', splits: [] };
    fake.handle((request, response) => {
      if (request.method === 'GET' && request.url === `/subscriptions/${id}`) return sendJson(response, 200, { data: subscription, message: 'ok' });
      if (request.method === 'DELETE') return sendJson(response, 503, { data: { message: 'unavailable', returnCode: -1 } });
      sendJson(response, 404, { data: { message: 'not found', returnCode: -1 } });
    });
    try {
      const failed = await run(['subs', 'cancel', id, '--yes', '--json']);
      expect(failed.code).toBe(5);
      expect(JSON.parse(failed.stderr)).toMatchObject({ error: { exitCode: 5, status: 503 } });
      expect(writes(fake.requests)).toHaveLength(1);
      // The same run for people: the summary, then the error and its hint.
      const human = await run(['subs', 'cancel', id, '--yes']);
      expect(human.stderr).toContain('About to cancel a subscription');
      expect(human.stderr).toMatch(/^error: .*outcome is unknown/m);
    } finally {
      await fake.close();
    }
    const active = subscriptions.find((candidate) => candidate.status === 'ACTIVE' && candidate.splits.length === 0)!;
    const done = await s.run(['subs', 'cancel', active.id, '--yes', '--json']);
    expect(parsed(done)).toMatchObject({ id: active.id, status: 'DELETED' });
    expect(done.stderr).toContain('About to cancel a subscription');
  });
});

describe('refused before anything is sent', () => {
  it('subs cancel, update and remove-split on a cancelled subscription: exit 2, nothing sent', async () => {
    const cancelled = subscriptions.find((subscription) => subscription.status === 'DELETED')!;
    const before = await api.get<Subscription>(`/subscriptions/${cancelled.id}`);
    const refused = await s.run(['subs', 'cancel', cancelled.id, '--yes']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`subscription ${cancelled.id} "${cancelled.title}" was cancelled on `);
    expect(refused.stderr).toContain('so payctl did not cancel it: nothing was sent');
    expect(refused.stderr).toContain(`hint: see it: payctl subs get ${cancelled.id}`);
    expect(refused.stderr).not.toContain('About to cancel');
    expect(await api.get<Subscription>(`/subscriptions/${cancelled.id}`)).toEqual(before);

    const { fake, run } = await fakeApiSession();
    const id = '88888888-8888-4888-8888-888888888888';
    const split = { id: '99999999-9999-4999-8999-999999999999', subaccountId: '33333333-3333-4333-8333-333333333333', splitType: 'AMOUNT', splitAmount: 100 };
    fake.handle((request, response) =>
      request.url === `/subscriptions/${id}`
        ? sendJson(response, 200, { data: { ...cancelled, id, status: 'DELETED', canceledAt: '2025-01-02T03:04:05.000Z', splits: [split] }, message: 'ok' })
        : sendJson(response, 404, { data: { message: 'not found', returnCode: -1 } }),
    );
    try {
      for (const args of [['subs', 'cancel', id, '--yes'], ['subs', 'update', id, '--title', 'again'], ['subs', 'remove-split', id, split.id, '--yes']]) {
        const result = await run(args);
        expect(result.code, args.join(' ')).toBe(2);
        expect(result.stderr).toContain('can never change again');
      }
      expect(writes(fake.requests)).toEqual([]);
    } finally {
      await fake.close();
    }
  });

  it('a missing id without a terminal: exit 2 naming the argument, nothing sent', async () => {
    const { fake, run } = await fakeApiSession();
    const commands: Array<[string[], string]> = [
      [['customers', 'get'], 'argument ID'],
      [['customers', 'update', '--email', 'ana@example.com'], 'argument ID'],
      [['subs', 'get'], 'argument ID'],
      [['subs', 'update', '--title', 'x'], 'argument ID'],
      [['subs', 'cancel', '--yes'], 'argument ID'],
      [['subs', 'remove-split', '--yes'], 'arguments SUBSCRIPTION_ID, SPLIT_ID'],
      [['subs', 'remove-split', '11111111-1111-4111-8111-111111111111', '--yes'], 'argument SPLIT_ID'],
      [['cards', 'get'], 'argument ID'],
      [['bank-accounts', 'get'], 'argument ID'],
      [['bank-accounts', 'delete', '--yes'], 'argument ID'],
      [['withdrawals', 'get'], 'argument ID'],
      [['subaccounts', 'use'], 'argument ID'],
    ];
    try {
      for (const [args, missing] of commands) {
        const result = await run(args);
        expect(result.code, args.join(' ')).toBe(2);
        expect(result.stderr, args.join(' ')).toContain(`error: missing required ${missing}\n`);
        expect(result.stderr, args.join(' ')).toContain('or run at a terminal to pick from a list');
      }
      expect(fake.requests).toEqual([]);
    } finally {
      await fake.close();
    }
  });
});

describe('hints name the ids at hand', () => {
  const placeholder = /\b[A-Z]+_ID\b/;

  it('a split to a sub-account that is not APPROVED: the approve command for that sub-account', async () => {
    const pending = (await api.all<Subaccount>('/sandbox/subaccounts')).find((subaccount) => subaccount.status === 'PENDING')!;
    const active = subscriptions.find((subscription) => subscription.status === 'ACTIVE')!;
    const refused = await s.run(['subs', 'add-split', '--subscription', active.id, '--receiver', pending.id, '--amount', '100']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('returnCode -7702');
    expect(refused.stderr).toContain(`payctl sandbox approve ${pending.id}`);
    expect(refused.stderr).toContain(pending.name);
    expect(refused.stderr).not.toMatch(placeholder);
  });

  it("a card that is not the customer's: the customer whose cards to look at", async () => {
    const [first, other] = subscriptions.filter((subscription) => subscription.status === 'ACTIVE' && subscription.cardId);
    const otherCustomersCard = [...subscriptions].find((subscription) => subscription.customerId !== first!.customerId && subscription.cardId)!.cardId;
    expect(other).toBeDefined();
    const refused = await s.run(['subs', 'update', first!.id, '--card', otherCustomersCard]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`payctl customers get ${first!.customerId}`);
    expect(refused.stderr).not.toMatch(placeholder);
  });

  it('a card not found: how to find cards, with no placeholder', async () => {
    const refused = await s.run(['cards', 'get', '00000000-0000-4000-8000-000000000000']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('returnCode -7508');
    expect(refused.stderr).toContain('payctl cards get with no id');
    expect(refused.stderr).not.toMatch(placeholder);
  });

  it('a split the API no longer finds: the subscription to look at', async () => {
    const { fake, run } = await fakeApiSession();
    const id = 'abababab-abab-4bab-8bab-abababababab';
    const split = { id: 'cdcdcdcd-cdcd-4dcd-8dcd-cdcdcdcdcdcd', subaccountId: '33333333-3333-4333-8333-333333333333', splitType: 'AMOUNT' };
    const customerId = '77777777-7777-4777-8777-777777777777';
    const subscription = { id, title: 'Plano', amount: 990, frequency: 30, customerId, status: 'ACTIVE', splits: [split] };
    fake.handle((request, response) =>
      request.method === 'GET'
        ? sendJson(response, 200, { data: subscription, message: 'ok' })
        : sendJson(response, 404, { data: { message: 'split not found', returnCode: -7603 } }),
    );
    try {
      const refused = await run(['subs', 'remove-split', id, split.id, '--yes']);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(`hint: see its splits: payctl subs get ${id}`);
      expect(refused.stderr).not.toMatch(placeholder);
    } finally {
      await fake.close();
    }
  });
});
