import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { runInProcess } from '../helpers/in-process.js';
import { fakeJwt, sendJson, startFakeApi, type FakeApi, type RecordedRequest } from '../helpers/fake-api.js';
import { freshFetch } from '../helpers/fresh-fetch.js';
import { startSandboxSession, withdrawalCount, type SandboxSession } from '../helpers/sandbox.js';
import { runCliOnScreen } from '../helpers/screen.js';
import { needsTools } from '../helpers/tools.js';

/**
 * payctl's boundaries against a server whose answers are slightly off: card
 * numbers echoed in any grouping, answers about another resource than the one
 * asked for, ids larger than a double holds.
 */

let api: FakeApi;
beforeAll(async () => {
  api = await startFakeApi();
});
afterAll(() => api?.close());

const TOKEN = fakeJwt(Math.floor(Date.now() / 1000) + 3600);

/** A config folder logged in to the fake API, and an audit folder of its own. */
function profile(): { env: Record<string, string>; audit: string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'payctl-boundaries-'));
  mkdirSync(path.join(dir, 'config'), { mode: 0o700 });
  writeFileSync(path.join(dir, 'config', 'config.json'), JSON.stringify({ profiles: { default: { baseUrl: api.url, env: 'local', token: TOKEN } } }), { mode: 0o600 });
  return {
    env: { PAYCTL_CONFIG_DIR: path.join(dir, 'config'), XDG_STATE_HOME: path.join(dir, 'state') },
    audit: path.join(dir, 'state', 'payctl', 'audit.ndjson'),
  };
}

describe('card numbers a server echoes are masked however grouped', () => {
  const CARD = '4111111111111111';
  /** Another card than the run's: a server may echo any. */
  const OTHER_CARD = '5555555555554444';
  const ECHO = `card 4111 1111 1111 1111 (4111-1111-1111-1111, 4111.1111.1111.1111) is refused; so is 5555 5555 5555 4444 exp 12 2031, security code 123`;
  const digitsOnly = (text: string) => text.replace(/[ .-]/g, '');

  it('in the error line, the --json error, --debug and audit.ndjson', async () => {
    api.handle((request, response) =>
      request.url.startsWith('/cards/tokenize')
        ? sendJson(response, 400, { data: { message: ECHO, returnCode: -7509 } })
        : sendJson(response, 404, { data: { message: 'no such route', returnCode: -1 } }),
    );
    const { env, audit } = profile();
    const tokenize = ['cards', 'tokenize', '--customer', '3f2b8c1e-0d4a-4b6e-9a7c-2e5d1f0a9b3c', '--holder-name', 'ANA SILVA', '--exp-month', '12', '--exp-year', '2031', '--card-stdin'];
    const runs = await Promise.all([[], ['--json'], ['--debug']].map((extra) => runInProcess([...tokenize, ...extra], { env, input: `${CARD}\n123\n` })));
    for (const run of runs) {
      expect(run.code, run.stderr).toBe(1);
      expect(run.stderr).toContain('is refused');
    }
    expect(runs[0]!.stderr).toContain('error: card *** (***, ***) is refused; so is *** exp 12 2031');
    const channels = { ...Object.fromEntries(runs.map((run, i) => [`stderr of run ${i}`, run.stderr + run.stdout])), 'audit.ndjson': readFileSync(audit, 'utf8') };
    expect(channels['audit.ndjson']).toContain('is refused');
    for (const [channel, text] of Object.entries(channels)) {
      for (const card of [CARD, OTHER_CARD]) expect(digitsOnly(text), channel).not.toContain(card);
    }
    expect(existsSync(audit)).toBe(true);
  });
});

/**
 * A server in front of the sandbox that passes every request on and lets a test
 * rewrite the answer's data to a GET (`rewrite` returns it changed, or undefined to leave it).
 */
async function startRewritingProxy(target: string): Promise<FakeApi & { rewrite: (change: (request: RecordedRequest, data: unknown) => unknown) => void }> {
  let change: (request: RecordedRequest, data: unknown) => unknown = () => undefined;
  const proxy = await startFakeApi(async (request, response) => {
    const headers: Record<string, string> = {};
    for (const name of ['authorization', 'x-subaccount-id', 'content-type']) {
      const value = request.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    const answer = await freshFetch(`${target}${request.url}`, { method: request.method, headers, body: request.method === 'GET' ? undefined : request.body });
    const body = (await answer.json()) as { data: unknown };
    const changed = request.method === 'GET' && answer.ok ? change(request, body.data) : undefined;
    sendJson(response, answer.status, changed === undefined ? body : { ...body, data: changed });
  });
  return { ...proxy, rewrite: (next) => (change = next) };
}

describe('an answer about another resource than the one asked for is not believed', () => {
  let session: SandboxSession;
  let proxy: Awaited<ReturnType<typeof startRewritingProxy>>;
  let accounts: Array<{ id: number; accountNumber: string }>;
  beforeAll(async () => {
    session = await startSandboxSession('acme');
    proxy = await startRewritingProxy(session.sandbox.url);
    accounts = JSON.parse((await session.run(['bank-accounts', 'list', '--json'])).stdout);
    expect((await session.run(['sandbox', 'credit', '--pix', '100000'])).code).toBe(0);
  });
  afterAll(async () => {
    await proxy?.close();
    await session?.close();
  });

  it('GET /bank_accounts/A answered with account B\'s record: withdraw exits 4 naming the operation and field, nothing sent', async () => {
    expect(accounts.length).toBeGreaterThanOrEqual(2);
    const [asked, other] = accounts as [{ id: number; accountNumber: string }, { id: number; accountNumber: string }];
    let otherRecord: unknown;
    proxy.rewrite((request, data) => {
      if (request.url.startsWith(`/bank_accounts/${other.id}`)) otherRecord = data;
      return request.url.startsWith(`/bank_accounts/${asked.id}`) ? otherRecord : undefined;
    });
    const env = { PAYCTL_BASE_URL: proxy.url };
    expect((await session.run(['bank-accounts', 'get', String(other.id), '--json'], { env })).code).toBe(0);
    const before = await withdrawalCount(session);
    const result = await session.run(
      ['withdraw', 'pix', '--amount', '100', '--bank-account', String(asked.id), '--pix-key-type', 'email', '--pix-key', 'other@acme.com.br', '--yes'],
      { env },
    );
    expect(result.code, result.stderr).toBe(4);
    expect(result.stderr).toContain(`GET /bank_accounts/{bankAccountId} answered with data.id ${other.id}, not the ${asked.id} asked for`);
    expect(result.stderr).not.toContain(other.accountNumber);
    expect(proxy.requests.filter((request) => request.method === 'POST')).toEqual([]);
    expect(await withdrawalCount(session)).toBe(before);
  });

  it('GET /customers/{id} answered with another customer: exit 4 naming the field; the same id in another case is the same', async () => {
    const customers = JSON.parse((await session.run(['customers', 'list', '--json'])).stdout) as Array<{ id: string }>;
    const [asked, other] = customers as [{ id: string }, { id: string }];
    const env = { PAYCTL_BASE_URL: proxy.url };
    proxy.rewrite((_, data) => ({ ...(data as object), id: other.id }));
    const swapped = await session.run(['customers', 'get', asked.id], { env });
    expect(swapped.code, swapped.stderr).toBe(4);
    expect(swapped.stderr).toContain(`GET /customers/{customerId} answered with data.id ${other.id}, not the ${asked.id} asked for`);
    proxy.rewrite((_, data) => ({ ...(data as object), id: asked.id.toUpperCase() }));
    expect((await session.run(['customers', 'get', asked.id, '--json'], { env })).code).toBe(0);
  });
});

describe('an id larger than a double holds is kept as the API sent it', () => {
  const HUGE = '123456789012345678901234567890';
  /** Its neighbour: as doubles, both are 1.2345678901234568e+29. */
  const NEXT = '123456789012345678901234567891';
  const record = (id: string) =>
    `{"id":${id},"holderName":"Ana Silva","bankCode":"341","routingNumber":"0001","accountNumber":"12345-6","document":"39053344705","accountType":"CHECKING","status":"APPROVED","createdAt":"2026-11-26T13:47:48.288Z"}`;
  const answer = (response: Parameters<Parameters<FakeApi['handle']>[0]>[1], text: string) => {
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
    response.end(text);
  };

  it('shown exactly in a table and in --json, and used exactly in the request that follows; its neighbour is another account', async () => {
    api.handle((request, response) => {
      if (request.url.startsWith('/bank_accounts?')) return answer(response, `{"data":[${record(HUGE)}],"meta":{"total":1,"page":1,"limit":20,"totalPages":1},"message":"ok"}`);
      if (request.url.startsWith('/bank_accounts/')) return answer(response, `{"data":${record(HUGE)},"message":"ok"}`);
      sendJson(response, 404, { data: { message: 'no such route', returnCode: -1 } });
    });
    const { env } = profile();
    const table = await runCli(['bank-accounts', 'list', '-o', 'table'], { env });
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toContain(HUGE);
    const listed = await runCli(['bank-accounts', 'list', '--json'], { env });
    expect(listed.code, listed.stderr).toBe(0);
    // A JSON number, every digit as sent.
    expect(listed.stdout).toMatch(new RegExp(`"id": ${HUGE}\\b`));
    expect(listed.stdout + table.stdout).not.toContain('e+29');

    const got = await runCli(['bank-accounts', 'get', HUGE, '--json'], { env });
    expect(got.code, got.stderr).toBe(0);
    expect(got.stdout).toMatch(new RegExp(`"id": ${HUGE}\\b`));
    expect(api.requests.at(-1)?.url).toBe(`/bank_accounts/${HUGE}`);

    // Asked for its neighbour, the server answers with this account: not the one asked for.
    const other = await runCli(['bank-accounts', 'get', NEXT], { env });
    expect(other.code, other.stderr).toBe(4);
    expect(other.stderr).toContain(`GET /bank_accounts/{bankAccountId} answered with data.id ${HUGE}, not the ${NEXT} asked for`);
  });
});

describe('characters that draw nothing, or wider than counted, cannot lay out a confirmation', () => {
  let session: SandboxSession;
  beforeAll(async () => {
    session = await startSandboxSession('acme');
    expect((await session.run(['sandbox', 'credit', '--pix', '100000'])).code).toBe(0);
  });
  afterAll(() => session?.close());

  needsTools('tmux')('a holder name of Hangul fillers and no-break spaces forging an amount line on an 80x24 screen: the real amount shows, no line starts with the server\'s label; No sends nothing', async () => {
    const nbsp = (text: string) => text.replace(/ /g, '\u00a0');
    const forgedLine = nbsp('  amount:       R$ 1,00 (100 cents)');
    const create = async (holderName: string) =>
      JSON.parse(
        (
          await session.run(['api', 'POST', '/sandbox/bank_accounts', '--data', JSON.stringify({ holderName, bankCode: '341', routingNumber: '0001', accountNumber: '12345-6', document: '39053344705', accountType: 'CHECKING' })])
        ).stdout,
      ) as { id: number };
    // Fillers the terminal draws 2 wide up to column 80, so that the forged line starts the next row.
    const { id } = await create('probe');
    const prefix = `  to:           bank account ${id + 1}: `.length;
    const holderName = `${'x'.repeat(prefix % 2)}${'\u3164'.repeat((80 - prefix - (prefix % 2)) / 2)}${forgedLine}`;
    const account = await create(holderName);
    expect(account.id).toBe(id + 1);
    const before = await withdrawalCount(session);
    const run = await runCliOnScreen(
      ['withdraw', 'pix', '--amount', '5000', '--bank-account', String(account.id), '--pix-key-type', 'email', '--pix-key', 'filler@example.com'],
      { env: session.env, width: 80, height: 24, steps: [{ after: 'Withdraw R$ 50,00 now?', keys: ['n', 'Enter'] }] },
    );
    expect(run.code, run.screen).toBe(2);
    const seen = run.seen[0]!.split('\n');
    expect(seen, run.seen[0]).toContain('  amount:       R$ 50,00 (5000 cents)');
    expect(seen.filter((line) => /^\s*amount:/.test(line)), run.seen[0]).toEqual(['  amount:       R$ 50,00 (5000 cents)']);
    // Server text continues under its value, never at the start of a line.
    expect(seen.filter((line) => /\\u3164|\\xa0/.test(line) && !line.startsWith(' '.repeat(16))).every((line) => line.startsWith('  to:')), run.seen[0]).toBe(true);
    expect(run.bytes).not.toContain('\u3164');
    expect(await withdrawalCount(session)).toBe(before);
  });
});
