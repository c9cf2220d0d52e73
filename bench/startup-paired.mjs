// Paired start-up of `payctl balance --json`, `payctl customers list` (into a pipe: tab-separated)
// and `payctl customers list -o table`: this tree's build against another build of payctl
// (another clone, built), alternated run by run so both see the same moments of a shared
// machine; medians of CPU time (user + system) and wall time, from /usr/bin/time (10 ms steps).
// The answers come from a local server in another process, as in bench/startup.mjs.
//   node bench/startup-paired.mjs /path/to/other/bin/payctl.js   (RUNS=20)
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startBalanceServer } from './balance-server.mjs';

const other = process.argv[2];
if (!other) throw new Error('usage: node bench/startup-paired.mjs OTHER_BIN');
const { port, stop: stopServer } = await startBalanceServer();
const exp = Math.floor(Date.now() / 1000) + 3600;
const part = (v) => Buffer.from(JSON.stringify(v)).toString('base64url');
const token = `${part({ alg: 'HS256' })}.${part({ sub: 't', exp })}.sig`;
const env = { PATH: process.env.PATH, HOME: tmpdir(), XDG_CACHE_HOME: mkdtempSync(path.join(tmpdir(), 'pc-')), PAYCTL_CONFIG_DIR: mkdtempSync(path.join(tmpdir(), 'pc-')), PAYCTL_BASE_URL: `http://127.0.0.1:${port}`, PAYCTL_TOKEN: token };
const bins = { base: path.resolve(other), branch: fileURLToPath(new URL('../bin/payctl.js', import.meta.url)) };
const commands = {
  'balance --json': ['balance', '--json'],
  'customers list': ['customers', 'list'],
  'customers list -o table': ['customers', 'list', '-o', 'table'],
};
const samples = Object.fromEntries(Object.keys(commands).map((command) => [command, { base: [], branch: [] }]));
const runs = Number(process.env.RUNS ?? 20);
for (const bin of Object.values(bins)) for (const args of Object.values(commands)) spawnSync(process.execPath, [bin, ...args], { env });
for (let i = 0; i < runs; i++) {
  for (const [command, args] of Object.entries(commands)) {
    for (const [name, bin] of i % 2 ? Object.entries(bins).reverse() : Object.entries(bins)) {
      const r = spawnSync('/usr/bin/time', ['-f', '%e %U %S', process.execPath, bin, ...args], { env, encoding: 'utf8' });
      if (r.status !== 0) throw new Error(r.stderr);
      const [wall, user, sys] = r.stderr.trim().split('\n').at(-1).split(' ').map(Number);
      samples[command][name].push({ wall: wall * 1000, cpu: (user + sys) * 1000 });
    }
  }
}
stopServer();
const median = (v) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];
for (const [command, { base, branch }] of Object.entries(samples)) {
  for (const key of ['cpu', 'wall']) {
    const [b, n] = [median(base.map((s) => s[key])), median(branch.map((s) => s[key]))];
    console.log(`${command.padEnd(24)} ${key.padEnd(4)}: other ${b.toFixed(0)} ms, this tree ${n.toFixed(0)} ms, ${(n / b).toFixed(3)}x`);
  }
}
