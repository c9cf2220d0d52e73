// Sandbox benchmark, in one run:
// 1. Throughput: requests per second of the sandbox for `GET /customers?limit=100`
//    and `POST /withdrawals/withdraw`, beside a bare node:http server answering the
//    same bytes. Target: reads at least 0.5x the bare server.
// 2. Durable writes (--data): latency (p50, p99) and throughput of
//    `POST /withdrawals/withdraw` and `PUT /customers/{id}`, every change fsynced
//    before its answer, with 100 and with 100,000 customers (all of them read once
//    first, so all are in memory). Targets: 100,000 within 1.5x of 100; p99 under 20 ms.
// 3. Restart with --data: spawn to listening, 100,000 customers and 100, beside a
//    start without data.
// Servers run in child processes; the load generator (keep-alive agent, N
// connections, fixed duration) runs here. Rounds alternate the cases compared;
// medians are printed with the ratio.
//   npm run bench:sandbox     (BENCH_SECONDS=3 BENCH_ROUNDS=3 BENCH_CONNECTIONS=32 BENCH_WRITE_CONNECTIONS=16)
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const seconds = Number(process.env.BENCH_SECONDS ?? 3);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);
const writeConnections = Number(process.env.BENCH_WRITE_CONNECTIONS ?? 16);

// The sandbox from its TypeScript source, bundled, so the bench needs no build step.
const workDir = mkdtempSync(path.join(tmpdir(), 'payctl-bench-sandbox-'));
const bundle = path.join(workDir, 'sandbox.mjs');
await build({ entryPoints: [path.join(root, 'src/sandbox/server.ts')], bundle: true, platform: 'node', format: 'esm', outfile: bundle, logLevel: 'warning' });

const childSource = path.join(workDir, 'server-child.mjs');
writeFileSync(
  childSource,
  `import http from 'node:http';
import { readFileSync } from 'node:fs';
const [mode, arg, options] = process.argv.slice(2);
if (mode === 'sandbox') {
  const { startSandbox } = await import(arg);
  const sandbox = await startSandbox({ port: 0, ...JSON.parse(options ?? '{}') });
  process.send({ port: sandbox.port });
  process.once('SIGTERM', () => sandbox.close().then(() => process.exit(0)));
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

function startChild(mode, arg, options = {}) {
  const child = fork(childSource, [mode, arg, JSON.stringify(options)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return new Promise((resolve) =>
    child.once('message', ({ port }) =>
      resolve({
        port,
        // SIGTERM: the sandbox closes its data file before it exits
        stop: () => {
          child.kill('SIGTERM');
          return exited;
        },
      }),
    ),
  );
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

/**
 * Requests per second over `seconds`, `inFlight` requests at a time, and the
 * latency of each; `request` is a request, or a function of the request's number.
 */
async function load(port, request, inFlight = connections) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: inFlight });
  const latencies = [];
  let failed = 0;
  let sent = 0;
  const started = performance.now();
  const deadline = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (performance.now() < deadline) {
        const began = performance.now();
        const { status } = await send(port, typeof request === 'function' ? request(sent++) : request, agent);
        if (status < 300) latencies.push(performance.now() - began);
        else failed++;
      }
    }),
  );
  agent.destroy();
  if (failed) throw new Error(`${failed} requests failed`);
  latencies.sort((a, b) => a - b);
  const at = (share) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * share))];
  return { rps: latencies.length / ((performance.now() - started) / 1000), p50: at(0.5), p99: at(0.99) };
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
      results.sandbox.push((await load(sandbox.port, scenario.request)).rps);
      results.bare.push((await load(bare.port, scenario.request)).rps);
    }
    const [sandboxRps, bareRps] = [median(results.sandbox), median(results.bare)];
    const bytes = Buffer.byteLength(bareBodies[`${scenario.request.method} ${scenario.request.path.split('?')[0]}`]);
    console.log(
      `${scenario.name.padEnd(28)} sandbox ${sandboxRps.toFixed(0).padStart(6)} req/s   bare ${bareRps.toFixed(0).padStart(6)} req/s   ratio ${(sandboxRps / bareRps).toFixed(2)}x   (${bytes} B answers)`,
    );
  }
} finally {
  await sandbox.stop();
  await bare.stop();
}

/** A sandbox with a data file in a folder of its own, logged in, with money to withdraw and every customer read once. */
async function durableSandbox(customers) {
  const dataFile = path.join(mkdtempSync(path.join(workDir, `data-${customers}-`)), 'state.json');
  const child = await startChild('sandbox', bundle, { customers, dataFile });
  const token = JSON.parse((await send(child.port, { method: 'POST', path: '/auth', headers: json(authBody), body: authBody })).text).data.accessToken;
  const as = (method, requestPath, body) => ({ method, path: requestPath, body, headers: { authorization: `Bearer ${token}`, ...(body ? json(body) : {}) } });
  for (let i = 0; i < 5; i++) await send(child.port, as('POST', '/sandbox/balance', '{"pix":1000000000000}'));
  const bank = JSON.parse((await send(child.port, as('GET', '/bank_accounts'))).text).data[0].id;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
  const customerIds = [];
  for (let first = 1; first <= Math.ceil(customers / 100); first += 8) {
    const pages = await Promise.all(Array.from({ length: Math.min(8, Math.ceil(customers / 100) - first + 1) }, (_, i) => send(child.port, as('GET', `/customers?limit=100&page=${first + i}`), agent)));
    for (const page of pages) customerIds.push(...JSON.parse(page.text).data.map((customer) => customer.id));
  }
  agent.destroy();
  const withdraw = JSON.stringify({ withdrawalMethod: 'pix', amount: 100, bankAccountId: bank, pixKeyType: 'EMAIL', pixKey: 'bench@example.com' });
  return {
    ...child,
    dataFile,
    requests: {
      'POST /withdrawals/withdraw': as('POST', '/withdrawals/withdraw', withdraw),
      // a different customer each time, across the whole directory
      'PUT /customers/{id}': (n) => as('PUT', `/customers/${customerIds[(n * 7919) % customerIds.length]}`, JSON.stringify({ firstName: `Bench${n}` })),
    },
  };
}

const authBody = '{"clientId":"acme","clientSecret":"acme-sandbox-secret"}';
const sizes = [100, 100_000];
console.log(`\ndurable writes (--data, fsync before each answer): ${writeConnections} keep-alive connections, ${seconds} s x ${rounds} rounds per case, every customer read once first`);
const durable = {};
for (const customers of sizes) durable[customers] = await durableSandbox(customers);
try {
  for (const name of Object.keys(durable[sizes[0]].requests)) {
    const results = Object.fromEntries(sizes.map((customers) => [customers, []]));
    for (const customers of sizes) await load(durable[customers].port, durable[customers].requests[name], writeConnections); // warm-up
    for (let round = 0; round < rounds; round++) {
      for (const customers of sizes) results[customers].push(await load(durable[customers].port, durable[customers].requests[name], writeConnections));
    }
    const figures = sizes.map((customers) => {
      const runs = results[customers];
      return { customers, rps: median(runs.map((run) => run.rps)), p50: median(runs.map((run) => run.p50)), p99: median(runs.map((run) => run.p99)) };
    });
    for (const { customers, rps, p50, p99 } of figures) {
      console.log(`${name.padEnd(28)} ${String(customers).padStart(7)} customers   ${rps.toFixed(0).padStart(6)} writes/s   p50 ${p50.toFixed(2).padStart(6)} ms   p99 ${p99.toFixed(2).padStart(6)} ms`);
    }
    const [small, large] = figures;
    console.log(`${''.padEnd(28)} 100,000 / 100: throughput ${(small.rps / large.rps).toFixed(2)}x slower, p50 ${(large.p50 / small.p50).toFixed(2)}x, p99 ${(large.p99 / small.p99).toFixed(2)}x`);
  }
} finally {
  for (const customers of sizes) await durable[customers].stop();
}

/** Milliseconds from spawning a sandbox to its listening. */
async function startupMs(options) {
  const began = performance.now();
  const child = await startChild('sandbox', bundle, options);
  const elapsed = performance.now() - began;
  await child.stop();
  return elapsed;
}

console.log(`\nrestart with --data (spawn to listening, the data file written above), ${rounds * 3} runs each`);
const restarts = { 'no data file, 100,000 customers': [], 'data file, 100 customers': [], 'data file, 100,000 customers': [] };
for (let run = 0; run < rounds * 3; run++) {
  restarts['no data file, 100,000 customers'].push(await startupMs({ customers: 100_000 }));
  restarts['data file, 100 customers'].push(await startupMs({ dataFile: durable[100].dataFile }));
  restarts['data file, 100,000 customers'].push(await startupMs({ dataFile: durable[100_000].dataFile }));
}
const baseline = median(restarts['no data file, 100,000 customers']);
for (const [name, times] of Object.entries(restarts)) console.log(`${name.padEnd(32)} ${median(times).toFixed(0).padStart(6)} ms   ${(median(times) / baseline).toFixed(2)}x`);
for (const customers of sizes) {
  const { size: snapshot } = statSync(durable[customers].dataFile);
  const { size: log } = statSync(`${durable[customers].dataFile}.log`);
  console.log(`data file with ${customers} customers: snapshot ${(snapshot / 1e6).toFixed(1)} MB, log ${(log / 1e6).toFixed(1)} MB`);
}
rmSync(workDir, { recursive: true, force: true });
