import http from 'node:http';
import net, { type AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export type Handler = (request: RecordedRequest, response: http.ServerResponse) => void | Promise<void>;

export interface FakeApi {
  url: string;
  /** Every request that reached the server, in order. */
  requests: RecordedRequest[];
  handle(handler: Handler): void;
  close(): Promise<void>;
}

/** Answers with a JSON body. */
export function sendJson(response: http.ServerResponse, status: number, body: unknown, headers: http.OutgoingHttpHeaders = {}): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  response.end(text);
}

/**
 * Answers `GET /withdrawals/balance` with balances that cover any test's withdrawals (a withdrawal's
 * confirmation reads them before it asks); false for any other request, for the handler to answer.
 */
export function answeredBalance(request: RecordedRequest, response: http.ServerResponse): boolean {
  if (request.method !== 'GET' || new URL(request.url, 'http://fake').pathname !== '/withdrawals/balance') return false;
  sendJson(response, 200, { data: { disponiblePixBalance: 100_000, disponibleCardBalance: 100_000, disponibleBilletBalance: 100_000, withdrawalsInProcessingBalance: 0 }, message: 'ok' });
  return true;
}

/**
 * A port on 127.0.0.1 nothing listens on: connections are refused. It is below 1024, which `listen(0)`
 * never hands out, so no server of this suite, or of another running at once, takes it between this
 * check and its use, as one did with a port just released by the OS (three suites at once).
 */
export async function closedPort(): Promise<number> {
  for (let port = 1; port < 1024; port++) if (await refuses(port)) return port;
  throw new Error('no port below 1024 on 127.0.0.1 refuses connections');
}

const refuses = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });

export interface LoopbackServer {
  port: number;
  /** Stops listening and ends kept-alive connections too. */
  close(): Promise<void>;
}

/** An HTTP server on 127.0.0.1:0 that hands each request, its body read, to `onRequest`. */
export async function serveOnLoopback(
  onRequest: (request: RecordedRequest, req: http.IncomingMessage, res: http.ServerResponse) => void,
): Promise<LoopbackServer> {
  const sockets = new Set<net.Socket>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () =>
      onRequest({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') }, req, res),
    );
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A small programmable API server on 127.0.0.1 for tests that need answers the sandbox never gives. */
export async function startFakeApi(initial: Handler = (_, res) => sendJson(res, 404, { data: { message: 'no handler', returnCode: -1 } })): Promise<FakeApi> {
  let handler = initial;
  const requests: RecordedRequest[] = [];
  const server = await serveOnLoopback((recorded, _, res) => {
    requests.push(recorded);
    Promise.resolve(handler(recorded, res)).catch((error: Error) => {
      if (!res.headersSent) sendJson(res, 500, { data: { message: `test handler failed: ${error.message}`, returnCode: -1 } });
    });
  });
  return {
    url: `http://127.0.0.1:${server.port}`,
    requests,
    handle(next) {
      handler = next;
    },
    close: server.close,
  };
}

/** A JWT-shaped token (unsigned) with the given expiry, for tests of the client's expiry check. */
export function fakeJwt(expiresAtSeconds: number): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ sub: 'test', exp: expiresAtSeconds })}.signature`;
}
