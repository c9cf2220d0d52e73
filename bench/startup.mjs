// Start-up benchmark: times, interleaved in one run, `node -e 0`, `payctl --version`,
// `payctl --help` and `payctl balance --json` against a local server, and prints the
// medians and their ratios to `node -e 0`. Targets: 1.15x, 1.3x and 1.5x. A last
// row times a bare script that makes the same request with node:http and writes
// the body: the least `balance --json` can cost with node:http.
//   npm run bench:startup            (BENCH_RUNS=60 for more runs)
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = path.join(root, 'bin/payctl.js');
const runs = Number(process.env.BENCH_RUNS ?? 40);

// The API answer comes from a separate process, so the server's work is not timed against payctl.
const server = spawn(process.execPath, ['-e', `
  const body = JSON.stringify({ data: { disponiblePixBalance: 1234.56, disponibleCardBalance: 10, disponibleBilletBalance: 0, withdrawalsInProcessingBalance: 0 }, message: 'ok' });
  require('node:http').createServer((req, res) => { res.writeHead(200, { 'content-type': 'application/json' }); res.end(body); })
    .listen(0, '127.0.0.1', function () { console.log(this.address().port); });
`], { stdio: ['ignore', 'pipe', 'inherit'] });
const port = await new Promise((resolve) => server.stdout.once('data', (d) => resolve(String(d).trim())));

const env = {
  PATH: process.env.PATH,
  HOME: tmpdir(),
  PAYCTL_CONFIG_DIR: mkdtempSync(path.join(tmpdir(), 'payctl-bench-')),
  PAYCTL_BASE_URL: `http://127.0.0.1:${port}`,
  PAYCTL_TOKEN: 'bench-token',
};

const cases = [
  ['node -e 0', ['-e', '0']],
  ['payctl --version', [bin, '--version']],
  ['payctl --help', [bin, '--help']],
  ['payctl balance --json', [bin, 'balance', '--json']],
  ['bare node:http GET', ['-e', `
    const http = require('node:http');
    http.get(process.env.PAYCTL_BASE_URL + '/balance', { agent: new http.Agent({ keepAlive: true }) }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (chunk) => (body += chunk)).on('end', () => require('node:fs').writeSync(1, body));
    });
  `]],
];

const samples = new Map(cases.map(([name]) => [name, []]));
try {
  for (const [, args] of cases) spawnSync(process.execPath, args, { env }); // warm the file cache
  for (let i = 0; i < runs; i++) {
    for (const [name, args] of cases) {
      const started = process.hrtime.bigint();
      const result = spawnSync(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
      const elapsed = Number(process.hrtime.bigint() - started) / 1e6;
      if (result.status !== 0) throw new Error(`${name} exited ${result.status}: ${result.stderr}`);
      samples.get(name).push(elapsed);
    }
  }
} finally {
  server.kill();
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const base = median(samples.get('node -e 0'));
const targets = { 'payctl --version': 1.15, 'payctl --help': 1.3, 'payctl balance --json': 1.5 };
console.log(`start-up, ${runs} interleaved runs each, node ${process.version}`);
for (const [name] of cases) {
  const value = median(samples.get(name));
  const ratio = value / base;
  const target = targets[name];
  console.log(`${name.padEnd(24)} median ${value.toFixed(1).padStart(6)} ms  ${ratio.toFixed(2)}x${target ? `  (target ≤ ${target}x: ${ratio <= target ? 'met' : 'MISSED'})` : ''}`);
}
