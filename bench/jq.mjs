// --jq benchmark, in one run, over 100,000 customers: `payctl customers list --all --jq '.[].id'`
// (the whole list as one array, as jq takes it), `--all -o ndjson --jq '.id'` (each item, the
// same ids) and `payctl customers list --all --json | jq '.[].id'` (the jq program on PATH):
// wall time to the last line, medians of interleaved runs. A case that fails (jq's WebAssembly
// memory is capped at 256 MB) is reported as failed, with payctl's message, and left out of
// later runs. The sandbox runs in a process of its own (`payctl sandbox start`).
//   npm run build && npm run bench:jq
//   (BENCH_RUNS=3, BENCH_CUSTOMERS=100000, BENCH_NODES=20,22,24)
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
const customers = Number(process.env.BENCH_CUSTOMERS ?? 100_000);
const runs = Number(process.env.BENCH_RUNS ?? 3);
const wanted = process.env.BENCH_NODES?.split(',');
const versions = nodeVersions().filter(({ major }) => !wanted || wanted.includes(major));
const expression = '.[].id';

const sandbox = spawn(process.execPath, [bin, 'sandbox', 'start', '--port', '0', '--customers', String(customers)], { stdio: ['ignore', 'pipe', 'ignore'] });
const env = {
  PATH: process.env.PATH,
  HOME: tmpdir(),
  XDG_CACHE_HOME: mkdtempSync(path.join(tmpdir(), 'payctl-bench-cache-')),
  PAYCTL_CONFIG_DIR: mkdtempSync(path.join(tmpdir(), 'payctl-bench-')),
  PAYCTL_BASE_URL: await sandboxUrl(sandbox),
};
const shellWord = (word) => `'${word.replaceAll("'", `'\\''`)}'`;
try {
  for (const { node } of versions) await runCounted(node, [bin, 'auth', 'login', '--client-id', 'acme', '--client-secret-stdin'], env, 'acme-sandbox-secret\n');
  const cases = {
    [`payctl customers list --all --jq '${expression}'`]: (node) => runCounted(node, [bin, 'customers', 'list', '--all', '--jq', expression], env),
    [`payctl customers list --all -o ndjson --jq '.id'`]: (node) => runCounted(node, [bin, 'customers', 'list', '--all', '-o', 'ndjson', '--jq', '.id'], env),
    [`payctl customers list --all --json | jq '${expression}'`]: (node) =>
      runCounted('sh', ['-c', `${shellWord(node)} ${shellWord(bin)} customers list --all --json | jq ${shellWord(expression)}`], env),
  };
  const samples = new Map(versions.flatMap(({ major }) => Object.keys(cases).map((name) => [`${major} ${name}`, []])));
  const failed = new Map();
  // Interleaved, so a slow moment of the machine does not fall on one case only.
  for (let i = 0; i < runs; i++) {
    for (const { major, node } of versions) {
      for (const [name, measure] of Object.entries(cases)) {
        const key = `${major} ${name}`;
        if (failed.has(key)) continue;
        try {
          const sample = await measure(node);
          if (sample.lines !== customers) throw new Error(`got ${sample.lines} lines`);
          samples.get(key).push(sample.seconds);
        } catch (error) {
          failed.set(key, error.message.split('\n').filter(Boolean).at(-1));
        }
      }
    }
  }
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  console.log(`--jq over ${customers} customers, median of ${runs} interleaved runs (jq on PATH: the pipe's)`);
  for (const { major, version } of versions) {
    console.log(`\nnode ${version}`);
    for (const name of Object.keys(cases)) {
      const key = `${major} ${name}`;
      console.log(`${name.padEnd(60)} ${failed.has(key) ? `failed: ${failed.get(key)}` : `${median(samples.get(key)).toFixed(2).padStart(7)} s`}`);
    }
  }
} finally {
  sandbox.kill('SIGTERM');
}
