// Bundles payctl into dist/: one small entry chunk (commander and the command
// tree) and one chunk per command and library, loaded with import() only when
// needed, so `payctl --version` opens few files and parses little.
import { build } from 'esbuild';
import { readFileSync, rmSync } from 'node:fs';

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

rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });
await build({
  entryPoints: { cli: 'src/cli.ts' },
  outdir: 'dist',
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
