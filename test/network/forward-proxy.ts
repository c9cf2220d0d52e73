import http from 'node:http';
import net, { type AddressInfo } from 'node:net';

/**
 * A forward proxy on 127.0.0.1 for tests, as a company's would be: CONNECT tunnels
 * for https, absolute-URI requests for http, optionally asking for credentials or
 * refusing tunnels, and a table of host names it resolves itself. It records what
 * passes through it, so a test can tell a proxied request from a direct one.
 */
export interface ProxyRecord {
  kind: 'CONNECT' | 'HTTP';
  method: string;
  /** host:port of a tunnel, or the absolute URL of an http request */
  target: string;
  /** the Proxy-Authorization header, decoded (`user:password`) */
  credentials?: string;
}

export interface ForwardProxyOptions {
  /** `user:password` the proxy asks for (407 without them) */
  credentials?: string;
  /** answer every CONNECT with this status instead of a tunnel */
  refuseConnect?: number;
  /** host names the proxy resolves to an address of its own */
  hosts?: Record<string, string>;
}

export interface ForwardProxy {
  /** http://127.0.0.1:PORT */
  url: string;
  port: number;
  records: ProxyRecord[];
  close(): Promise<void>;
}

const decode = (header: string | undefined) => (header?.startsWith('Basic ') ? Buffer.from(header.slice(6), 'base64').toString('utf8') : undefined);

export async function startForwardProxy(options: ForwardProxyOptions = {}): Promise<ForwardProxy> {
  const records: ProxyRecord[] = [];
  const sockets = new Set<net.Socket>();
  const resolve = (host: string) => options.hosts?.[host] ?? host;
  const allowed = (credentials: string | undefined) => options.credentials === undefined || credentials === options.credentials;

  const server = http.createServer((req, res) => {
    const credentials = decode(req.headers['proxy-authorization']);
    records.push({ kind: 'HTTP', method: req.method ?? '', target: req.url ?? '', credentials });
    if (!allowed(credentials)) {
      res.writeHead(407, { 'proxy-authenticate': 'Basic realm="test"' }).end();
      return;
    }
    const target = new URL(req.url ?? '');
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([name]) => !name.startsWith('proxy-')));
    const upstream = http.request({ host: resolve(target.hostname), port: target.port, path: `${target.pathname}${target.search}`, method: req.method, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  server.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    const credentials = decode(req.headers['proxy-authorization']);
    records.push({ kind: 'CONNECT', method: 'CONNECT', target: req.url ?? '', credentials });
    if (!allowed(credentials) || options.refuseConnect) {
      const status = allowed(credentials) ? options.refuseConnect! : 407;
      client.end(`HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\ncontent-length: 0\r\n\r\n`);
      return;
    }
    const [host, port] = (req.url ?? '').split(/:(?=\d+$)/);
    const upstream = net.connect(Number(port), resolve(host!), () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    records,
    close: () =>
      new Promise<void>((done) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => done());
      }),
  };
}
