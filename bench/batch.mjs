// Batch benchmark: `payctl withdraw batch FILE --method pix --yes` over BENCH_ROWS rows
// against a sandbox (in a process of its own) that answers every request after
// BENCH_LATENCY_MS, with --concurrency BENCH_CONCURRENCY, in one run, alternating:
//   (a) an account with no withdrawals in its window: the check against the platform reads
//       one empty page, so this is the batch with next to no check (payctl has no way to skip it);
//   (b) an account with BENCH_EARLIER withdrawals made in its window (made before the timed
//       run, straight through the sandbox's API): the check reads them all, 100 a page;
//   (c) (a) with a team ledger on PostgreSQL (`profiles set --ledger`, `ledger init`; each payctl
//       compared a database of its own in the cluster, as their schema versions may differ);
//   (d) the concurrency bound, rows x latency / concurrency: the time the batch would take
//       if only the API's latency counted.
// Each run pays fresh rows (pix keys of its own, so the check finds no twins) from a file in
// a folder of its own (a fresh journal), against a fresh sandbox; the withdrawals are counted
// in the sandbox after. Prints the medians and bound / median side by side, and the same as a
// Markdown table for docs/performance.md.
// Target: each case at 85% of its bound or better (bound / median >= 0.85).
// BENCH_BASELINE=DIR (another checkout, built) times every batch case with its payctl too,
// alternated with this one's, and prints both side by side: one run, one load.
// PostgreSQL is a throw-away cluster in a temporary folder on a free port of 127.0.0.1, as
// test/helpers/postgres.ts starts it (run by the `postgres` user when this runs as root).
//   npm run build && npm run bench:batch
//   (BENCH_RUNS=3, BENCH_ROWS=500, BENCH_LATENCY_MS=100, BENCH_CONCURRENCY=8, BENCH_EARLIER=2000, BENCH_CASES=ledger)
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sandboxUrl } from './sandbox-url.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = path.join(root, 'bin/payctl.js');
const runs = Number(process.env.BENCH_RUNS ?? 3);
const rows = Number(process.env.BENCH_ROWS ?? 500);
const latencyMs = Number(process.env.BENCH_LATENCY_MS ?? 100);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 8);
const earlier = Number(process.env.BENCH_EARLIER ?? 2000);
const workDir = mkdtempSync(path.join(tmpdir(), 'payctl-bench-batch-'));

const baseline = process.env.BENCH_BASELINE ? path.join(path.resolve(process.env.BENCH_BASELINE), 'bin/payctl.js') : undefined;

/** Runs payctl (this checkout's, or `program`); its exit code, output and wall time in seconds. */
function payctl(args, env, input = '', program = bin) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [program, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr, seconds: (performance.now() - started) / 1000 }));
    child.stdin.end(input);
  });
}

async function mustRun(args, env, input, program = bin) {
  const result = await payctl(args, env, input, program);
  if (result.code !== 0) throw new Error(`payctl ${args.join(' ')} exited ${result.code}: ${result.stderr}`);
  return result;
}

const freePort = () =>
  new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });

/** A throw-away PostgreSQL cluster with a password-protected role `ledger` owning the database `payctl`. */
async function startPostgres() {
  const versions = existsSync('/usr/lib/postgresql') ? readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a)) : [];
  const pgBin = versions.map((v) => path.join('/usr/lib/postgresql', v, 'bin')).find((dir) => existsSync(path.join(dir, 'initdb')));
  if (!pgBin) throw new Error('PostgreSQL is not installed (apt-get install postgresql)');
  // PostgreSQL refuses to run as root: then the cluster is made and run by the postgres user.
  const asRoot = process.getuid?.() === 0;
  const dir = mkdtempSync(path.join(asRoot ? '/tmp' : os.tmpdir(), 'payctl-bench-pg-'));
  chmodSync(dir, 0o700);
  const owner = asRoot ? [Number(execFileSync('id', ['-u', 'postgres'])), Number(execFileSync('id', ['-g', 'postgres']))] : undefined;
  if (owner) chownSync(dir, ...owner);
  const run = (program, args, env = process.env) =>
    execFileSync(asRoot ? 'runuser' : path.join(pgBin, program), asRoot ? ['-u', 'postgres', '--', path.join(pgBin, program), ...args] : args, { stdio: 'pipe', env });
  const data = path.join(dir, 'data');
  const password = `pw-${Math.random().toString(36).slice(2)}-secret`;
  const pwfile = path.join(dir, 'pw');
  writeFileSync(pwfile, `${password}\n`, { mode: 0o600 });
  if (owner) chownSync(pwfile, owner[0], -1);
  run('initdb', ['-D', data, '-U', 'ledger', '--auth=scram-sha-256', `--pwfile=${pwfile}`, '-E', 'UTF8', '--no-sync']);
  const port = await freePort();
  // fsync on (the default), unlike the tests: the ledger's commits cost what they would for a team.
  run('pg_ctl', ['-D', data, '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`, '-l', path.join(dir, 'log'), '-w', 'start']);
  /** A database of its own (each payctl compared inits its own: their schema versions may differ); its URL. */
  const database = (name) => {
    run('createdb', ['-h', '127.0.0.1', '-p', String(port), '-U', 'ledger', name], { ...process.env, PGPASSWORD: password });
    return `postgres://ledger@127.0.0.1:${port}/${name}`;
  };
  return {
    database,
    password,
    close: () => {
      run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** A sandbox in a process of its own, answering after latencyMs. */
async function startSandbox() {
  const child = spawn(process.execPath, [bin, 'sandbox', 'start', '--port', '0', '--latency', String(latencyMs)], { stdio: ['ignore', 'pipe', 'ignore'] });
  return { url: await sandboxUrl(child), stop: () => child.kill('SIGTERM') };
}

/**
 * `count` withdrawals made in the account before the timed batch, as colleagues' would be:
 * straight through the sandbox's API (not payctl), 32 at a time, to keys of their own.
 */
async function makeEarlier(url, bank, count) {
  if (count === 0) return;
  const auth = await fetch(`${url}/auth`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ clientId: 'acme', clientSecret: 'acme-sandbox-secret' }) });
  const token = (await auth.json()).data.accessToken;
  let next = 0;
  const one = async () => {
    for (let i = next++; i < count; i = next++) {
      const post = () =>
        fetch(`${url}/withdrawals/withdraw`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ withdrawalMethod: 'pix', amount: 100 + i, bankAccountId: Number(bank), pixKeyType: 'EMAIL', pixKey: `earlier-${i}@example.com` }),
        });
      // A kept-alive connection the sandbox closed meanwhile: asked again (a second one made is only one more earlier withdrawal).
      const answer = await post().catch(post).catch(post);
      if (!answer.ok) throw new Error(`an earlier withdrawal was refused: ${answer.status} ${await answer.text()}`);
    }
  };
  await Promise.all(Array.from({ length: 32 }, one));
}

const db = await startPostgres();
try {
  /** A config folder of its own: one operator. */
  const operator = (extra = {}) => ({
    PATH: process.env.PATH,
    HOME: tmpdir(),
    XDG_CACHE_HOME: mkdtempSync(path.join(workDir, 'cache-')),
    PAYCTL_CONFIG_DIR: mkdtempSync(path.join(workDir, 'config-')),
    ...extra,
  });
  const plain = operator();
  const programs = { this: bin, ...(baseline ? { baseline } : {}) };
  /** The operator with a team ledger, for each payctl compared. */
  const withLedger = {};
  for (const [which, program] of Object.entries(programs)) {
    withLedger[which] = operator({ PGPASSWORD: db.password });
    const url = db.database(`payctl_${which}`);
    for (const args of [['profiles', 'set', 'default', '--ledger', url], ['ledger', 'init']]) await mustRun(args, withLedger[which], '', program);
  }

  /**
   * One batch of fresh rows (keys named after the batch) from a folder of its own, so its
   * journal is new, against a sandbox of its own, so every batch's check reads the same
   * account (with no earlier withdrawals) whatever ran before it.
   */
  let batches = 0;
  const batch = async ({ env: envOf, made = 0 }, which = 'this') => {
    const program = programs[which];
    const operatorEnv = envOf(which);
    const n = batches++;
    const sandbox = await startSandbox();
    try {
      const env = { ...operatorEnv, PAYCTL_BASE_URL: sandbox.url };
      // Set up by the payctl timed: with a ledger, its writes are audited in its own database.
      await mustRun(['auth', 'login', '--client-id', 'acme', '--client-secret-stdin'], env, 'acme-sandbox-secret\n', program);
      await mustRun(['api', 'POST', '/sandbox/balance', '--main-account', '--data', JSON.stringify({ pix: 900_000_000 })], env, '', program);
      const bank = (await mustRun(['bank-accounts', 'list', '--main-account', '--fields', 'id', '-o', 'tsv'], env, '', program)).stdout.split('\n')[0];
      await makeEarlier(sandbox.url, bank, made);
      const count = async () => (await mustRun(['withdrawals', 'list', '--main-account', '--all', '-o', 'ndjson'], env)).stdout.split('\n').filter(Boolean).length;
      const before = await count();
      const file = path.join(mkdtempSync(path.join(workDir, 'batch-')), 'payouts.csv');
      const lines = Array.from({ length: rows }, (_, i) => `${100 + i},${bank},email,bench-${n}-${i}@example.com`);
      writeFileSync(file, ['amount,bank_account_id,pix_key_type,pix_key', ...lines].join('\n') + '\n');
      const result = await payctl(['withdraw', 'batch', file, '--method', 'pix', '--yes', '--main-account', '--concurrency', String(concurrency), '-o', 'csv'], env, '', program);
      if (result.code !== 0) throw new Error(`batch exited ${result.code}: ${result.stderr}`);
      const sent = (await count()) - before;
      if (sent !== rows) throw new Error(`the sandbox holds ${sent} new withdrawals, not ${rows}`);
      return result.seconds;
    } finally {
      sandbox.stop();
    }
  };

  const bound = (rows * latencyMs) / concurrency / 1000;
  const allCases = {
    'no withdrawals in the window (check: 1 page)': { env: () => plain },
    [`${earlier} withdrawals in the window (check: ${Math.floor(earlier / 100) + 1} pages)`]: { env: () => plain, made: earlier },
    'no withdrawals, team ledger (PostgreSQL)': { env: (which) => withLedger[which] },
  };
  // BENCH_CASES=ledger: only the cases whose name holds it.
  const cases = Object.fromEntries(Object.entries(allCases).filter(([name]) => name.includes(process.env.BENCH_CASES ?? '')));
  const load = os.loadavg()[0];
  console.log(`withdraw batch: ${rows} rows, sandbox latency ${latencyMs} ms, --concurrency ${concurrency}, ${runs} runs per case alternated, node ${process.version}`);
  for (const c of Object.values(cases)) for (const which of Object.keys(programs)) await batch(c, which); // warm-up: caches, the ledger's first connections
  const times = Object.fromEntries(Object.keys(cases).flatMap((name) => Object.keys(programs).map((which) => [`${name}|${which}`, []])));
  for (let run = 0; run < runs; run++) {
    for (const [name, c] of Object.entries(cases)) for (const which of Object.keys(programs)) times[`${name}|${which}`].push(await batch(c, which));
  }
  const table = ['| case | payctl | median | runs | bound / median | target ≥ 0.85 |', '|---|---|---|---|---|---|'];
  for (const [key, seconds] of Object.entries(times)) {
    const [name, which] = key.split('|');
    const m = median(seconds);
    const ratio = bound / m;
    console.log(`${name.padEnd(48)} ${which.padEnd(8)} median ${m.toFixed(2).padStart(6)} s   bound/median ${ratio.toFixed(2)}   (${seconds.map((s) => s.toFixed(2)).join(', ')})`);
    table.push(`| ${name} | ${which} | ${m.toFixed(2)} s | ${seconds.map((s) => s.toFixed(2)).join(', ')} s | ${ratio.toFixed(2)} | ${ratio >= 0.85 ? 'met' : 'not met'} |`);
  }
  console.log(`${'concurrency bound (rows x latency / n)'.padEnd(57)}        ${bound.toFixed(2).padStart(6)} s   1.00`);
  table.push(`| concurrency bound (${rows} × ${latencyMs} ms / ${concurrency}) | | ${bound.toFixed(2)} s | | 1.00 | |`);
  console.log(`target: bound/median >= 0.85; ${batches} batches, each of its ${rows} withdrawals counted in its sandbox; load average ${load.toFixed(1)} at start, ${os.loadavg()[0].toFixed(1)} at end`);
  console.log(`\n${table.join('\n')}`);
} finally {
  db.close();
  rmSync(workDir, { recursive: true, force: true });
}
