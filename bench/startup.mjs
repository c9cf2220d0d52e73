// Start-up benchmark, on every Node version found (bench/node-versions.mjs): times,
// interleaved in one run (versions and cases alike), `node -e 0`, `payctl --version`,
// `payctl --help`, `payctl balance --json` against a local server, and a bare script
// that makes the same request with node:http and writes the body (the least
// `balance --json` can cost with node:http), and prints the medians and ratios.
// Targets on each version: --version at most 1.05x `node -e 0`, --help at most 1.3x,
// balance --json at most 1.15x the bare node:http GET. One more case, with no target:
// bench/request-path.ts, the request path of balance --json without the command line
// and the rest of a run, bundled and launched as dist/cli.cjs is (the floor of any
// payctl that checks its answers), and bench/request-path-one-attempt.ts, the same
// with the GET sent once through node:http instead of through ky.
// dist/ is as built (by this node); on another version the first run (the warm-up)
// leaves that version's code cache in the user's cache folder, as it does for users.
//   npm run build && npm run bench:startup     (BENCH_RUNS=60 for more runs, BENCH_NODES=22,24)
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startBalanceServer } from './balance-server.mjs';
import { nodeVersions } from './node-versions.mjs';
import { cliBundle } from '../scripts/bundle-options.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = path.join(root, 'bin/payctl.js');
const runs = Number(process.env.BENCH_RUNS ?? 40);
const wanted = process.env.BENCH_NODES?.split(',');
const versions = nodeVersions().filter(({ major }) => !wanted || wanted.includes(major));

// The request path alone (with ky, and sent once without it), each bundled with dist/cli.cjs's
// options and run by bin/dist.js's loader (its code cache is written by the warm-up run, as for
// another Node's first run of payctl).
const requestPathDir = mkdtempSync(path.join(tmpdir(), 'payctl-bench-request-path-'));
const REQUEST_PATHS = ['request-path', 'request-path-one-attempt'];
// One build each: a bundle's code cache is named by its build line (bin/dist.js), so each needs its own.
for (const name of REQUEST_PATHS) {
  await build({
    ...cliBundle,
    sourcemap: false,
    entryPoints: { [name]: path.join(root, `bench/${name}.ts`) },
    outdir: requestPathDir,
    banner: { js: `// payctl build bench${name.replaceAll('-', '')}` },
  });
}
const launcherOf = (name) => {
  const launcher = path.join(requestPathDir, `${name}-launch.cjs`);
  writeFileSync(launcher, `require(${JSON.stringify(path.join(root, 'bin/dist.js'))}).loadBundle(${JSON.stringify(path.join(requestPathDir, `${name}.cjs`))}).exports.run();\n`);
  return launcher;
};

// The API answer comes from a separate process, so the server's work is not timed against payctl.
const { port, stop: stopServer } = await startBalanceServer();

const env = {
  PATH: process.env.PATH,
  HOME: tmpdir(),
  XDG_CACHE_HOME: mkdtempSync(path.join(tmpdir(), 'payctl-bench-cache-')),
  PAYCTL_CONFIG_DIR: mkdtempSync(path.join(tmpdir(), 'payctl-bench-')),
  PAYCTL_BASE_URL: `http://127.0.0.1:${port}`,
  PAYCTL_TOKEN: 'bench-token',
};

const cases = [
  ['node -e 0', ['-e', '0']],
  ['payctl --version', [bin, '--version']],
  ['payctl --help', [bin, '--help']],
  ['payctl balance --json', [bin, 'balance', '--json']],
  ['balance request path alone', [launcherOf('request-path')]],
  ['  the same sent once, no ky', [launcherOf('request-path-one-attempt')]],
  ['bare node:http GET', ['-e', `
    const http = require('node:http');
    http.get(process.env.PAYCTL_BASE_URL + '/balance', { agent: new http.Agent({ keepAlive: true }) }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (chunk) => (body += chunk)).on('end', () => require('node:fs').writeSync(1, body));
    });
  `]],
];
/** Each payctl case against its baseline, with the largest ratio it may have (none: shown, not judged). */
const targets = {
  'payctl --version': ['node -e 0', 1.05],
  'payctl --help': ['node -e 0', 1.3],
  'payctl balance --json': ['bare node:http GET', 1.15],
  'balance request path alone': ['bare node:http GET'],
  '  the same sent once, no ky': ['bare node:http GET'],
};

const samples = new Map(versions.flatMap(({ major }) => cases.map(([name]) => [`${major} ${name}`, []])));
try {
  // Warms the file cache, and leaves each version's code cache (see above).
  for (const { node } of versions) for (const [, args] of cases) spawnSync(node, args, { env });
  for (let i = 0; i < runs; i++) {
    for (const { major, node } of versions) {
      for (const [name, args] of cases) {
        const started = process.hrtime.bigint();
        const result = spawnSync(node, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
        const elapsed = Number(process.hrtime.bigint() - started) / 1e6;
        if (result.status !== 0) throw new Error(`node ${major}, ${name} exited ${result.status}: ${result.stderr}`);
        samples.get(`${major} ${name}`).push(elapsed);
      }
    }
  }
} finally {
  stopServer();
  rmSync(requestPathDir, { recursive: true, force: true });
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
console.log(`start-up, ${runs} interleaved runs each`);
for (const { major, version } of versions) {
  console.log(`\nnode ${version}`);
  const medianOf = (name) => median(samples.get(`${major} ${name}`));
  const base = medianOf('node -e 0');
  for (const [name] of cases) {
    const value = medianOf(name);
    const [against, limit] = targets[name] ?? [];
    const ratio = against && value / medianOf(against);
    const versus = against && against !== 'node -e 0' ? `, ${ratio.toFixed(2)}x ${against}` : '';
    const verdict = limit ? ` (target ≤ ${limit}x${against === 'node -e 0' ? '' : ` ${against}`}: ${ratio <= limit ? 'met' : 'MISSED'})` : '';
    console.log(`${name.padEnd(29)} median ${value.toFixed(1).padStart(6)} ms  ${(value / base).toFixed(2)}x node -e 0${versus}${verdict}`);
  }
}
