// Builds dist/ for a fast start. On Node 20 the ES module loader alone costs
// several milliseconds (it reads files through fs/promises, which loads the whole
// streams stack) and every module file adds to it, so payctl is bundled as
// CommonJS: its own code is one file, dist/cli.cjs, in which each command's code
// runs only when that command does (and so do the requires of the Node built-ins
// it uses); ky is in it too, with its Fetch API classes swapped (see scripts/bundle-options.mjs).
// The libraries only some runs need (chalk, conf, inquirer, proper-lockfile, exceljs) and the
// sandbox are bundled apart, into dist/vendor/ and dist/sandbox.cjs, and required
// on first use.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { cliBundle, common } from './bundle-options.mjs';
import { writeValidators } from './gen-validators.mjs';

/** Bundles loaded on demand: the package each re-exports, by bundle name. */
const VENDOR = {
  chalk: 'chalk',
  conf: 'conf',
  inquirer: '@inquirer/prompts',
  'proper-lockfile': 'proper-lockfile',
  // Only for tables and CSV files: kept out of dist/cli.cjs, whose code cache every run reads.
  'csv-parse': 'csv-parse/sync',
  'get-east-asian-width': 'get-east-asian-width',
  // Only when a proxy variable is set (src/http/proxy.ts).
  'proxy-from-env': 'proxy-from-env',
  'https-proxy-agent': 'https-proxy-agent',
  'http-proxy-agent': 'http-proxy-agent',
  // Only for an answer holding an integer a double may not keep (src/http/json.ts).
  'lossless-json': 'lossless-json',
  // Only for profiles whose ledger is a PostgreSQL database (src/ledger/postgres.ts).
  pg: 'pg',
  pgpass: 'pgpass',
  // Only for runs that write or read a workbook (-o xlsx, withdraw batch FILE.xlsx).
  exceljs: 'exceljs',
};
const BUNDLE_OF = Object.fromEntries(Object.entries(VENDOR).map(([bundle, pkg]) => [pkg, `./vendor/${bundle}.cjs`]));
const APART = new RegExp(`^(${Object.values(VENDOR).map((pkg) => pkg.replace(/[/.-]/g, '\\$&')).join('|')})$`);


/**
 * In dist/cli.cjs, `import('chalk')` and the like become a require of the library's
 * own bundle, made when the import runs: most runs never load them.
 */
const requireApart = {
  name: 'require-apart',
  setup(builder) {
    builder.onResolve({ filter: APART }, (args) => ({ path: BUNDLE_OF[args.path], namespace: 'apart' }));
    builder.onResolve({ filter: /\/sandbox\/server\.js$/ }, () => ({ path: './sandbox.cjs', namespace: 'apart' }));
    builder.onResolve({ filter: /\.cjs$/, namespace: 'apart' }, (args) => ({ path: args.path, external: true }));
    // An ES module re-exporting the bundle, so its `default` is the library's own default export.
    builder.onLoad({ filter: /.*/, namespace: 'apart' }, (args) => ({
      contents: `export * from ${JSON.stringify(args.path)}; export { default } from ${JSON.stringify(args.path)};`,
      loader: 'js',
    }));
  },
};

/**
 * commander requires node:child_process at load time for executable subcommands,
 * which payctl does not use; loading it costs about 15 ms of every run. Inside
 * commander it is replaced by a module that loads it on first use.
 */
const lazyChildProcess = {
  name: 'lazy-child-process',
  setup(builder) {
    builder.onResolve({ filter: /^node:child_process$/ }, (args) =>
      args.importer.includes(`${'node_modules'}/commander/`) ? { path: 'lazy-child-process', namespace: 'lazy' } : undefined,
    );
    builder.onLoad({ filter: /.*/, namespace: 'lazy' }, () => ({
      contents: "let loaded; module.exports = new Proxy({}, { get: (_, key) => (loaded ??= require('node:child_process'))[key] });",
      loader: 'js',
    }));
  },
};

/**
 * esbuild turns `import fs from 'node:fs'` into a copy of the whole module, a getter made for
 * each of its exports (its `__toESM`), once in every file that imports it so: 22 copies in
 * dist/cli.cjs, 2% of the CPU profile of `balance --json`. Payctl's own imports of these modules
 * go instead to one ES module each that re-exports the module (default) and its plain values
 * (named), which the bundle links to directly. Only functions and objects are re-exported: a
 * number or string read at load may be a getter on a later Node (Node 24 warns on stderr when
 * fs.F_OK is read, DEP0176), and payctl imports none by name. A name it does not re-export (a
 * getter, such as fs.promises, or a constant such as path.sep) fails the build.
 */
const DEFAULT_IMPORTED = /^node:(fs|path|os|http)$/;
const isLinked = (value) => typeof value === 'function' || (typeof value === 'object' && value !== null);
const builtinsAsModules = {
  name: 'builtins-as-modules',
  setup(builder) {
    builder.onResolve({ filter: DEFAULT_IMPORTED }, (args) =>
      args.kind === 'import-statement' && !args.importer.includes(`${'node_modules'}/`) ? { path: args.path, namespace: 'builtin' } : undefined,
    );
    builder.onLoad({ filter: /.*/, namespace: 'builtin' }, async (args) => {
      const { default: builtin } = await import(args.path);
      const values = Object.entries(Object.getOwnPropertyDescriptors(builtin)).filter(([name, d]) => 'value' in d && isLinked(d.value) && /^[A-Za-z_$][\w$]*$/.test(name) && name !== 'default');
      return {
        contents: `const m = require(${JSON.stringify(args.path)});\nexport default m;\nexport const { ${values.map(([name]) => name).join(', ')} } = m;\n`,
        loader: 'js',
      };
    });
  },
};

/**
 * node-postgres asks at load whether it runs in a Cloudflare Worker: where Node has no `navigator`
 * (Node 20) it builds a `Response` to find out, which loads undici, 50 ms of every run with a team
 * ledger, before its first claim. payctl runs on Node only, so the answer is built in.
 */
const PG_RUNTIME_CHECK = 'function isCloudflareRuntime() {';
const pgOnNode = {
  name: 'pg-on-node',
  setup(builder) {
    builder.onLoad({ filter: /[/\\]node_modules[/\\]pg[/\\]lib[/\\]stream\.js$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      if (!source.includes(PG_RUNTIME_CHECK)) throw new Error(`${args.path} no longer has ${PG_RUNTIME_CHECK}: see pgOnNode in scripts/build.mjs`);
      return { contents: source.replace(PG_RUNTIME_CHECK, `${PG_RUNTIME_CHECK}\n  return false;`), loader: 'js' };
    });
  },
};

/**
 * The first line of dist/cli.cjs names its build; a code cache starts with the
 * same line and the Node version that made it (bin/dist.js), so a cache is only
 * used with the bundle it was made from, on that Node, whatever happens to the
 * files' dates (npm pack resets them).
 */
const buildLine = `// payctl build ${randomBytes(8).toString('hex')}`;

// The answer checks are code generated from the OpenAPI document, never a schema compiled at run time.
writeValidators();

const dist = 'dist';
const staging = mkdtempSync('dist-build-');
await Promise.all([
  build({
    ...cliBundle,
    entryPoints: { cli: 'src/cli.ts' },
    outdir: staging,
    plugins: [requireApart, lazyChildProcess, builtinsAsModules, ...cliBundle.plugins],
    banner: { js: buildLine },
  }),
  build({
    ...common,
    entryPoints: {
      ...Object.fromEntries(Object.entries(VENDOR).map(([bundle, pkg]) => [`vendor/${bundle}`, pkg])),
      sandbox: 'src/sandbox/server.ts',
      // What bin/payctl.js reads off the command line before it loads dist/cli.cjs: main reads it with the same code.
      'command-line': 'src/command-line.ts',
    },
    outdir: staging,
    outExtension: { '.js': '.cjs' },
    plugins: [pgOnNode],
  }),
]);

// bin/dist.js reads dist/cli.cjs as Latin-1, which is its text only while it is ASCII (esbuild
// escapes what is outside it in strings; a licence comment was not).
const outsideAscii = readFileSync(path.join(staging, 'cli.cjs')).findIndex((byte) => byte > 0x7f);
if (outsideAscii >= 0) {
  rmSync(staging, { recursive: true, force: true });
  throw new Error(`dist/cli.cjs holds a byte outside ASCII at offset ${outsideAscii}: bin/dist.js reads it as Latin-1`);
}

// The V8 code cache of cli.cjs (for this Node; other versions make their own on
// first use) and the help of every command (bin/dist.js), made by running the
// bundle in a fresh Node: with no flags, as payctl runs. The source maps stay
// beside the bundles: a --debug run's stack traces go through them.
const prerendered = spawnSync(process.execPath, ['scripts/prerender.cjs', staging], { stdio: 'inherit', env: { ...process.env, NODE_OPTIONS: '' } });
if (prerendered.status !== 0) {
  rmSync(staging, { recursive: true, force: true });
  throw new Error('preparing dist/ failed');
}

/**
 * Moves the new files in one by one (each rename is atomic), the entry last, so
 * a payctl already running keeps finding the files it loads. Files of earlier
 * builds are removed once they are ten minutes old.
 */
const fresh = new Set();
const files = readdirSync(staging, { recursive: true }).map(String).filter((file) => statSync(path.join(staging, file)).isFile());
files.sort((a, b) => Number(a.startsWith('cli.')) - Number(b.startsWith('cli.')));
for (const file of files) {
  mkdirSync(path.dirname(path.join(dist, file)), { recursive: true });
  renameSync(path.join(staging, file), path.join(dist, file));
  fresh.add(file);
}
rmSync(staging, { recursive: true, force: true });
for (const file of readdirSync(dist, { recursive: true }).map(String)) {
  const full = path.join(dist, file);
  if (!fresh.has(file) && statSync(full).isFile() && Date.now() - statSync(full).mtimeMs > 10 * 60_000) rmSync(full);
}
