// Sandbox throughput benchmark: requests per second of the sandbox for
// `GET /customers?limit=100` and `POST /withdrawals/withdraw`, beside a bare
// node:http server answering the same bytes, in one run. Servers run in child
// processes; the load generator (keep-alive agent, N connections, fixed duration)
// runs here. Rounds alternate sandbox and bare; medians are printed with the ratio.
// Target: reads at least 0.5x the bare server.
//   npm run bench:sandbox     (BENCH_SECONDS=3 BENCH_ROUNDS=3 BENCH_CONNECTIONS=32)
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const seconds = Number(process.env.BENCH_SECONDS ?? 3);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);

// The sandbox from its TypeScript source, bundled, so the bench needs no build step.
const workDir = mkdtempSync(path.join(tmpdir(), 'payctl-bench-sandbox-'));
const bundle = path.join(workDir, 'sandbox.mjs');
await build({ entryPoints: [path.join(root, 'src/sandbox/server.ts')], bundle: true, platform: 'node', format: 'esm', outfile: bundle, logLevel: 'warning' });

const childSource = path.join(workDir, 'server-child.mjs');
writeFileSync(
  childSource,
  `import http from 'node:http';
import { readFileSync } from 'node:fs';
const [mode, arg] = process.argv.slice(2);
if (mode === 'sandbox') {
  const { startSandbox } = await import(arg);
  const sandbox = await startSandbox({ port: 0 });
  process.send({ port: sandbox.port });
} else {
  // answers each "METHOD path" with its fixed bytes, after reading the request body
  const bodies = JSON.parse(readFileSync(arg, 'utf8'));
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const body = bodies[req.method + ' ' + req.url.split('?')[0]];
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    });
  });
  server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
}
`,
);

function startChild(mode, arg) {
  const child = fork(childSource, [mode, arg], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise((resolve) => child.once('message', ({ port }) => resolve({ port, stop: () => child.kill() })));
}

function send(port, { method, path: requestPath, headers = {}, body }, agent) {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path: requestPath, headers, agent }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode, text: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Requests per second over `seconds`, `connections` requests in flight. */
async function load(port, request) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  let completed = 0;
  let failed = 0;
  const started = performance.now();
  const deadline = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < deadline) {
        const { status } = await send(port, request, agent);
        if (status < 300) completed++;
        else failed++;
      }
    }),
  );
  agent.destroy();
  if (failed) throw new Error(`${failed} requests failed`);
  return completed / ((performance.now() - started) / 1000);
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const json = (body) => ({ 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) });

const sandbox = await startChild('sandbox', bundle);
const auth = JSON.parse((await send(sandbox.port, { method: 'POST', path: '/auth', headers: json('{"clientId":"acme","clientSecret":"acme-sandbox-secret"}'), body: '{"clientId":"acme","clientSecret":"acme-sandbox-secret"}' })).text);
const authorization = `Bearer ${auth.data.accessToken}`;
const authed = (method, requestPath, body) => ({ method, path: requestPath, body, headers: { authorization, ...(body ? json(body) : {}) } });

// Enough balance for every withdrawal of the run.
for (let i = 0; i < 5; i++) await send(sandbox.port, authed('POST', '/sandbox/balance', '{"pix":1000000000000}'));
const bankAccountId = JSON.parse((await send(sandbox.port, authed('GET', '/bank_accounts'))).text).data[0].id;
const withdrawBody = JSON.stringify({ withdrawalMethod: 'pix', amount: 100, bankAccountId, pixKeyType: 'EMAIL', pixKey: 'bench@example.com' });

const scenarios = [
  { name: 'GET /customers?limit=100', request: authed('GET', '/customers?limit=100') },
  { name: 'POST /withdrawals/withdraw', request: authed('POST', '/withdrawals/withdraw', withdrawBody) },
];
// The bare server answers the very bytes the sandbox answers, so only the sandbox's own work differs.
const bareBodies = {};
for (const { request } of scenarios) bareBodies[`${request.method} ${request.path.split('?')[0]}`] = (await send(sandbox.port, request)).text;
const bodiesFile = path.join(workDir, 'bodies.json');
writeFileSync(bodiesFile, JSON.stringify(bareBodies));
const bare = await startChild('bare', bodiesFile);

console.log(`sandbox throughput: ${connections} keep-alive connections, ${seconds} s x ${rounds} rounds per server, node ${process.version}`);
try {
  for (const scenario of scenarios) {
    await load(sandbox.port, scenario.request); // warm-up
    await load(bare.port, scenario.request);
    const results = { sandbox: [], bare: [] };
    for (let round = 0; round < rounds; round++) {
      results.sandbox.push(await load(sandbox.port, scenario.request));
      results.bare.push(await load(bare.port, scenario.request));
    }
    const [sandboxRps, bareRps] = [median(results.sandbox), median(results.bare)];
    const bytes = Buffer.byteLength(bareBodies[`${scenario.request.method} ${scenario.request.path.split('?')[0]}`]);
    console.log(
      `${scenario.name.padEnd(28)} sandbox ${sandboxRps.toFixed(0).padStart(6)} req/s   bare ${bareRps.toFixed(0).padStart(6)} req/s   ratio ${(sandboxRps / bareRps).toFixed(2)}x   (${bytes} B answers)`,
    );
  }
} finally {
  sandbox.stop();
  bare.stop();
  rmSync(workDir, { recursive: true, force: true });
}
