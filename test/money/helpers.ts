import { spawnSync } from 'node:child_process';
import http from 'node:http';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect } from 'vitest';
import { tempConfigDir } from '../helpers/cli.js';
import { sendJson, serveOnLoopback, type RecordedRequest } from '../helpers/fake-api.js';
import { freshFetch } from '../helpers/fresh-fetch.js';
import { sandboxToken, sandboxWithdrawals, startSandboxSession, type SandboxSession } from '../helpers/sandbox.js';
import { startWorkers, type PayctlWorker } from '../helpers/workers.js';

export { sandboxToken, sandboxWithdrawals, withdrawalCount, type SandboxWithdrawal } from '../helpers/sandbox.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));

/** A `--require` shim of test/money/shims, for NODE_OPTIONS. */
export const shim = (name: string) => `--require ${path.join(HERE, 'shims', `${name}.cjs`)}`;

/** How many withdrawals of the sandbox went to each PIX key with the given prefix. */
export async function paidByKey(session: SandboxSession, prefix: string): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const w of await sandboxWithdrawals(session)) if (w.pixKey?.startsWith(prefix)) counts.set(w.pixKey, (counts.get(w.pixKey) ?? 0) + 1);
  return counts;
}

/** Asserts that each of `keys` was paid exactly once, and nothing else with the prefix was. */
export async function expectPaidOnce(session: SandboxSession, prefix: string, keys: readonly string[]): Promise<void> {
  expect(keys.length).toBeGreaterThan(0);
  const counts = await paidByKey(session, prefix);
  const wrong = keys.filter((key) => counts.get(key) !== 1).map((key) => `${key}: ${counts.get(key) ?? 0}`);
  expect(wrong, 'rows not paid exactly once').toEqual([]);
  expect([...counts.values()].reduce((a, b) => a + b, 0)).toBe(keys.length);
}

/** Writes a CSV file (lines joined with `\n`, a final newline) into a fresh folder; returns its path. */
export function csvFile(name: string, lines: readonly string[], dir = tempConfigDir()): string {
  const file = path.join(dir, name);
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

export const PIX_HEADER = 'amount,bank_account_id,pix_key_type,pix_key';

/** `count` PIX rows to `PREFIX-i@example.com`, amounts from `firstAmount` up. */
export function pixRows(prefix: string, count: number, bankAccount: string | number, firstAmount = 10_000): string[] {
  return Array.from({ length: count }, (_, i) => `${firstAmount + i},${bankAccount},email,${prefix}-${i}@example.com`);
}
export const pixKeys = (prefix: string, count: number) => Array.from({ length: count }, (_, i) => `${prefix}-${i}@example.com`);

/** A process id that no process has now: a child that has exited (`true`; a Node started for it cost about 0.1 s of CPU). */
export const deadPid = () => spawnSync('true').pid!;

/** Credits the main account and returns its first bank account. */
export async function fundedMainAccount(session: SandboxSession): Promise<string> {
  const credit = await session.run([
    'api',
    'POST',
    '/sandbox/balance',
    '--main-account',
    '--data',
    JSON.stringify({ pix: 900_000_000, card: 900_000_000, billet: 900_000_000 }),
  ]);
  expect(credit.code, credit.stderr).toBe(0);
  const bank = (await session.run(['bank-accounts', 'list', '--main-account', '--fields', 'id', '-o', 'tsv'])).stdout.split('\n')[0]!;
  expect(bank).toMatch(/^\d+$/);
  return bank;
}

/** Makes a PIX withdrawal through the sandbox's own API, as a colleague's tool would: not through payctl, nor any proxy. */
export async function colleagueWithdraws(
  session: SandboxSession,
  bankAccount: string,
  amount: number,
  key: string,
  extra: { postbackUrl?: string } = {},
): Promise<void> {
  const answer = await freshFetch(`${session.sandbox.url}/withdrawals/withdraw`, {
    method: 'POST',
    headers: { authorization: `Bearer ${await sandboxToken(session)}`, 'content-type': 'application/json' },
    body: JSON.stringify({ withdrawalMethod: 'pix', amount, bankAccountId: Number(bankAccount), pixKeyType: 'EMAIL', pixKey: key, ...extra }),
  });
  expect(answer.ok, await answer.text()).toBe(true);
}

/**
 * What a proxy does with one request: pass it on; pass it on and then cut the
 * connection without answering (the API acted, the client never hears); cut it
 * without passing it on (nothing happened); or pass it on and answer 500 with the
 * API's error body (the API acted, then reported a failure).
 */
export type ProxyAction = 'forward' | 'lose-answer' | 'drop' | 'answer-500';

export interface Proxy {
  url: string;
  /** POSTs that reached the proxy, in order. */
  posts: RecordedRequest[];
  setRule(rule: (request: RecordedRequest, postIndex: number) => ProxyAction): void;
  /** Holds each GET that `hold` answers a promise for until it settles, then passes it on. */
  holdGets(hold: (request: RecordedRequest) => Promise<void> | undefined): void;
  /** Holds each POST that `hold` answers a promise for (given its index among POSTs) until it settles, then passes it on. */
  holdPosts(hold: (request: RecordedRequest, postIndex: number) => Promise<void> | undefined): void;
  /** Holds the server's answer to each POST that `hold` answers a promise for until it settles: the API has acted, the client waits. */
  holdAnswers(hold: (request: RecordedRequest, postIndex: number) => Promise<void> | undefined): void;
  /** Answers each GET with what `rewrite` makes of the server's answer body. */
  rewriteGets(rewrite: (request: RecordedRequest, body: string) => string): void;
  /** Answers every request with the `Date` header `rewrite` makes of the server's (undefined: none at all). */
  rewriteDates(rewrite: (date: string) => string | undefined): void;
  close(): Promise<void>;
}

/** A proxy on 127.0.0.1 in front of a real server (the sandbox), misbehaving on the requests the rule picks. */
export async function startProxy(target: string, rule: (request: RecordedRequest, postIndex: number) => ProxyAction = () => 'forward'): Promise<Proxy> {
  let current = rule;
  let holdGet: (request: RecordedRequest) => Promise<void> | undefined = () => undefined;
  let holdPost: (request: RecordedRequest, postIndex: number) => Promise<void> | undefined = () => undefined;
  let holdAnswer: (request: RecordedRequest, postIndex: number) => Promise<void> | undefined = () => undefined;
  let rewriteGet = (_: RecordedRequest, body: string) => body;
  let rewriteDate = (date: string): string | undefined => date;
  const posts: RecordedRequest[] = [];
  const server = await serveOnLoopback(async (request, req, res) => {
    const action = request.method === 'POST' ? current(request, posts.push(request) - 1) : 'forward';
    if (action === 'drop') return void req.socket.destroy();
    if (request.method === 'GET') await holdGet(request);
    else if (request.method === 'POST') await holdPost(request, posts.indexOf(request));
    const upstream = http.request(
      `${target}${request.url}`,
      { method: request.method, headers: { ...request.headers, host: new URL(target).host } },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', async () => {
          if (request.method === 'POST') await holdAnswer(request, posts.indexOf(request));
          if (action === 'lose-answer') return void req.socket.destroy();
          if (action === 'answer-500') return sendJson(res, 500, { data: { message: 'internal error while processing', returnCode: -7000 } });
          const body = request.method === 'GET' ? Buffer.from(rewriteGet(request, Buffer.concat(chunks).toString('utf8'))) : Buffer.concat(chunks);
          const headers = { ...answer.headers, 'content-length': String(body.length) };
          delete headers['transfer-encoding'];
          const date = rewriteDate(answer.headers.date ?? '');
          if (date === undefined) {
            res.sendDate = false;
            delete headers.date;
          } else headers.date = date;
          res.writeHead(answer.statusCode ?? 502, headers);
          res.end(body);
        });
      },
    );
    upstream.on('error', () => req.socket.destroy());
    upstream.end(request.body);
  });
  return {
    url: `http://127.0.0.1:${server.port}`,
    posts,
    setRule: (next) => (current = next),
    holdGets: (hold) => (holdGet = hold),
    holdPosts: (hold) => (holdPost = hold),
    holdAnswers: (hold) => (holdAnswer = hold),
    rewriteGets: (rewrite) => (rewriteGet = rewrite),
    rewriteDates: (rewrite) => (rewriteDate = rewrite),
    close: server.close,
  };
}

/**
 * A PIX batch of the main account, one row at a time, through `proxy` (the journal remembers that
 * base URL, so every run goes through it). A NODE_OPTIONS shim acts only in a new process; other
 * runs are in-process.
 */
export const pixBatchThrough = (session: SandboxSession, proxy: Proxy, file: string, extra: string[] = [], env: Record<string, string> = {}) =>
  (env.NODE_OPTIONS ? session.runProcess : session.run)(['withdraw', 'batch', file, '--method', 'pix', '--yes', '--main-account', '--concurrency', '1', ...extra], {
    env: { PAYCTL_BASE_URL: proxy.url, ...env },
  });

/** For a file's tests: a sandbox with a funded main account behind a proxy, started before them and closed after. */
/**
 * A sandbox for runs started together: its answers take 100 ms, as across a network, so that they overlap even on
 * a busy machine; a funded main account; and `workerCount` payctl processes kept up (test/helpers/workers.ts), so
 * that runs given one start time begin together without waiting for Node to start.
 */
export interface RacingSandbox {
  session: SandboxSession;
  bank: string;
  workers: PayctlWorker[];
  close(): Promise<void>;
}

export async function startRacingSandbox(workerCount: number): Promise<RacingSandbox> {
  const session = await startSandboxSession('acme', { latencyMs: 100 });
  const bank = await fundedMainAccount(session);
  const workers = startWorkers(workerCount);
  const close = async () => {
    await Promise.all(workers.map((worker) => worker.close()));
    await session.close();
  };
  return { session, bank, workers, close };
}

export function sandboxBehindProxy(): { session: SandboxSession; proxy: Proxy; bank: string } {
  const world = {} as { session: SandboxSession; proxy: Proxy; bank: string };
  beforeAll(async () => {
    world.session = await startSandboxSession('acme');
    world.bank = await fundedMainAccount(world.session);
    world.proxy = await startProxy(world.session.sandbox.url);
  });
  afterAll(async () => {
    await world.proxy?.close();
    await world.session?.close();
  });
  return world;
}
