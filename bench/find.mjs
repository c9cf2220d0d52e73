// Customer lookup benchmark: `payctl customers find --email` over 100,000 customers with
// the sandbox answering every request after 50 ms, as a platform across a network would,
// beside the sequential scan (one page of 100 at a time, the loop a script writes), in one
// run: time to the first match and to the end, medians of a few runs, interleaved. The
// customer looked for is in the middle of the list (page 501 of 1,000).
// Then the same search against a sandbox that also rate-limits each client to
// BENCH_RATE_LIMIT requests a second (429 with Retry-After): every 429 must be waited out
// and none may end the search; the 429s are counted in the sandbox's request log.
// Targets: the whole scan in at most 3 s without a rate limit; with one, no run fails.
//   npm run build && npm run bench:find
//   (BENCH_RUNS=3, BENCH_SEQUENTIAL_RUNS=1, BENCH_CUSTOMERS=100000, BENCH_LATENCY_MS=50, BENCH_RATE_LIMIT=200)
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sandboxUrl } from './sandbox-url.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = path.join(root, 'bin/payctl.js');
const customers = Number(process.env.BENCH_CUSTOMERS ?? 100_000);
const runs = Number(process.env.BENCH_RUNS ?? 3);
const sequentialRuns = Number(process.env.BENCH_SEQUENTIAL_RUNS ?? 1);
const latencyMs = Number(process.env.BENCH_LATENCY_MS ?? 50);
const rateLimit = Number(process.env.BENCH_RATE_LIMIT ?? 200);
const PAGE = 100;

/** A sandbox in a process of its own, logged in to as acme; its request log is counted, not kept. */
async function startSandbox(extra = []) {
  const args = [bin, 'sandbox', 'start', '--port', '0', '--customers', String(customers), '--latency', String(latencyMs), ...extra];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const log = { rateLimited: 0 };
  let partial = '';
  child.stderr.setEncoding('utf8').on('data', (chunk) => {
    const lines = (partial + chunk).split('\n');
    partial = lines.pop();
    for (const line of lines) if (/ 429 /.test(line)) log.rateLimited++;
  });
  const url = await sandboxUrl(child);
  const env = {
    PATH: process.env.PATH,
    HOME: tmpdir(),
    XDG_CACHE_HOME: mkdtempSync(path.join(tmpdir(), 'payctl-bench-cache-')),
    PAYCTL_CONFIG_DIR: mkdtempSync(path.join(tmpdir(), 'payctl-bench-')),
    PAYCTL_BASE_URL: url,
  };
  const login = await timedRun(process.execPath, [bin, 'auth', 'login', '--client-id', 'acme', '--client-secret-stdin'], env, 'acme-sandbox-secret\n');
  if (login.code !== 0) throw new Error(`login failed: ${login.stderr}`);
  return { env, log, stop: () => child.kill('SIGTERM') };
}

/** Runs a command; the time of its first line on stdout and of its end, in seconds, with what it wrote. */
function timedRun(command, args, env, input = '') {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let firstLine;
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      stdout += chunk;
      if (firstLine === undefined && stdout.includes('\n')) firstLine = (performance.now() - started) / 1000;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr, first: firstLine, end: (performance.now() - started) / 1000 }));
    child.stdin.end(input);
  });
}

/** One page at a time, each searched before the next is asked; a match is printed when found. */
const SEQUENTIAL = `
  const { readFileSync } = require('node:fs');
  const token = JSON.parse(readFileSync(process.env.PAYCTL_CONFIG_DIR + '/config.json', 'utf8')).profiles.default.token;
  const wanted = process.argv[1];
  (async () => {
    for (let page = 1; ; page++) {
      const res = await fetch(process.env.PAYCTL_BASE_URL + '/customers?limit=${PAGE}&page=' + page, { headers: { authorization: 'Bearer ' + token } });
      const body = await res.json();
      for (const customer of body.data) if (customer.email.toLowerCase() === wanted) process.stdout.write(JSON.stringify(customer) + '\\n');
      if (page >= body.meta.totalPages) break;
    }
  })();
`;

const find = (env, email) => timedRun(process.execPath, [bin, 'customers', 'find', '--email', email, '-o', 'ndjson'], env);
const sequential = (env, email) => timedRun(process.execPath, ['-e', SEQUENTIAL, email], env);

/** The e-mail of the first customer on the middle page, read through the sandbox's API. */
async function middleEmail(env) {
  const token = JSON.parse(readFileSync(path.join(env.PAYCTL_CONFIG_DIR, 'config.json'), 'utf8')).profiles.default.token;
  const middle = Math.ceil(customers / PAGE / 2) + 1;
  const res = await fetch(`${env.PAYCTL_BASE_URL}/customers?limit=${PAGE}&page=${middle}`, { headers: { authorization: `Bearer ${token}` } });
  return (await res.json()).data[0].email.toLowerCase();
}

/** A run that must find the one customer: exit 0 and exactly one line naming them. */
function checked(name, result, email) {
  const lines = result.stdout.split('\n').filter(Boolean);
  if (result.code !== 0 || lines.length !== 1 || !lines[0].includes(email)) {
    throw new Error(`${name}: exit ${result.code}, ${lines.length} lines\n${result.stderr.slice(0, 2000)}`);
  }
  return result;
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const seconds = (value) => `${value.toFixed(2).padStart(6)} s`;

const [open, limited] = [await startSandbox(), await startSandbox(['--rate-limit', String(rateLimit)])];
try {
  const email = await middleEmail(open.env);
  const samples = { sequential: [], find: [], limited: [] };
  const rateLimitedPerRun = [];
  for (let i = 0; i < Math.max(runs, sequentialRuns); i++) {
    if (i < sequentialRuns) samples.sequential.push(checked('sequential', await sequential(open.env, email), email));
    if (i < runs) {
      samples.find.push(checked('payctl customers find', await find(open.env, email), email));
      const before = limited.log.rateLimited;
      samples.limited.push(checked(`payctl customers find, rate limit ${rateLimit}/s`, await find(limited.env, email), email));
      rateLimitedPerRun.push(limited.log.rateLimited - before);
    }
  }
  console.log(`customers find --email over ${customers} customers, sandbox latency ${latencyMs} ms; medians (find: ${runs} runs, sequential: ${sequentialRuns})`);
  console.log(`${''.padEnd(44)}first match        end`);
  const rows = [
    [`sequential scan, one page at a time`, samples.sequential],
    [`payctl customers find`, samples.find],
    [`payctl customers find, rate limit ${rateLimit}/s`, samples.limited],
  ];
  for (const [name, list] of rows) console.log(`${name.padEnd(44)}${seconds(median(list.map((r) => r.first)))}   ${seconds(median(list.map((r) => r.end)))}`);
  const [seq, fast] = [median(samples.sequential.map((r) => r.end)), median(samples.find.map((r) => r.end))];
  console.log(`whole scan: ${(seq / fast).toFixed(1)}x faster than the sequential scan; ${fast <= 3 ? 'met' : 'MISSED'} the target of 3 s`);
  console.log(`rate limit ${rateLimit}/s: 429s waited out per run: ${rateLimitedPerRun.join(', ')}; every run found the customer and exited 0`);
} finally {
  open.stop();
  limited.stop();
}
