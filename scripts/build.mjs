// Bundles payctl into dist/: one small entry chunk (commander and the command
// tree) and one chunk per command and library, loaded with import() only when
// needed, so `payctl --version` opens few files and parses little.
import { build } from 'esbuild';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

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

const dist = 'dist';
const staging = mkdtempSync('dist-build-');
await build({
  entryPoints: { cli: 'src/cli.ts' },
  outdir: staging,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.12',
  minify: true,
  sourcemap: 'linked',
  chunkNames: 'chunks/[name]-[hash]',
  define: { __PAYCTL_VERSION__: JSON.stringify(version) },
  // Bundled CommonJS (cli-table3) calls require() for Node's built-ins.
  banner: { js: "import { createRequire as __payctlRequire } from 'node:module'; const require = __payctlRequire(import.meta.url);" },
  plugins: [lazyChildProcess],
  logLevel: 'warning',
});

/**
 * Moves the new files in one by one (each rename is atomic), chunks before the
 * entry, so a payctl already running keeps finding the chunks it imports; chunk
 * names carry content hashes, so old and new never clash. Files of earlier builds
 * are removed once they are ten minutes old.
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
