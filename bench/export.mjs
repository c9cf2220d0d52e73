// Export benchmark, in one run: `payctl customers list --all -o ndjson` over 100,000
// customers and over 1,000 (items per second and peak memory of the payctl process,
// from /usr/bin/time), beside a sequential page-by-page fetch of the same 100,000
// (one request at a time, each page written as ndjson before the next is asked).
// Each sandbox runs in a process of its own (`payctl sandbox start`).
// The speed comparison is made twice: against a sandbox that answers at once, where
// both sides are limited by the client's own JSON work, and against one that answers
// after BENCH_LATENCY_MS (default 10) like a platform across a network, which is
// what fetching pages concurrently is for.
// Targets: peak memory for 100,000 within 1.3x of that for 1,000; at least 1.5x the
// items per second of the sequential fetch.
//   npm run build && npm run bench:export        (BENCH_CUSTOMERS=100000, BENCH_RUNS=3)
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = path.join(root, 'bin/payctl.js');
const large = Number(process.env.BENCH_CUSTOMERS ?? 100_000);
const small = 1_000;
const runs = Number(process.env.BENCH_RUNS ?? 3);
const latencyMs = Number(process.env.BENCH_LATENCY_MS ?? 10);

/** Runs a command to completion; stdout is counted in lines, not kept. */
function run(command, args, env, input) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let lines = 0;
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      for (let i = 0; i < chunk.length; i++) if (chunk[i] === 10) lines++;
    });
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve({ lines, stderr }) : reject(new Error(`${args.join(' ')} exited ${code}: ${stderr}`))));
    child.stdin.end(input ?? '');
  });
}

async function startSandbox(customers, latency = 0) {
  // Its request log is not wanted; only the "listening on" line is read.
  const args = [bin, 'sandbox', 'start', '--port', '0', '--customers', String(customers), '--latency', String(latency)];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'ignore'] });
  const url = await new Promise((resolve, reject) => {
    let text = '';
    child.stdout.on('data', (chunk) => {
      text += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(text);
      if (match) resolve(match[1]);
    });
    child.on('exit', (code) => reject(new Error(`sandbox exited ${code}`)));
  });
  const env = { PATH: process.env.PATH, HOME: tmpdir(), PAYCTL_CONFIG_DIR: mkdtempSync(path.join(tmpdir(), 'payctl-bench-')), PAYCTL_BASE_URL: url };
  await run(process.execPath, [bin, 'auth', 'login', '--client-id', 'acme', '--client-secret-stdin'], env, 'acme-sandbox-secret\n');
  return { env, stop: () => child.kill('SIGTERM') };
}

/** payctl's export under /usr/bin/time: wall time, items and peak resident memory (kB) of payctl. */
async function timeExport(env) {
  const started = performance.now();
  const { lines, stderr } = await run('/usr/bin/time', ['-f', 'peak-kb %M', process.execPath, bin, 'customers', 'list', '--all', '-o', 'ndjson'], env);
  const seconds = (performance.now() - started) / 1000;
  return { items: lines, seconds, peakKb: Number(/peak-kb (\d+)/.exec(stderr)[1]) };
}

/** One page at a time, each written as ndjson before the next is asked: the loop a script writes without --all. */
const SEQUENTIAL = `
  const { readFileSync } = require('node:fs');
  const token = JSON.parse(readFileSync(process.env.PAYCTL_CONFIG_DIR + '/config.json', 'utf8')).profiles.default.token;
  (async () => {
    for (let page = 1; ; page++) {
      const res = await fetch(process.env.PAYCTL_BASE_URL + '/customers?limit=100&page=' + page, { headers: { authorization: 'Bearer ' + token } });
      const body = await res.json();
      if (body.data.length) await new Promise((done) => process.stdout.write(body.data.map((c) => JSON.stringify(c) + '\\n').join(''), done));
      if (page >= body.meta.totalPages) break;
    }
  })();
`;

async function timeSequential(env) {
  const started = performance.now();
  const { lines, stderr } = await run('/usr/bin/time', ['-f', 'peak-kb %M', process.execPath, '-e', SEQUENTIAL], env);
  return { items: lines, seconds: (performance.now() - started) / 1000, peakKb: Number(/peak-kb (\d+)/.exec(stderr)[1]) };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const summarize = (samples) => ({
  items: samples[0].items,
  itemsPerSecond: median(samples.map((s) => s.items / s.seconds)),
  peakMb: median(samples.map((s) => s.peakKb)) / 1024,
});

const [big, little, remote] = [await startSandbox(large), await startSandbox(small), await startSandbox(large, latencyMs)];
try {
  const results = { large: [], small: [], sequential: [], remoteAll: [], remoteSequential: [] };
  // Interleaved, so a slow moment of the machine does not fall on one case only.
  for (let i = 0; i < runs; i++) {
    results.large.push(await timeExport(big.env));
    results.small.push(await timeExport(little.env));
    results.sequential.push(await timeSequential(big.env));
    results.remoteAll.push(await timeExport(remote.env));
    results.remoteSequential.push(await timeSequential(remote.env));
  }
  const rows = {
    [`payctl --all, ${large} customers`]: summarize(results.large),
    [`payctl --all, ${small} customers`]: summarize(results.small),
    [`sequential page by page, ${large}`]: summarize(results.sequential),
    [`payctl --all, ${latencyMs} ms latency, ${large}`]: summarize(results.remoteAll),
    [`sequential, ${latencyMs} ms latency, ${large}`]: summarize(results.remoteSequential),
  };
  for (const [name, r] of Object.entries(rows)) {
    if (r.items !== Number(name.match(/(\d+)/g).at(-1))) throw new Error(`${name}: got ${r.items} items`);
  }
  console.log(`median of ${runs} runs`);
  for (const [name, r] of Object.entries(rows)) {
    console.log(`${name.padEnd(38)} ${String(Math.round(r.itemsPerSecond)).padStart(8)} items/s   peak ${r.peakMb.toFixed(1).padStart(6)} MB`);
  }
  const [l, s, q, ra, rq] = Object.values(rows);
  const memoryRatio = l.peakMb / s.peakMb;
  const localRatio = l.itemsPerSecond / q.itemsPerSecond;
  const remoteRatio = ra.itemsPerSecond / rq.itemsPerSecond;
  console.log(`peak memory ${large} / ${small}: ${memoryRatio.toFixed(2)}x (target <= 1.3x) ${memoryRatio <= 1.3 ? 'met' : 'MISSED'}`);
  console.log(`items/s --all / sequential, answers at once: ${localRatio.toFixed(2)}x (both bound by the client's JSON work)`);
  console.log(`items/s --all / sequential, ${latencyMs} ms latency: ${remoteRatio.toFixed(2)}x (target >= 1.5x) ${remoteRatio >= 1.5 ? 'met' : 'MISSED'}`);
} finally {
  big.stop();
  little.stop();
  remote.stop();
}
