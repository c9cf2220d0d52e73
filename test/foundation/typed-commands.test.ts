import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { RUN_DEADLINE_MS, startCli, tempConfigDir } from '../helpers/cli.js';
import { runInProcess } from '../helpers/in-process.js';
import { fakeJwt, sendJson, startFakeApi, type FakeApi, type RecordedRequest } from '../helpers/fake-api.js';
import { normalAnswer } from '../hardening/commands.js';
import { createApiClient, type RecordedRequest as DryRunRecord } from '../../src/http/client.js';

/**
 * What the typed command shape means for a user: every write of a --dry-run is
 * shown and none is sent, a flag a command does not declare is an unknown
 * option, and Ctrl-C reaches a command through the run's signal (a batch lets
 * its rows in flight finish, and a second Ctrl-C ends the run at once).
 */

const TOKEN = fakeJwt(Math.floor(Date.now() / 1000) + 3600);
const envFor = (url: string) => ({ PAYCTL_CONFIG_DIR: tempConfigDir(), PAYCTL_BASE_URL: url, PAYCTL_TOKEN: TOKEN });
const answerLikeTheApi = (request: RecordedRequest, response: ServerResponse) => {
  const answer = normalAnswer(request);
  sendJson(response, answer.status, answer.body);
};

async function withServer(handler: (request: RecordedRequest, response: ServerResponse) => void, test: (server: FakeApi) => Promise<void>) {
  const server = await startFakeApi(handler);
  try {
    await test(server);
  } finally {
    await server.close();
  }
}

describe.concurrent('--dry-run records every write and sends none', () => {
  it('the recording transport: GETs go out, two writes are recorded in order with the token redacted and secrets masked, none sent', async () => {
    await withServer(answerLikeTheApi, async (server) => {
      const recorded: DryRunRecord[] = [];
      const client = await createApiClient({ baseUrl: server.url, token: TOKEN, timeoutMs: RUN_DEADLINE_MS, record: (request) => recorded.push(request) });
      const balance = await client.send({ method: 'GET', path: '/withdrawals/balance' });
      const tokenized = await client.send({ method: 'POST', path: '/cards/tokenize', body: { holderName: 'ANA', cardNumber: '4111111111111111', securityCode: '739' } });
      const removed = await client.send({ method: 'DELETE', path: '/bank_accounts/7', query: { reason: 'closed' } });
      expect(balance.data).toMatchObject({ disponiblePixBalance: 1000 });
      expect([tokenized, removed]).toEqual([undefined, undefined]);
      expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual(['GET /withdrawals/balance']);
      expect(recorded.map((r) => `${r.method} ${r.url}`)).toEqual([`POST ${server.url}/cards/tokenize`, `DELETE ${server.url}/bank_accounts/7?reason=closed`]);
      expect(recorded[0]!.headers.authorization).toBe('Bearer ***');
      expect(recorded[0]!.body).toEqual({ holderName: 'ANA', cardNumber: '***', securityCode: '***' });
      expect(JSON.stringify(recorded)).not.toContain(TOKEN);
    });
  });

  it('api POST --dry-run -o json prints the request as one JSON object and sends nothing', async () => {
    await withServer(answerLikeTheApi, async (server) => {
      const result = await runInProcess(['api', 'POST', '/sandbox/balance', '--data', '{"pix":100}', '--dry-run', '-o', 'json'], { env: envFor(server.url) });
      expect(result.code, result.stderr).toBe(0);
      expect(JSON.parse(result.stdout)).toEqual({
        dryRun: true,
        method: 'POST',
        url: `${server.url}/sandbox/balance`,
        headers: expect.objectContaining({ authorization: 'Bearer ***', 'content-type': 'application/json' }),
        body: { pix: 100 },
      });
      expect(result.stderr).toBe('dry run: nothing was sent\n');
      expect(server.requests).toEqual([]);
    });
  });

  it('withdraw --dry-run reads what its summary needs, sends no POST, and prints the request it would send', async () => {
    await withServer(answerLikeTheApi, async (server) => {
      const args = ['withdraw', 'pix', '--amount', '1500', '--bank-account', '7', '--pix-key-type', 'email', '--pix-key', 'ana@example.com', '--dry-run'];
      const result = await runInProcess(args, { env: envFor(server.url) });
      expect(result.code, result.stderr).toBe(0);
      expect(server.requests.length).toBeGreaterThan(0);
      expect(server.requests.filter((r) => r.method !== 'GET')).toEqual([]);
      expect(result.stdout.startsWith(`POST ${server.url}/withdrawals/withdraw\n`)).toBe(true);
      expect(JSON.parse(result.stdout.slice(result.stdout.indexOf('{')))).toEqual({ withdrawalMethod: 'pix', amount: 1500, bankAccountId: 7, pixKeyType: 'EMAIL', pixKey: 'ana@example.com' });
    });
  });
});

describe.concurrent('flags are what each command declares', () => {
  it('a flag another command takes is an unknown option here: exit 2, nothing sent', async () => {
    await withServer(answerLikeTheApi, async (server) => {
      const card = await runInProcess(['withdraw', 'card', '--amount', '1500', '--bank-account', '7', '--pix-key', 'ana@example.com', '--yes'], { env: envFor(server.url) });
      expect(card.code).toBe(2);
      expect(card.stderr).toContain("error: unknown option '--pix-key'");
      const list = await runInProcess(['customers', 'list', '--yes'], { env: envFor(server.url) });
      expect(list.code).toBe(2);
      expect(list.stderr).toContain("error: unknown option '--yes'");
      expect(server.requests).toEqual([]);
    });
  });

  it('withdraw card --from-csv FILE is withdraw batch FILE --method card: the same plan, row for row', async () => {
    await withServer(answerLikeTheApi, async (server) => {
      const dir = mkdtempSync(path.join(tmpdir(), 'payctl-spelling-'));
      const file = path.join(dir, 'rows.csv');
      writeFileSync(file, 'amount,bank_account_id\n1500,7\n2500,7\n');
      const env = envFor(server.url);
      const spelled = await runInProcess(['withdraw', 'card', '--main-account', '--from-csv', file, '--dry-run', '-o', 'json'], { env });
      const batch = await runInProcess(['withdraw', 'batch', file, '--method', 'card', '--main-account', '--dry-run', '-o', 'json'], { env });
      expect(spelled.code, spelled.stderr).toBe(0);
      expect(JSON.parse(spelled.stdout)).toHaveLength(2);
      expect(JSON.parse(spelled.stdout)).toEqual(JSON.parse(batch.stdout));
      // Both read the platform's withdrawals for twins; neither writes.
      expect(server.requests.filter((request) => request.method !== 'GET')).toEqual([]);
    });
  });

  it('options that cannot go together are refused before any value is checked, naming both', async () => {
    const result = await runInProcess(['subs', 'add-split', '--subscription', 'not-a-uuid', '--amount', '100', '--percentage', '10'], { env: envFor('http://127.0.0.1:9') });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('error: --amount and --percentage cannot be used together: a split is a fixed amount or a percentage\n');
  });

  it('an argument is named in capitals in messages, as the contract writes it', async () => {
    const result = await runInProcess(['sandbox', 'settle', 'x', '--status', 'COMPLETED'], { env: envFor('http://127.0.0.1:9') });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('error: WITHDRAWAL_ID "x" is invalid: must be a UUID');
  });
});

/** A server that answers like the API but holds every withdrawal POST until `release`; `arrived(n)` waits for n of them. */
async function holdingWithdrawals() {
  const held: Array<() => void> = [];
  const server = await startFakeApi((request, response) => {
    if (request.method === 'POST') held.push(() => answerLikeTheApi(request, response));
    else answerLikeTheApi(request, response);
  });
  const arrived = async (count: number) => {
    while (held.length < count) await new Promise((resolve) => setTimeout(resolve, 20));
  };
  const release = () => held.splice(0).forEach((answer) => answer());
  return { server, arrived, release };
}

function batchFile(rows: number): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'payctl-ctrl-c-'));
  const file = path.join(dir, 'rows.csv');
  const lines = Array.from({ length: rows }, (_, i) => `${1000 + i},7,email,row${i}@example.com`);
  writeFileSync(file, `amount,bank_account_id,pix_key_type,pix_key\n${lines.join('\n')}\n`);
  return file;
}

/** A batch of 5 rows, 2 at a time, against `server`, with its 2 first POSTs held and then one Ctrl-C. */
async function batchInterruptedOnce({ server, arrived }: Awaited<ReturnType<typeof holdingWithdrawals>>) {
  const file = batchFile(5);
  const run = startCli(['withdraw', 'batch', file, '--method', 'pix', '--main-account', '--yes', '--concurrency', '2'], envFor(server.url));
  await arrived(2);
  run.child.kill('SIGINT');
  await run.waitFor(/stopping: waiting for the requests in flight/);
  return { file, run };
}

const journalRecords = (file: string) => readFileSync(`${file}.journal`, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { type: string });

describe.concurrent('Ctrl-C reaches the command through the run signal', () => {
  it('a batch: the first Ctrl-C lets the rows in flight finish and sends no more, exit 130', async () => {
    const holding = await holdingWithdrawals();
    const { server, release } = holding;
    try {
      const { file, run } = await batchInterruptedOnce(holding);
      release();
      const { code } = await run.done;
      expect(code, run.output().stderr).toBe(130);
      expect(server.requests.filter((r) => r.method === 'POST')).toHaveLength(2);
      expect(run.output().stderr).toMatch(/2 done \(2 now, 0 before, 0 reconciled\),?\s+0 failed, 0 unknown, 3 not sent/);
      expect(journalRecords(file).filter((r) => r.type === 'done')).toHaveLength(2);
    } finally {
      await server.close();
    }
  });

  it('a batch: a second Ctrl-C ends the run at once, naming the writes on the wire; their rows stay without an outcome', async () => {
    const holding = await holdingWithdrawals();
    const { server } = holding;
    try {
      const { file, run } = await batchInterruptedOnce(holding);
      run.child.kill('SIGINT');
      const { code } = await run.done;
      const { stderr } = run.output();
      expect(code, stderr).toBe(130);
      expect(stderr).toContain('error: interrupted: the 2 × POST /withdrawals/withdraw were sent and their outcome is unknown\n');
      expect(stderr).toContain('hint: check whether the POST took effect before retrying: payctl withdrawals list\n');
      expect(server.requests.filter((r) => r.method === 'POST')).toHaveLength(2);
      // The two rows on the wire and the two whose intents were written ahead of them stay without an outcome, as
      // after a crash: --reconcile settles them.
      const records = journalRecords(file);
      expect(records.filter((r) => r.type === 'intent')).toHaveLength(4);
      expect(records.filter((r) => ['done', 'failed', 'unknown', 'not-sent'].includes(r.type))).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it('sandbox start: Ctrl-C closes the sandbox and ends with 0', async () => {
    const run = startCli(['sandbox', 'start', '--port', '0', '--customers', '5'], { PAYCTL_CONFIG_DIR: tempConfigDir() });
    await run.waitFor(/listening on http/);
    run.child.kill('SIGINT');
    const { code } = await run.done;
    expect(code, run.output().stderr).toBe(0);
    expect(run.output().stderr).toContain('sandbox stopped\n');
  });
});
