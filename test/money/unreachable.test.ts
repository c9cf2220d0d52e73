import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csvFile, expectPaidOnce, fundedMainAccount, paidByKey, PIX_HEADER, pixKeys, pixRows } from './helpers.js';
import { startSandboxSession, type SandboxSession } from '../helpers/sandbox.js';

/**
 * A batch whose API stops answering connections: rows whose request never reached it
 * are `not sent` (not `failed`, which is the API's refusal), sending stops at the first
 * of them, the exit says a network failure (4), and a rerun pays exactly those rows once.
 */

interface ClosingProxy {
  url: string;
  /** Withdrawals passed on to the sandbox. */
  posts: number;
  /** Stops listening once `count` withdrawals have been passed on: later connections are refused. */
  closeAfter(count: number): void;
  /** Listens again on the same port (the journal names the base URL, so a rerun goes through it). */
  reopen(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A proxy on 127.0.0.1 in front of the sandbox. Every answer closes its connection, so each
 * request opens a new one: once the proxy stops listening, the next is refused at connect,
 * never written on a connection the proxy is closing (which would leave its outcome unknown).
 */
async function closingProxy(target: string): Promise<ClosingProxy> {
  let limit = Infinity;
  let server: http.Server;
  const proxy = {
    url: '',
    posts: 0,
    closeAfter: (count: number) => void (limit = count),
    reopen: async () => listen(port),
    close: () => new Promise<void>((resolve) => (server.listening ? server.close(() => resolve()) : resolve())),
  };
  const handle = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const withdrawal = req.method === 'POST' && req.url === '/withdrawals/withdraw';
      if (withdrawal && ++proxy.posts >= limit) {
        // Stop listening before the answer leaves: payctl's next connection is refused.
        limit = Infinity;
        server.close();
      }
      const upstream = http.request(`${target}${req.url}`, { method: req.method, headers: { ...req.headers, host: new URL(target).host } }, (answer) => {
        const body: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => body.push(chunk));
        answer.on('end', () => {
          const text = Buffer.concat(body);
          const headers = { ...answer.headers, 'content-length': String(text.length), connection: 'close' };
          delete headers['transfer-encoding'];
          res.writeHead(answer.statusCode ?? 502, headers);
          res.end(text);
        });
      });
      upstream.end(Buffer.concat(chunks));
    });
  };
  const listen = (at: number) =>
    new Promise<void>((resolve) => {
      server = http.createServer(handle);
      server.listen(at, '127.0.0.1', () => resolve());
    });
  await listen(0);
  const port = (server!.address() as AddressInfo).port;
  proxy.url = `http://127.0.0.1:${port}`;
  return proxy;
}

let session: SandboxSession;
let proxy: ClosingProxy;
let bank: string;
beforeAll(async () => {
  session = await startSandboxSession('acme');
  bank = await fundedMainAccount(session);
  proxy = await closingProxy(session.sandbox.url);
});
afterAll(async () => {
  await proxy?.close();
  await session?.close();
});

interface Row {
  line: number;
  outcome: string;
  error: string | null;
  pixKey: string;
}

describe('a batch whose API stops answering connections', () => {
  it('reports rows that never connected as not sent, stops at the first, exits 4, and a rerun pays exactly those once', async () => {
    const prefix = 'refused';
    const file = csvFile('payouts.csv', [PIX_HEADER, ...pixRows(prefix, 5, bank)]);
    const batch = () =>
      session.run(['withdraw', 'batch', file, '--method', 'pix', '--yes', '--main-account', '--concurrency', '1', '-o', 'json'], { env: { PAYCTL_BASE_URL: proxy.url } });
    proxy.closeAfter(2);
    const first = await batch();
    expect(first.code, first.stderr).toBe(4);
    const report = JSON.parse(first.stdout) as Row[];
    expect(report.map((row) => row.outcome)).toEqual(['sent', 'sent', 'not-sent', 'not-sent', 'not-sent']);
    expect(report[2]!.error).toMatch(/could not connect.*connection refused/);
    expect(report[3]!.error).toMatch(/^not sent: an earlier row's request never reached the API \(could not connect/);
    const { error } = JSON.parse(first.stderr) as { error: { message: string; exitCode: number } };
    expect(error).toMatchObject({ exitCode: 4, message: expect.stringMatching(/^3 of 5 rows are not paid: 3 not sent: the API could not be reached \(could not connect.*connection refused\), so sending stopped$/) });
    // Counted in the sandbox: the first two rows only.
    expect([...(await paidByKey(session, prefix)).keys()].sort()).toEqual(pixKeys(prefix, 2));
    // The journal: the refused row is not sent, not failed; the row written ahead of it is set aside not sent, and no row after that was started.
    const records = readFileSync(`${file}.journal`, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { type: string; line?: number });
    expect(records.filter((r) => r.type === 'intent').map((r) => r.line)).toEqual([2, 3, 4, 5]);
    expect(records.map((r) => r.type).filter((type) => !['batch', 'run', 'intent'].includes(type))).toEqual(['done', 'done', 'not-sent', 'not-sent']);

    await proxy.reopen();
    const rerun = await batch();
    expect(rerun.code, rerun.stderr).toBe(0);
    expect((JSON.parse(rerun.stdout) as Row[]).map((row) => row.outcome)).toEqual(['already-done', 'already-done', 'sent', 'sent', 'sent']);
    await expectPaidOnce(session, prefix, pixKeys(prefix, 5));
  });

  it('says so at the end of a run read by a person: not sent, apart from failed', async () => {
    const prefix = 'refused-table';
    const file = csvFile('payouts.csv', [PIX_HEADER, ...pixRows(prefix, 2, bank)]);
    proxy.closeAfter(proxy.posts + 1);
    const run = await session.run(['withdraw', 'batch', file, '--method', 'pix', '--yes', '--main-account', '--concurrency', '1'], { env: { PAYCTL_BASE_URL: proxy.url } });
    await proxy.reopen();
    expect(run.code, run.stderr).toBe(4);
    expect(run.stdout).toMatch(/^3\tnot-sent\t.*could not connect/m);
    expect(run.stderr).toContain('0 failed, 0 unknown, 1 not sent');
    expect(run.stderr).toMatch(/^error: 1 of 2 rows are not paid: 1 not sent: the API could not be reached/m);
    expect(run.stderr).toMatch(/^hint: nothing was sent for them; once the API answers, run the same command again/m);
    expect([...(await paidByKey(session, prefix)).keys()]).toEqual(pixKeys(prefix, 1));
  });
});
