'use strict';
// Prepares what the launcher reads from a freshly built dist/ (bin/dist.js), by
// running the bundle in this process:
// - the V8 code cache of cli.cjs: a few everyday commands run against an
//   embedded sandbox, so the functions they call are compiled, and the cache of
//   all that was compiled is written, after the bundle's build line.
//   build.mjs runs this in a fresh Node with no flags, since V8 accepts a cache
//   only under the flags it was made with. The commands are few: every run
//   reads the whole cache, and a function left out is only compiled when
//   called, as without a cache;
// - the help of every command, as `payctl ... --help` prints it, made after
//   the cache so that help rendering does not grow it.
//   node scripts/prerender.cjs DIST_DIR
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { Readable, Writable } = require('node:stream');
const { loadBundle, cacheFileOf, helpFileOf } = require('../bin/dist.js');

const TRAINING = [
  ['balance', '--json'],
  ['balance'],
  ['customers', 'list', '--limit', '3'],
  ['customers', 'list', '--limit', '3', '--json'],
];

async function main(distDir) {
  const bundle = path.resolve(distDir, 'cli.cjs');
  const { startSandbox } = require(path.resolve(distDir, 'sandbox.cjs'));
  const sandbox = await startSandbox({ port: 0, customers: 10 });
  const configDir = fs.mkdtempSync(path.join(os.tmpdir(), 'payctl-prerender-'));
  try {
    const { exports: cli, script, stamp } = loadBundle(bundle, { useCache: false });
    const env = { PATH: process.env.PATH ?? '', HOME: configDir, PAYCTL_CONFIG_DIR: configDir, PAYCTL_BASE_URL: sandbox.url };
    const secret = sandbox.credentials.find((c) => c.clientId === 'acme').clientSecret;
    await run(cli, ['auth', 'login', '--client-id', 'acme', '--client-secret-stdin'], env, `${secret}\n`);
    for (const argv of TRAINING) await run(cli, argv, env);
    fs.writeFileSync(cacheFileOf(bundle), Buffer.concat([Buffer.from(`${stamp}\n`), script.createCachedData()]));

    fs.mkdirSync(path.join(distDir, 'help'), { recursive: true });
    for (const words of await cli.commandPaths()) {
      const file = helpFileOf(distDir, words);
      if (!file) throw new Error(`no help file name for the command "${words.join(' ')}"`);
      fs.writeFileSync(file, await run(cli, [...words, '--help'], env));
    }
  } finally {
    await sandbox.close();
    fs.rmSync(configDir, { recursive: true, force: true });
  }
}

/** Runs one command with no terminal and returns its stdout; a failure stops the build. */
async function run(cli, argv, env, input = '') {
  const collected = { stdout: '', stderr: '' };
  const sink = (name) => new Writable({ write: (chunk, _encoding, done) => ((collected[name] += chunk), done()) });
  const io = { stdin: Readable.from([input]), stdout: sink('stdout'), stderr: sink('stderr'), stdinIsTTY: false, stdoutIsTTY: false, stderrIsTTY: false };
  const code = await cli.main(argv, io, env);
  if (code !== 0) throw new Error(`payctl ${argv.join(' ')} exited ${code} while preparing dist/: ${collected.stderr}`);
  return collected.stdout;
}

main(process.argv[2]).catch((error) => {
  console.error(error);
  process.exit(1);
});
