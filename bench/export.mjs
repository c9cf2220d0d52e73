// Export benchmark, in one run, on every Node version found (bench/node-versions.mjs):
// `payctl customers list --all -o ndjson` over 1,000,000 customers and over 100,000
// (items per second and peak memory of the payctl process, from /usr/bin/time),
// beside a sequential page-by-page fetch of the same 100,000 (one request at a time,
// each page written as ndjson before the next is asked).
// Each sandbox runs in a process of its own (`payctl sandbox start`, on this node).
// The speed comparison is made twice: against a sandbox that answers at once, where
// both sides are limited by the client's own JSON work, and against one that answers
// after BENCH_LATENCY_MS (default 10) like a platform across a network, which is
// what fetching pages concurrently is for.
// Targets, on each version: peak memory for 1,000,000 within 1.15x of that for
// 100,000; at least 1.5x the items per second of the sequential fetch with latency.
//   npm run build && npm run bench:export
//   (BENCH_RUNS=3, BENCH_NODES=20,22,24, BENCH_CUSTOMERS=1000000, BENCH_BASE_CUSTOMERS=100000)
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCounted } from './child.mjs';
import { nodeVersions } from './node-versions.mjs';
import { sandboxUrl } from './sandbox-url.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = path.join(root, 'bin/payctl.js');
const large = Number(process.env.BENCH_CUSTOMERS ?? 1_000_000);
const base = Number(process.env.BENCH_BASE_CUSTOMERS ?? 100_000);
const runs = Number(process.env.BENCH_RUNS ?? 3);
const latencyMs = Number(process.env.BENCH_LATENCY_MS ?? 10);
const wanted = process.env.BENCH_NODES?.split(',');
const versions = nodeVersions().filter(({ major }) => !wanted || wanted.includes(major));

async function startSandbox(customers, latency = 0) {
  // Its request log is not wanted; only the "listening on" line is read.
  const args = [bin, 'sandbox', 'start', '--port', '0', '--customers', String(customers), '--latency', String(latency)];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'ignore'] });
  const url = await sandboxUrl(child);
  // Each benchmark has its own cache folder, so every version's code cache is made once, here.
  const env = { PATH: process.env.PATH, HOME: tmpdir(), XDG_CACHE_HOME: mkdtempSync(path.join(tmpdir(), 'payctl-bench-cache-')), PAYCTL_CONFIG_DIR: mkdtempSync(path.join(tmpdir(), 'payctl-bench-')), PAYCTL_BASE_URL: url };
  for (const { node } of versions) await runCounted(node, [bin, 'auth', 'login', '--client-id', 'acme', '--client-secret-stdin'], env, 'acme-sandbox-secret\n');
  return { env, stop: () => child.kill('SIGTERM') };
}

/** A command under /usr/bin/time: wall time, lines written and peak resident memory (kB) of the process. */
async function timed(node, args, env) {
  const started = performance.now();
  const { lines, stderr } = await runCounted('/usr/bin/time', ['-f', 'peak-kb %M', node, ...args], env);
  return { items: lines, seconds: (performance.now() - started) / 1000, peakKb: Number(/peak-kb (\d+)/.exec(stderr)[1]) };
}

const exportAll = (node, env) => timed(node, [bin, 'customers', 'list', '--all', '-o', 'ndjson'], env);

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
const sequential = (node, env) => timed(node, ['-e', SEQUENTIAL], env);

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const summarize = (samples) => ({
  items: samples[0].items,
  itemsPerSecond: median(samples.map((s) => s.items / s.seconds)),
  peakMb: median(samples.map((s) => s.peakKb)) / 1024,
});

const [big, small, remote] = [await startSandbox(large), await startSandbox(base), await startSandbox(base, latencyMs)];
try {
  const cases = {
    [`payctl --all, ${large} customers`]: [exportAll, big, large],
    [`payctl --all, ${base} customers`]: [exportAll, small, base],
    [`sequential page by page, ${base}`]: [sequential, small, base],
    [`payctl --all, ${latencyMs} ms latency, ${base}`]: [exportAll, remote, base],
    [`sequential, ${latencyMs} ms latency, ${base}`]: [sequential, remote, base],
  };
  const samples = new Map(versions.flatMap(({ major }) => Object.keys(cases).map((name) => [`${major} ${name}`, []])));
  // Interleaved, so a slow moment of the machine does not fall on one case or one version only.
  for (let i = 0; i < runs; i++) {
    for (const { major, node } of versions) {
      for (const [name, [measure, sandbox, expected]] of Object.entries(cases)) {
        const sample = await measure(node, sandbox.env);
        if (sample.items !== expected) throw new Error(`node ${major}, ${name}: got ${sample.items} items`);
        samples.get(`${major} ${name}`).push(sample);
      }
    }
  }
  console.log(`export, median of ${runs} interleaved runs`);
  for (const { major, version } of versions) {
    const rows = Object.keys(cases).map((name) => [name, summarize(samples.get(`${major} ${name}`))]);
    console.log(`\nnode ${version}`);
    for (const [name, r] of rows) {
      console.log(`${name.padEnd(38)} ${String(Math.round(r.itemsPerSecond)).padStart(8)} items/s   peak ${r.peakMb.toFixed(1).padStart(6)} MB`);
    }
    const [l, s, q, ra, rq] = rows.map(([, r]) => r);
    const memoryRatio = l.peakMb / s.peakMb;
    const localRatio = s.itemsPerSecond / q.itemsPerSecond;
    const remoteRatio = ra.itemsPerSecond / rq.itemsPerSecond;
    console.log(`peak memory ${large} / ${base}: ${memoryRatio.toFixed(2)}x (target <= 1.15x) ${memoryRatio <= 1.15 ? 'met' : 'MISSED'}`);
    console.log(`items/s --all / sequential, answers at once: ${localRatio.toFixed(2)}x (both bound by the client's JSON work)`);
    console.log(`items/s --all / sequential, ${latencyMs} ms latency: ${remoteRatio.toFixed(2)}x (target >= 1.5x) ${remoteRatio >= 1.5 ? 'met' : 'MISSED'}`);
  }
} finally {
  big.stop();
  small.stop();
  remote.stop();
}
