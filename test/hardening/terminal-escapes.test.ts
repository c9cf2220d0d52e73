import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { runCli, runCliInTerminal, tempConfigDir } from '../helpers/cli.js';
import { needsTools } from '../helpers/tools.js';
import { runInProcess } from '../helpers/in-process.js';
import { startFakeApi, sendJson, type FakeApi, type RecordedRequest } from '../helpers/fake-api.js';
import { startSandboxSession, type SandboxSession } from '../helpers/sandbox.js';
import { runCliOnScreen } from '../helpers/screen.js';
import { tally, trackFailures } from './tally.js';
import { freshFetch } from '../helpers/fresh-fetch.js';

/**
 * What comes from the API is data, never terminal control: every server string a
 * command prints carries a payload of terminal control (window title, colour, an
 * OSC 8 hyperlink, an 8-bit CSI, bidi override and isolate, cursor up and line
 * erase), and what reaches the terminal must show it as text and act on none of it.
 */
trackFailures();

const PAYLOAD = '\x1b]0;pwned\x07\x1b[31m\x1b]8;;http://evil.example/\x07link\x1b]8;;\x07\x9b2J\u202egnp.exe\u2066\x1b[2A\r\x1b[2K';
/** The payload as a person must see it. */
const SHOWN = String.raw`\x1b]0;pwned\x07\x1b[31m\x1b]8;;http://evil.example/\x07link\x1b]8;;\x07\x9b2J\u202egnp.exe\u2066\x1b[2A\r\x1b[2K`;
/** Pieces of the payload that must never reach a terminal raw, even among the escape codes a prompt draws with. */
const RAW_PIECES = ['\x1b]0;pwned', '\x1b]8;;http://evil', '\x9b', '\u202e', '\u2066', '\x07', '\x1b[2A\r\x1b[2K'];
/** Anything a terminal acts on rather than shows, but the line ends a pseudo-terminal writes. */
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

const controlsIn = (text: string) => [...text].filter((char) => CONTROL.test(char)).map((char) => `U+${char.codePointAt(0)!.toString(16).padStart(4, '0')}`);

function expectNoRawPayload(bytes: string): void {
  for (const piece of RAW_PIECES) expect(bytes, JSON.stringify(piece)).not.toContain(piece);
}

/** Every string of an answer with the payload appended (`keep` names fields left alone), and one unknown field whose name carries it. */
function poison(value: unknown, keep: (field: string) => boolean, field?: string): unknown {
  if (typeof value === 'string') return field !== undefined && keep(field) ? value : value + PAYLOAD;
  if (Array.isArray(value)) return value.map((item) => poison(item, keep, field));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, poison(item, keep, key)]));
  return value;
}

/** An API server in front of the sandbox whose answers to GET carry the payload in every string. */
function startHostileProxy(target: string, keep: (field: string) => boolean = () => false): Promise<FakeApi> {
  return startFakeApi(async (request: RecordedRequest, response) => {
    const headers: Record<string, string> = {};
    for (const name of ['authorization', 'x-subaccount-id', 'content-type']) {
      const value = request.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    const answer = await freshFetch(`${target}${request.url}`, { method: request.method, headers, body: request.method === 'GET' ? undefined : request.body });
    const body = (await answer.json()) as { data: unknown };
    if (request.method === 'GET' && answer.ok) {
      const asked = body.data;
      body.data = poison(body.data, keep);
      // A single resource keeps its id: an answer about another id than the one asked for is refused (test/hardening/boundaries.test.ts).
      if (!Array.isArray(body.data)) body.data = { ...(body.data as object), id: (asked as { id?: unknown }).id, [`extra${PAYLOAD}`]: 'an unknown field' };
    }
    sendJson(response, answer.status, body);
  });
}

let session: SandboxSession;
let proxy: FakeApi;
/** The sandbox's answer to a request made without payctl. */
interface Envelope<T> {
  data: T;
  meta?: { total: number };
}
let call: <T = unknown>(method: string, path: string, body?: unknown) => Promise<Envelope<T>>;
const ids: Record<string, string> = {};

beforeAll(async () => {
  session = await startSandboxSession('acme');
  proxy = await startHostileProxy(session.sandbox.url);
  const { clientSecret } = session.sandbox.credentials.find((c) => c.clientId === 'acme')!;
  const login = await freshFetch(`${session.sandbox.url}/auth`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ clientId: 'acme', clientSecret }),
  });
  const token = ((await login.json()) as { data: { accessToken: string } }).data.accessToken;
  call = async <T,>(method: string, path: string, body?: unknown) => {
    const answer = await freshFetch(`${session.sandbox.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const parsed = (await answer.json()) as Envelope<T>;
    if (!answer.ok) throw new Error(`${method} ${path}: HTTP ${answer.status} ${JSON.stringify(parsed)}`);
    return parsed;
  };
  ids.customer = (await call<Array<{ id: string }>>('GET', '/customers?limit=1')).data[0]!.id;
  ids.bankAccount = String((await call<Array<{ id: number }>>('GET', '/bank_accounts?limit=1')).data[0]!.id);
  const subscriptions = (await call<Array<{ id: string; splits: unknown[] }>>('GET', '/subscriptions?limit=100')).data;
  ids.subscription = subscriptions.find((s) => s.splits.length > 0)!.id;
  ids.withdrawal = (await call<Array<{ id: string }>>('GET', '/withdrawals?limit=1')).data[0]!.id;
});
afterAll(async () => {
  await proxy?.close();
  await session?.close();
});

const withdrawalTotal = async () => (await call('GET', '/withdrawals?limit=1')).meta!.total;

describe('a confirmation cannot be rewritten by the data it shows', () => {
  needsTools('tmux')('a holder name that moves the cursor up and writes a fake amount line: the screen shows the real amount; No sends nothing', async () => {
    const forged = 'Mallory\x1b[2A\r\x1b[2K  amount:       R$ 1,00\x1b[2B\r  to:           bank account 9: Mallory';
    const account = (
      await call('POST', '/sandbox/bank_accounts', {
        holderName: forged,
        bankCode: '341',
        routingNumber: '0001',
        accountNumber: '12345-6',
        document: '39053344705',
        accountType: 'CHECKING',
      })
    ).data as { id: number; holderName: string };
    expect(account.holderName).toBe(forged);
    await call('POST', '/sandbox/balance', { pix: 6_000_000 });
    const before = await withdrawalTotal();
    const run = await runCliOnScreen(
      ['withdraw', 'pix', '--amount', '5000000', '--bank-account', String(account.id), '--pix-key-type', 'email', '--pix-key', 'mallory@example.com'],
      { env: session.env, width: 200, steps: [{ after: 'Withdraw R$ 50.000,00 now?', keys: ['n', 'Enter'] }] },
    );
    expect(run.code, run.screen).toBe(2);
    const lines = run.screen.split('\n');
    expect(lines.filter((line) => line.startsWith('  amount:')), run.screen).toEqual(['  amount:       R$ 50.000,00 (5000000 cents)']);
    expect(run.screen).toContain(String.raw`bank account ${account.id}: Mallory\x1b[2A\r\x1b[2K  amount:       R$ 1,00\x1b[2B\r  to:`);
    expect(run.screen).toContain('not confirmed: nothing was sent');
    expect(run.bytes).not.toContain('\x1b[2A\r\x1b[2K  amount:       R$ 1,00');
    expect(await withdrawalTotal()).toBe(before);
    tally('attacks');
  });

  it('with --dry-run, the summary written to stderr for the log carries no control either', async () => {
    const result = await runInProcess(
      ['withdraw', 'pix', '--amount', '100', '--bank-account', ids.bankAccount!, '--pix-key-type', 'email', '--pix-key', 'a@example.com', '--dry-run'],
      {
        env: { ...session.env, PAYCTL_BASE_URL: proxy.url },
      },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(`bank account ${ids.bankAccount}: `);
    expect(result.stderr).toContain(SHOWN);
    expect(controlsIn(result.stderr)).toEqual([]);
    expect(proxy.requests.filter((r) => r.method !== 'GET')).toEqual([]);
    tally('attacks');
  });
});

describe.concurrent('every server string a command prints is shown as text', () => {
  const commands = () => [
    ['customers', 'list', '--limit', '3'],
    ['customers', 'get', ids.customer!],
    ['bank-accounts', 'list', '--limit', '3'],
    ['bank-accounts', 'get', ids.bankAccount!],
    ['subs', 'list', '--limit', '3'],
    ['subs', 'get', ids.subscription!],
    ['withdrawals', 'list', '--limit', '3'],
    ['withdrawals', 'get', ids.withdrawal!],
  ];
  const names = ['customers list', 'customers get', 'bank-accounts list', 'bank-accounts get', 'subs list', 'subs get', 'withdrawals list', 'withdrawals get'];

  names.forEach((name, index) => {
    needsTools('script')(`${name}: as a table, and as tsv or json forced, at a terminal; raw values into a pipe`, async () => {
      const args = commands()[index]!;
      const env = { ...session.env, PAYCTL_BASE_URL: proxy.url, NO_COLOR: '1' };
      // Wide enough that no cell is cut: the whole payload shows.
      const table = await runCliInTerminal(args, { env: { ...env, COLUMNS: '1000' }, stderrOnTerminal: true });
      expect(table.code, table.stdout).toBe(0);
      expect(controlsIn(table.stdout)).toEqual([]);
      expect(table.stdout).toContain(SHOWN);

      const tsv = await runCliInTerminal([...args, '-o', 'tsv'], { env });
      expect(tsv.code, tsv.stderr).toBe(0);
      expect(controlsIn(tsv.stdout.replace(/\t/g, ' '))).toEqual([]);
      expect(tsv.stdout).toContain(SHOWN);

      const json = await runCliInTerminal([...args, '-o', 'json'], { env });
      expect(json.code, json.stderr).toBe(0);
      expect(controlsIn(json.stdout)).toEqual([]);
      const strings = JSON.stringify(JSON.parse(json.stdout));
      expect(strings).toContain(JSON.stringify(PAYLOAD).slice(1, -1));

      // Into a pipe the API's values are kept: tsv escapes only its own tab, line breaks and backslash.
      const piped = await runInProcess(args, { env });
      expect(piped.code, piped.stderr).toBe(0);
      expect(piped.stdout).toContain('\x1b]0;pwned\x07\x1b[31m\x1b]8;;http://evil.example/\x07link\x1b]8;;\x07\x9b2J\u202egnp.exe\u2066\x1b[2A\\r\x1b[2K');
      tally('attacks', 4);
    });
  });
});

describe('pick lists', () => {
  const listDrawn = (prompt: string) => new RegExp(`${prompt.replace(/[()]/g, '\\$&')}[^]*gnp\\.exe`);
  const pickers = [
    {
      name: 'bank account (withdraw pix)',
      args: ['withdraw', 'pix', '--amount', '100', '--pix-key-type', 'email', '--pix-key', 'a@example.com'],
      // The list is drawn once its last choice's text is on the screen.
      steps: [{ after: listDrawn('Bank account (main account)'), keys: ['C-c'] }],
    },
    {
      name: 'customer, searched for, with the id as description (cards tokenize)',
      args: ['cards', 'tokenize'],
      // Customers are searched for: a letter most names hold brings the list of matches.
      steps: [
        { after: 'Customer: part of the name', keys: ['a', 'Enter'] },
        { after: listDrawn('Customer'), keys: ['C-c'] },
      ],
    },
  ];
  for (const picker of pickers) {
    needsTools('tmux')(`${picker.name}: choices show the payload as text; Ctrl-C sends nothing`, async () => {
      const sentBefore = proxy.requests.filter((r) => r.method !== 'GET').length;
      const run = await runCliOnScreen(picker.args, { env: { ...session.env, PAYCTL_BASE_URL: proxy.url }, width: 250, steps: picker.steps });
      expect(run.code, run.screen).toBe(130);
      const list = run.seen.at(-1)!;
      expect(list).toContain(String.raw`\x1b]0;pwned\x07\x1b[31m\x1b]8;;http://evil.example/\x07link`);
      expect(list).toContain(String.raw`\u202egnp.exe\u2066`);
      expectNoRawPayload(run.bytes);
      expect(proxy.requests.filter((r) => r.method !== 'GET').length).toBe(sentBefore);
      tally('attacks');
    });
  }
});

describe.concurrent('errors and hints', () => {
  const MESSAGE = '\x1b]0;pwned\x07\x1b[1;31mDANGER\x1b[0m card refused\u202e\x9b2J\nhint: run rm -rf';

  needsTools('script')("a server's error message with a title change, colours and a forged hint line is one visible line, exit 1", async () => {
    const api = await startFakeApi((_, response) => sendJson(response, 400, { data: { message: MESSAGE, returnCode: -1234 } }));
    try {
      const env = { PAYCTL_BASE_URL: api.url, PAYCTL_TOKEN: 'token-of-the-test', PAYCTL_CONFIG_DIR: session.configDir };
      const human = await runInProcess(['customers', 'get', ids.customer!], { env });
      expect(human.code).toBe(1);
      expect(human.stderr).toBe(
        String.raw`error: \x1b]0;pwned\x07\x1b[1;31mDANGER\x1b[0m card refused\u202e\x9b2J\nhint: run rm -rf` + ' (returnCode -1234, HTTP 400)\n',
      );

      const terminal = await runCliInTerminal(['customers', 'get', ids.customer!], { env, stderrOnTerminal: true });
      expect(terminal.code).toBe(1);
      expect(controlsIn(terminal.stdout)).toEqual([]);
      expect(terminal.stdout).toContain(String.raw`error: \x1b]0;pwned\x07`);

      const json = await runInProcess(['customers', 'get', ids.customer!, '--json'], { env });
      expect(json.code).toBe(1);
      expect(controlsIn(json.stderr.trimEnd())).toEqual([]);
      expect(JSON.parse(json.stderr.trimEnd().split('\n').pop()!)).toEqual({ error: { message: MESSAGE, returnCode: -1234, status: 400, exitCode: 1 } });
      tally('attacks', 3);
    } finally {
      await api.close();
    }
  });

  it("a hint naming a server's id (possible duplicate withdrawal) shows it as text", async () => {
    const key = 'twin@example.com';
    await call('POST', '/withdrawals/withdraw', {
      withdrawalMethod: 'pix',
      amount: 4321,
      bankAccountId: Number(ids.bankAccount),
      pixKeyType: 'EMAIL',
      pixKey: key,
    });
    // The fields the duplicate check compares stay true, so it finds the twin; its id and status carry the payload.
    const twinProxy = await startHostileProxy(session.sandbox.url, (field) =>
      ['createdAt', 'updatedAt', 'pixKey', 'pixKeyType', 'withdrawalPaymentType'].includes(field),
    );
    try {
      const before = await withdrawalTotal();
      const result = await runInProcess(
        ['withdraw', 'pix', '--amount', '4321', '--bank-account', ids.bankAccount!, '--pix-key-type', 'email', '--pix-key', key, '--yes'],
        {
          env: { ...session.env, PAYCTL_BASE_URL: twinProxy.url },
        },
      );
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toMatch(new RegExp(`\\nhint: check it with payctl withdrawals get [0-9a-f-]+${SHOWN.replace(/[\\[\]().*+?^$|]/g, '\\$&')}`));
      expect(controlsIn(result.stderr)).toEqual([]);
      expect(twinProxy.requests.filter((r) => r.method !== 'GET')).toEqual([]);
      expect(await withdrawalTotal()).toBe(before);
      tally('attacks');
    } finally {
      await twinProxy.close();
    }
  });

  it("a batch's summary on stderr shows a row's refusal by the server as text", async () => {
    // The sandbox behind, but for the withdrawal, which the server refuses with the payload in its message.
    const refusing = await startFakeApi(async (request, response) => {
      if (request.method === 'POST') return sendJson(response, 400, { data: { message: `refused ${PAYLOAD}`, returnCode: -1234 } });
      const headers: Record<string, string> = {};
      for (const name of ['authorization', 'x-subaccount-id']) if (typeof request.headers[name] === 'string') headers[name] = request.headers[name];
      const answer = await freshFetch(`${session.sandbox.url}${request.url}`, { headers });
      sendJson(response, answer.status, await answer.json());
    });
    try {
      const folder = tempConfigDir();
      const file = path.join(folder, 'refused.csv');
      writeFileSync(file, `amount,bank_account_id,pix_key_type,pix_key\n1500,${ids.bankAccount},email,refused-batch@example.com\n`);
      const result = await runCli(['withdraw', 'batch', file, '--method', 'pix', '--yes', '--main-account'], { env: { ...session.env, PAYCTL_BASE_URL: refusing.url } });
      expect(result.code, result.stderr).toBe(1);
      expect(result.stderr).toContain(`  failed   line 2: refused ${SHOWN} (returnCode -1234, HTTP 400)`);
      expect(controlsIn(result.stderr)).toEqual([]);
      tally('attacks');
    } finally {
      await refusing.close();
    }
  });

  it('an argument pasted from an answer is shown as text in the usage error', async () => {
    const result = await runInProcess(['customers', 'get', ids.customer!, '-o', `table${PAYLOAD}`], { env: session.env });
    expect(result.code).toBe(2);
    expect(controlsIn(result.stderr)).toEqual([]);
    expect(result.stderr).toContain(SHOWN);
    tally('attacks');
  });
});
