import type http from 'node:http';
import { closedPort, serveOnLoopback, startFakeApi, sendJson, type FakeApi, type RecordedRequest } from './fake-api.js';

/**
 * A test server on 127.0.0.1 that misbehaves on purpose. Each test case gets a
 * base URL of its own (`http://127.0.0.1:PORT/case/ID`), so cases run in
 * parallel on one server and each sees only its own requests. The case's
 * `target` requests get the fault; any other request (a read a command makes
 * before the one under test) gets the case's normal answer.
 */

export const FAULTS = [
  'refuse',
  'hang',
  'slow-body',
  'slow-ok',
  'close-after-request',
  'status-500',
  'status-502',
  'status-503',
  'status-504',
  'status-500-api-error',
  'status-408',
  'status-429',
  'status-429-retry-after',
  'status-503-retry-after-date',
  'html',
  'truncated-content-length',
  'cut-json',
  'wrong-shape',
  'data-null',
  'empty-body',
  'huge-body',
  'redirect-302',
  'redirect-307',
] as const;
export type Fault = (typeof FAULTS)[number];

export interface Answer {
  status: number;
  body: unknown;
}

export interface CasePlan {
  fault: Fault;
  /** Which requests get the fault (default: every request). */
  target?: (request: RecordedRequest) => boolean;
  /** The normal answer, for requests that are not targeted and for `slow-ok`. */
  answer?: (request: RecordedRequest) => Answer;
}

export interface TimedRequest extends RecordedRequest {
  /** performance.now() when the request arrived. */
  at: number;
  targeted: boolean;
}

export interface FaultServer {
  /** Base URL of a case; `refuse` gives a port where nothing listens. */
  urlFor(caseId: string, plan: CasePlan): string;
  /** Requests of one case that reached the server (path without the case prefix). */
  requestsOf(caseId: string): TimedRequest[];
  /** The other host redirects point at; it records every request it sees. */
  redirectTarget: FakeApi;
  close(): Promise<void>;
}

/** How long `slow-ok` waits before answering, and `slow-body` between bytes. */
export const SLOW_ANSWER_MS = 400;
const HUGE_BODY_BYTES = 40 * 1024 * 1024;

/**
 * A 200 whose JSON body is 40 MiB, more than payctl accepts, streamed so the server does not hold it
 * in memory; `announced`: its length is said in Content-Length, else it is sent chunked.
 */
export function sendHugeBody(res: http.ServerResponse, { announced }: { announced: boolean }): void {
  res.writeHead(200, { 'content-type': 'application/json', ...(announced ? { 'content-length': HUGE_BODY_BYTES + 20 } : {}) });
  res.write('{"data":{"padding":"');
  const chunk = Buffer.alloc(1024 * 1024, 'a');
  let sent = 0;
  const pump = () => {
    while (sent < HUGE_BODY_BYTES && !res.destroyed) {
      sent += chunk.length;
      if (!res.write(chunk)) return void res.once('drain', pump);
    }
    if (!res.destroyed) res.end('"}}');
  };
  pump();
}

const CASE_PREFIX = /^\/case\/([^/]+)(\/.*)?$/;

export async function startFaultServer(): Promise<FaultServer> {
  const plans = new Map<string, CasePlan>();
  const seen = new Map<string, TimedRequest[]>();
  const redirectTarget = await startFakeApi((_, res) => sendJson(res, 200, { data: { redirected: true }, message: 'ok' }));
  const refusingPort = await closedPort();

  const server = await serveOnLoopback((received, req, res) => {
    const match = CASE_PREFIX.exec(received.url);
    const plan = match ? plans.get(match[1]!) : undefined;
    if (!match || !plan) {
      sendJson(res, 404, { data: { message: 'unknown test case', returnCode: -1 } });
      return;
    }
    const recorded: RecordedRequest = { ...received, url: match[2] ?? '/' };
    const targeted = plan.target ? plan.target(recorded) : true;
    seen.get(match[1]!)!.push({ ...recorded, at: performance.now(), targeted });
    if (!targeted) return answerWith(res, plan.answer?.(recorded) ?? { status: 404, body: { data: { message: 'no answer planned', returnCode: -1 } } });
    misbehave(plan, recorded, req, res, redirectTarget.url);
  });

  return {
    urlFor(caseId, plan) {
      plans.set(caseId, plan);
      seen.set(caseId, []);
      return plan.fault === 'refuse' ? `http://127.0.0.1:${refusingPort}/case/${caseId}` : `http://127.0.0.1:${server.port}/case/${caseId}`;
    },
    requestsOf: (caseId) => seen.get(caseId) ?? [],
    redirectTarget,
    close: async () => {
      await server.close();
      await redirectTarget.close();
    },
  };
}

function answerWith(res: http.ServerResponse, answer: Answer): void {
  sendJson(res, answer.status, answer.body);
}

function misbehave(plan: CasePlan, request: RecordedRequest, req: http.IncomingMessage, res: http.ServerResponse, otherHost: string): void {
  const socket = req.socket;
  const raw = (status: number, type: string | undefined, body: string | Buffer, headers: http.OutgoingHttpHeaders = {}) => {
    res.writeHead(status, { ...(type ? { 'content-type': type } : {}), 'content-length': Buffer.byteLength(body), ...headers });
    res.end(body);
  };
  const html = '<!doctype html><html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1></body></html>';
  switch (plan.fault) {
    case 'refuse':
      // Never reached: the case's URL points at a closed port.
      return raw(500, 'text/plain', 'refuse case reached the server');
    case 'hang':
      return; // holds the connection open and never answers
    case 'slow-body': {
      // Headers at once, then one byte at a time: the answer never completes within the timeout.
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': 1_000_000 });
      res.write('{"data":');
      const timer = setInterval(() => (res.destroyed ? clearInterval(timer) : res.write(' ')), SLOW_ANSWER_MS);
      res.on('close', () => clearInterval(timer));
      return;
    }
    case 'slow-ok': {
      const answer = plan.answer?.(request) ?? { status: 200, body: { data: {}, message: 'ok' } };
      setTimeout(() => answerWith(res, answer), SLOW_ANSWER_MS);
      return;
    }
    case 'close-after-request':
      socket.destroy();
      return;
    case 'status-500':
      return raw(500, undefined, '');
    case 'status-502':
      return raw(502, 'text/html', html);
    case 'status-503':
      return raw(503, 'text/plain', 'Service Unavailable');
    case 'status-504':
      return raw(504, 'text/html', html.replace(/502 Bad Gateway|Bad Gateway/g, 'Gateway Timeout'));
    case 'status-500-api-error':
      return sendJson(res, 500, { data: { message: 'internal error while processing', returnCode: -7000 } });
    case 'status-408':
      return raw(408, 'text/plain', 'Request Timeout');
    case 'status-429':
      return raw(429, 'text/plain', 'Too Many Requests');
    case 'status-429-retry-after':
      return raw(429, 'text/plain', 'Too Many Requests', { 'retry-after': '1' });
    case 'status-503-retry-after-date':
      return raw(503, 'text/plain', 'Service Unavailable', { 'retry-after': new Date(Date.now() + 1500).toUTCString() });
    case 'html':
      return raw(200, 'text/html; charset=utf-8', html.replace(/502 Bad Gateway|Bad Gateway/g, 'Welcome'));
    case 'truncated-content-length': {
      // Promises more bytes than it sends, then closes: the body is cut off in transit.
      const text = '{"data":{"id":"3f2b8c1e-0d4a-4b6e-9a7c-2e5d1f0a9b3c","amount":1000,"sta';
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': text.length + 500 });
      res.write(text, () => socket.destroy());
      return;
    }
    case 'cut-json':
      // Complete framing (Content-Length matches) around JSON that stops in the middle.
      return raw(200, 'application/json', '{"data":{"id":"3f2b8c1e-0d4a-4b6e-9a7c-2e5d1f0a9b3c","amount":10');
    case 'wrong-shape':
      return raw(200, 'application/json', JSON.stringify([{ unexpected: true }]));
    case 'data-null':
      return raw(200, 'application/json', JSON.stringify({ data: null, message: 'ok' }));
    case 'empty-body':
      return raw(200, 'application/json', '');
    case 'huge-body':
      return sendHugeBody(res, { announced: true });
    case 'redirect-302':
    case 'redirect-307':
      return raw(plan.fault === 'redirect-302' ? 302 : 307, 'text/plain', 'moved', { location: `${otherHost}${request.url}` });
  }
}
