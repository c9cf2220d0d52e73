import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net, { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, RUN_DEADLINE_MS, runCli, startCli, tempConfigDir } from '../helpers/cli.js';
import { runInProcess } from '../helpers/in-process.js';
import { closedPort, fakeJwt, sendJson, startFakeApi, type FakeApi, type RecordedRequest } from '../helpers/fake-api.js';
import { normalAnswer } from '../hardening/commands.js';
import { sendHugeBody } from '../helpers/fault-server.js';
import { sandboxWithdrawals, startSandboxSession } from '../helpers/sandbox.js';
import { csvFile, fundedMainAccount, PIX_HEADER, pixKeys, pixRows } from '../money/helpers.js';
import { startForwardProxy } from '../network/forward-proxy.js';

/**
 * What the exit code says about a write: a 5xx to a POST, PUT or DELETE is an
 * unknown outcome (5) with the command that checks it; a TLS or connection
 * failure before the request went out is safe to retry (4); Ctrl-C with a write
 * on the wire says so and how to check (130).
 */

const TOKEN = fakeJwt(Math.floor(Date.now() / 1000) + 3600);
const envFor = (url: string, extra: Record<string, string> = {}) => ({
  PAYCTL_CONFIG_DIR: tempConfigDir(),
  PAYCTL_BASE_URL: url,
  PAYCTL_TOKEN: TOKEN,
  ...extra,
});
const API_500 = { data: { message: 'internal error while processing', returnCode: -7000 } };
const WITHDRAW = ['withdraw', 'pix', '--amount', '1500', '--bank-account', '7', '--pix-key-type', 'email', '--pix-key', 'ana@example.com', '--yes'];

async function withServer(handler: (request: RecordedRequest, response: import('node:http').ServerResponse) => void, test: (server: FakeApi) => Promise<void>) {
  const server = await startFakeApi(handler);
  try {
    await test(server);
  } finally {
    await server.close();
  }
}

/** Answers like the API, but `failing` requests get a 500 with the API's error body. */
const failWith500 = (failing: (request: RecordedRequest) => boolean) => (request: RecordedRequest, response: import('node:http').ServerResponse) => {
  if (failing(request)) return sendJson(response, 500, API_500);
  const answer = normalAnswer(request);
  return sendJson(response, answer.status, answer.body);
};

describe.concurrent('a 5xx answer', () => {
  it('to a withdrawal POST: exit 5, outcome unknown, sent once, with the command that checks it', async () => {
    await withServer(failWith500((r) => r.method === 'POST'), async (server) => {
      const result = await runInProcess(WITHDRAW, { env: envFor(server.url) });
      expect(result.code, result.stderr).toBe(5);
      expect(result.stderr).toContain(
        "error: internal error while processing: the server failed, so the POST's outcome is unknown (returnCode -7000, HTTP 500)\n",
      );
      expect(result.stderr).toContain('hint: check whether the POST took effect before retrying: payctl withdrawals list\n');
      expect(server.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
      expect(result.stdout).toBe('');
    });
  });

  it('to a PUT and a DELETE: exit 5, naming the get command of that resource', async () => {
    const id = '3f2b8c1e-0d4a-4b6e-9a7c-2e5d1f0a9b3c';
    await withServer(failWith500((r) => r.method !== 'GET'), async (server) => {
      const put = await runInProcess(['customers', 'update', id, '--first-name', 'Ana'], { env: envFor(server.url) });
      expect(put.code, put.stderr).toBe(5);
      expect(put.stderr).toContain(`hint: check whether the PUT took effect before retrying: payctl customers get ${id}\n`);
      const del = await runInProcess(['subs', 'cancel', id, '--yes'], { env: envFor(server.url) });
      expect(del.code, del.stderr).toBe(5);
      expect(del.stderr).toContain(`hint: check whether the DELETE took effect before retrying: payctl subs get ${id}\n`);
      expect(server.requests.filter((r) => r.method !== 'GET')).toHaveLength(2);
    });
  });

  it('to a GET, even with an API error body: retried, then exit 4 (nothing took effect)', async () => {
    await withServer(failWith500(() => true), async (server) => {
      const result = await runInProcess(['balance'], { env: envFor(server.url) });
      expect(result.code, result.stderr).toBe(4);
      expect(result.stderr).toContain('error: internal error while processing: the server failed (returnCode -7000, HTTP 500)\n');
      expect(server.requests).toHaveLength(3);
    });
  });

  it('with -o json: the JSON error says exit 5', async () => {
    await withServer(failWith500((r) => r.method === 'POST'), async (server) => {
      const result = await runInProcess([...WITHDRAW, '-o', 'json'], { env: envFor(server.url) });
      expect(result.code).toBe(5);
      expect(JSON.parse(result.stderr.trim().split('\n').pop()!).error).toMatchObject({ returnCode: -7000, status: 500, exitCode: 5 });
    });
  });
});

/**
 * To `method`, a body over 32 MiB: announced, its Content-Length says so and then only its first bytes
 * come (payctl must refuse it at the headers, not wait for the rest); else it is sent whole, chunked.
 * The API's answers to the rest.
 */
const hugeAnswer = (method: string, announced: boolean) => (request: RecordedRequest, response: import('node:http').ServerResponse) => {
  if (request.method === method && announced) {
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': 40 * 1024 * 1024 });
    return void response.write('{"data":{"padding":"');
  }
  if (request.method === method) return sendHugeBody(response, { announced: false });
  const answer = normalAnswer(request);
  return sendJson(response, answer.status, answer.body);
};

describe.concurrent('an answer larger than 32 MiB, its length announced or not', () => {
  for (const announced of [true, false]) {
    const how = announced ? 'announced in Content-Length' : 'chunked';
    // Announced, only the first bytes come: a payctl that did not refuse it at the headers would wait for its
    // --timeout (the default 30 s) and fail the test. Chunked, the whole body comes, at whatever speed the machine
    // has: from a server in this process, which a busy machine stalled past 30 s (load 41), so the run's --timeout
    // is its deadline's.
    const timeout = announced ? [] : ['--timeout', String(RUN_DEADLINE_MS / 1000)];
    it(`${how}, to a GET: exit 4, nothing kept, not asked again`, async () => {
      await withServer(hugeAnswer('GET', announced), async (server) => {
        const result = await runInProcess(['balance', ...timeout], { env: envFor(server.url) });
        expect(result.code, result.stderr).toBe(4);
        expect(result.stderr).toContain('error: the response is larger than 32 MiB\n');
        expect(result.stderr).toContain("hint: asked again, it would be as large. The API's answers are far smaller: check the base URL (payctl auth status)\n");
        expect(result.stdout).toBe('');
        expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual(['GET /withdrawals/balance']);
      });
    });

    it(`${how}, to a withdrawal POST: exit 5, outcome unknown, sent once`, async () => {
      await withServer(hugeAnswer('POST', announced), async (server) => {
        const result = await runInProcess([...WITHDRAW, ...timeout], { env: envFor(server.url) });
        expect(result.code, result.stderr).toBe(5);
        expect(result.stderr).toContain('the response is larger than 32 MiB');
        expect(result.stderr).toMatch(/outcome is unknown|check whether/);
        expect(server.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
        expect(result.stdout).toBe('');
      });
    });
  }
});

/** A self-signed certificate for `names` (by default 127.0.0.1 and localhost), made for this run: its file (for NODE_EXTRA_CA_CERTS), its key and itself. */
async function selfSignedCertificate(names = 'IP:127.0.0.1,DNS:localhost'): Promise<{ certFile: string; key: Buffer; cert: Buffer }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'payctl-tls-'));
  const certFile = path.join(dir, 'cert.pem');
  const keyFile = path.join(dir, 'key.pem');
  await promisify(execFile)('openssl', [
    ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', keyFile, '-out', certFile],
    ...['-subj', '/CN=payctl test', '-addext', `subjectAltName=${names}`, '-days', '1'],
  ]);
  return { certFile, key: readFileSync(keyFile), cert: readFileSync(certFile) };
}

describe('TLS', () => {
  let certFile: string;
  let server: https.Server;
  let url: string;
  const reached: string[] = [];

  beforeAll(async () => {
    const certificate = await selfSignedCertificate();
    certFile = certificate.certFile;
    server = https.createServer({ key: certificate.key, cert: certificate.cert }, (req, res) => {
      reached.push(`${req.method} ${req.url}`);
      const recorded = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: '' };
      req.resume().on('end', () => {
        const answer = normalAnswer(recorded);
        sendJson(res, answer.status, answer.body);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('a certificate this machine does not trust: exit 4 for a GET and for a POST, nothing reached the server, hint naming NODE_EXTRA_CA_CERTS', async () => {
    for (const args of [
      ['balance'],
      ['sandbox', 'credit', '--pix', '100'],
      ['api', 'POST', '/withdrawals/withdraw', '--data', '{"withdrawalMethod":"boleto","amount":1500,"bankAccountId":7}'],
    ]) {
      const result = await runInProcess(args, { env: envFor(url) });
      expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(4);
      expect(result.stderr).toMatch(/^error: the TLS certificate of 127\.0\.0\.1:\d+ was refused: self-signed certificate \(DEPTH_ZERO_SELF_SIGNED_CERT\)\n/);
      expect(result.stderr).toMatch(/\nhint: nothing was sent\. .*NODE_EXTRA_CA_CERTS=\/path\/to\/ca\.pem payctl/);
      // Node 22.15 and later can read the system's store; the hint says how only where it can.
      expect(result.stderr.includes('NODE_OPTIONS=--use-system-ca payctl')).toBe(process.allowedNodeEnvironmentFlags.has('--use-system-ca'));
      expect(result.stderr).not.toMatch(/outcome is unknown/);
    }
    expect(reached).toEqual([]);
  });

  it('with its certificate in NODE_EXTRA_CA_CERTS, the same commands succeed', async () => {
    const result = await runCli(['sandbox', 'credit', '--pix', '100', '--json'], { env: envFor(url, { NODE_EXTRA_CA_CERTS: certFile }) });
    expect(result.code, result.stderr).toBe(0);
    expect(reached).toContain('POST /sandbox/balance');
  });

  it('a connection closed during the TLS handshake: a POST is exit 4 (nothing was written), not 5', async () => {
    const closer = net.createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => closer.listen(0, '127.0.0.1', resolve));
    try {
      const result = await runInProcess(['sandbox', 'credit', '--pix', '100'], { env: envFor(`https://127.0.0.1:${(closer.address() as AddressInfo).port}`) });
      expect(result.code, result.stderr).toBe(4);
      expect(result.stderr).toContain('hint: nothing took effect; it is safe to retry');
    } finally {
      closer.close();
    }
  });
});

describe.concurrent('Ctrl-C (SIGINT)', () => {
  /** A server that answers reads like the API and holds every `held` request open; resolves `arrived` when the first comes. */
  async function holdingServer(held: (request: RecordedRequest) => boolean) {
    let arrived!: () => void;
    const first = new Promise<void>((resolve) => (arrived = resolve));
    const server = await startFakeApi((request, response) => {
      if (held(request)) return arrived();
      const answer = normalAnswer(request);
      sendJson(response, answer.status, answer.body);
    });
    return { server, arrived: first };
  }

  it('while a withdrawal POST is on the wire: exit 130, saying its outcome is unknown and how to check', async () => {
    const { server, arrived } = await holdingServer((r) => r.method === 'POST');
    try {
      const run = startCli(WITHDRAW, envFor(server.url));
      await arrived;
      run.child.kill('SIGINT');
      const result = await run.done;
      expect(result.code, result.stderr).toBe(130);
      expect(result.stderr).toContain('error: interrupted: the POST /withdrawals/withdraw was sent and its outcome is unknown\n');
      expect(result.stderr).toContain('hint: check whether the POST took effect before retrying: payctl withdrawals list\n');
      expect(server.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
    } finally {
      await server.close();
    }
  });

  it('while an api POST is on the wire, with -o json: exit 130 and the JSON error line', async () => {
    const { server, arrived } = await holdingServer((r) => r.method === 'POST');
    try {
      const file = path.join(tempConfigDir(), 'body.json');
      writeFileSync(file, '{"withdrawalMethod":"boleto","amount":1500,"bankAccountId":7}');
      const run = startCli(['api', 'POST', '/withdrawals/withdraw', '--data', `@${file}`, '-o', 'json'], envFor(server.url));
      await arrived;
      run.child.kill('SIGINT');
      const result = await run.done;
      expect(result.code).toBe(130);
      expect(JSON.parse(result.stderr.trim().split('\n').pop()!).error).toMatchObject({
        exitCode: 130,
        message: 'interrupted: the POST /withdrawals/withdraw was sent and its outcome is unknown',
      });
    } finally {
      await server.close();
    }
  });

  it('while only a GET is on the wire: exit 130 without talk of an unknown outcome', async () => {
    const { server, arrived } = await holdingServer(() => true);
    try {
      const run = startCli(['balance'], envFor(server.url));
      await arrived;
      run.child.kill('SIGINT');
      const result = await run.done;
      expect(result.code).toBe(130);
      expect(result.stderr).not.toMatch(/outcome/);
      expect(result.stdout).toBe('');
    } finally {
      await server.close();
    }
  });
});

describe('TLS through HTTPS_PROXY to a server named by its address', () => {
  /** An https API on 127.0.0.1 with `certificate`; the requests that reached it. */
  async function httpsApi(certificate: { key: Buffer; cert: Buffer }) {
    const reached: string[] = [];
    const server = https.createServer(certificate, (req, res) => {
      reached.push(`${req.method} ${req.url}`);
      req.resume().on('end', () => {
        const answer = normalAnswer({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: '' });
        sendJson(res, answer.status, answer.body);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const close = () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
    return { url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`, reached, close };
  }

  // The tunnel's TLS is checked against the URL's address, as a direct connection's is; not against
  // `localhost`, which is what tls falls back to when no host name is given.
  for (const [names, expected] of [
    ['IP:127.0.0.1', 'its certificate names that address: the command works'],
    ['DNS:localhost', 'its certificate names only localhost: refused, exit 4, nothing reached it'],
  ] as const) {
    it(expected, async () => {
      const certificate = await selfSignedCertificate(names);
      const api = await httpsApi(certificate);
      const proxy = await startForwardProxy();
      try {
        const result = await runCli(['balance'], { env: envFor(api.url, { HTTPS_PROXY: proxy.url, NODE_EXTRA_CA_CERTS: certificate.certFile }) });
        expect(proxy.records.map((record) => record.kind)).toContain('CONNECT');
        if (names === 'IP:127.0.0.1') {
          expect(result.code, result.stderr).toBe(0);
          expect(api.reached).toEqual(['GET /withdrawals/balance']);
        } else {
          expect(result.code, result.stderr).toBe(4);
          expect(result.stderr).toMatch(/^error: the TLS certificate of 127\.0\.0\.1:\d+ was refused: .*IP: 127\.0\.0\.1 is not in the cert's list/);
          expect(api.reached).toEqual([]);
        }
      } finally {
        await Promise.all([proxy.close(), api.close()]);
      }
    });
  }
});

/**
 * A server closes a kept-alive connection when it has been idle long enough, or to make room
 * under a connection cap. Closed as a request arrives on it, the request goes unanswered: for a
 * GET that is asked again, for a POST an outcome payctl cannot know. This server closes every
 * kept-alive connection the moment its next request arrives, which makes that race certain. It also
 * answers requests sent to it as to a proxy (by absolute URL), and over TLS with `certificate`.
 */
async function closingReusedConnections(certificate?: { key: Buffer; cert: Buffer }) {
  const served = new WeakSet<net.Socket>();
  const log: { request: string; connection: number; closed: boolean }[] = [];
  const connections = new Map<net.Socket, number>();
  const handler = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const socket = req.socket;
    const connection = connections.get(socket) ?? connections.set(socket, connections.size + 1).size;
    const target = new URL(req.url ?? '/', 'http://origin');
    const request = `${req.method} ${target.pathname}`;
    if (served.has(socket)) {
      log.push({ request, connection, closed: true });
      return void socket.destroy();
    }
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      log.push({ request, connection, closed: false });
      const url = `${target.pathname}${target.search}`;
      const answer = normalAnswer({ method: req.method ?? '', url, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      served.add(socket);
      sendJson(res, answer.status, answer.body);
    });
  };
  const server = certificate ? https.createServer(certificate, handler) : http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  // Over TLS by name: https-proxy-agent checks a tunnelled certificate against `localhost` when the URL's host is an address.
  const origin = certificate ? 'https://localhost' : 'http://127.0.0.1';
  return { url: `${origin}:${(server.address() as AddressInfo).port}`, log, close };
}

/** Answers like the API, a withdrawal read by its id being in `status`; `onRead` is told of each such read. */
const withdrawalThatIs = (status: string, onRead?: () => void) => (request: RecordedRequest, response: import('node:http').ServerResponse) => {
  const id = /^\/withdrawals\/([0-9a-f-]{36})$/.exec(request.url.split('?')[0]!)?.[1];
  if (request.method !== 'GET' || id === undefined) {
    const answer = normalAnswer(request);
    return sendJson(response, answer.status, answer.body);
  }
  const now = new Date().toISOString();
  sendJson(response, 200, { data: { id, amount: 1500, liquidAmount: 1451, status, pixKeyType: 'EMAIL', pixKey: 'ana@example.com', createdAt: now, updatedAt: now }, message: 'ok' });
  onRead?.();
};

/**
 * The withdrawal's POST went once, on a connection that carried nothing before; the reads before it
 * went on kept-alive connections (closed as they came, and asked again): one was there to be reused.
 */
function expectWriteOnItsOwnConnection(log: { request: string; closed: boolean }[]) {
  expect(log.filter((entry) => entry.request === 'POST /withdrawals/withdraw')).toEqual([expect.objectContaining({ closed: false })]);
  expect(log.filter((entry) => entry.closed).map((entry) => entry.request)).toContain('GET /withdrawals');
}

describe('a connection kept alive after an answer', () => {
  // Through HTTP_PROXY the server is the proxy: payctl sends it every request, by absolute URL; nothing listens at the API's address.
  for (const [how, run, envOf] of [
    ['directly', runInProcess, (url: string) => envFor(url)],
    ['through HTTP_PROXY', runCli, async (url: string) => envFor(`http://127.0.0.1:${await closedPort()}`, { HTTP_PROXY: url })],
  ] as const) {
    it(`${how}: carries reads, never a write; the server closing it as the next request arrives, a withdrawal is sent once and paid, exit 0`, async () => {
      const server = await closingReusedConnections();
      try {
        const result = await run(WITHDRAW, { env: await envOf(server.url) });
        expect(result.code, result.stderr).toBe(0);
        expectWriteOnItsOwnConnection(server.log);
      } finally {
        await server.close();
      }
    });
  }

  it('through HTTPS_PROXY: a tunnel kept alive carries reads, never a write; the server closing it as the next request arrives, exit 0', async () => {
    const certificate = await selfSignedCertificate();
    const server = await closingReusedConnections(certificate);
    const proxy = await startForwardProxy();
    try {
      const result = await runCli(WITHDRAW, { env: envFor(server.url, { HTTPS_PROXY: proxy.url, NODE_EXTRA_CA_CERTS: certificate.certFile }) });
      expect(result.code, result.stderr).toBe(0);
      expectWriteOnItsOwnConnection(server.log);
      expect(new Set(proxy.records.map((record) => record.kind))).toEqual(new Set(['CONNECT']));
    } finally {
      await Promise.all([proxy.close(), server.close()]);
    }
  });

  it('a host that moves while a withdrawal is followed (--wait): looked up again once its old address refuses, exit 0 at the new one', async () => {
    const addressFile = path.join(tempConfigDir(), 'address');
    writeFileSync(addressFile, '127.0.0.1\n');
    let firstRead!: () => void;
    const readOnce = new Promise<void>((resolve) => (firstRead = resolve));
    const before = await startFakeApi(withdrawalThatIs('PENDING', firstRead));
    const port = Number(new URL(before.url).port);
    const after = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => void withdrawalThatIs('COMPLETED')({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') }, res));
    });
    await new Promise<void>((resolve) => after.listen(port, '127.0.0.2', resolve));
    try {
      const run = runCli([...WITHDRAW, '--wait', '--wait-timeout', '30'], {
        env: envFor(`http://moving.localhost:${port}`, {
          NODE_OPTIONS: `--require ${path.join(ROOT, 'test/helpers/moving-host.cjs')}`,
          PAYCTL_TEST_HOST: 'moving.localhost',
          PAYCTL_TEST_HOST_ADDRESS: addressFile,
        }),
      });
      await readOnce;
      writeFileSync(addressFile, '127.0.0.2\n');
      await before.close();
      const result = await run;
      expect(result.code, result.stderr).toBe(0);
      expect(before.requests.filter((request) => request.method === 'POST')).toHaveLength(1);
      expect(result.stdout).toContain('COMPLETED');
    } finally {
      await Promise.all([before.close(), new Promise<void>((resolve) => after.close(() => resolve()))]);
    }
  });

  it('a batch to a host by name: six writes, and its name looked up once', async () => {
    const session = await startSandboxSession('acme');
    try {
      const bank = await fundedMainAccount(session);
      const file = csvFile('payouts.csv', [PIX_HEADER, ...pixRows('looked-up', 6, bank)]);
      const lookups = path.join(tempConfigDir(), 'lookups');
      writeFileSync(lookups, '');
      const result = await session.runProcess(['withdraw', 'batch', file, '--method', 'pix', '--yes', '--main-account'], {
        env: {
          PAYCTL_BASE_URL: session.sandbox.url.replace('127.0.0.1', 'localhost'),
          NODE_OPTIONS: `--require ${path.join(ROOT, 'test/helpers/count-lookups.cjs')}`,
          PAYCTL_TEST_LOOKUPS: lookups,
        },
      });
      expect(result.code, result.stderr).toBe(0);
      const paid = (await sandboxWithdrawals(session)).filter((w) => w.pixKey?.startsWith('looked-up-'));
      expect(paid.map((w) => w.pixKey).sort()).toEqual(pixKeys('looked-up', 6).sort());
      expect(readFileSync(lookups, 'utf8')).toBe('localhost\n');
    } finally {
      await session.close();
    }
  });
});
