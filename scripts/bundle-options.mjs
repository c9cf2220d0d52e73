// The esbuild options of dist/ (scripts/build.mjs), and those of dist/cli.cjs, which the
// start-up benchmark's own bundles (bench/startup.mjs) share.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

export const common = {
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20.12',
  minify: true,
  sourcemap: 'linked',
  define: { __PAYCTL_VERSION__: JSON.stringify(version) },
  logLevel: 'warning',
};

/**
 * ky builds a WHATWG Request at import (a feature probe) and for every request;
 * on Node 20 the first touch of fetch's classes loads undici, about 30 ms of a
 * 40 ms command. In dist/cli.cjs ky's `globalThis.Headers`, `.Request` and
 * `.Response` are those of src/http/fetch-classes.ts, and `.ReadableStream` and
 * `.FormData` are undefined, so ky takes its no-streams paths. payctl's own
 * code never names these globals (it imports the classes), so only ky is touched.
 */
const kyWithoutUndici = {
  inject: [fileURLToPath(new URL('../src/http/fetch-classes.ts', import.meta.url))],
  define: {
    'globalThis.Headers': 'LiteHeaders',
    'globalThis.Request': 'LiteRequest',
    'globalThis.Response': 'LiteResponse',
    'globalThis.ReadableStream': 'undefined',
    'globalThis.FormData': 'undefined',
  },
};

/**
 * jq-wasm stays in node_modules: in dist/cli.cjs, `import('jq-wasm')` (src/output/jq.ts,
 * only runs with --jq) becomes a require of it, made when the import runs (the bundle
 * runs in a vm.Script, which has no dynamic import), and src/output/jq-wasm-file.ts
 * asks the bundle's require where its jq.wasm is.
 */
const requireJq = {
  name: 'require-jq',
  setup(builder) {
    builder.onResolve({ filter: /^jq-wasm$/ }, (args) => (args.namespace === 'jq' ? { path: 'jq-wasm', external: true } : { path: 'jq-wasm', namespace: 'jq' }));
    builder.onLoad({ filter: /.*/, namespace: 'jq' }, () => ({ contents: "export * from 'jq-wasm';", loader: 'js' }));
    builder.onResolve({ filter: /^jq-wasm\/jq\.wasm$/ }, () => ({ path: 'jq-wasm/jq.wasm', external: true }));
    builder.onResolve({ filter: /\/jq-wasm-file\.js$/ }, () => ({ path: 'jq-wasm-file', namespace: 'jq-wasm-file' }));
    builder.onLoad({ filter: /.*/, namespace: 'jq-wasm-file' }, () => ({
      contents: "export const jqWasmFile = () => require.resolve('jq-wasm/jq.wasm');",
      loader: 'js',
    }));
  },
};

/** dist/cli.cjs's options but for its entry, output folder and build line; its other plugins are scripts/build.mjs's. */
export const cliBundle = {
  ...common,
  outExtension: { '.js': '.cjs' },
  // The licences of what is bundled go to dist/cli.cjs.LEGAL.txt: one character outside ASCII
  // (ky's ©) makes V8 hold the whole source as two bytes a character, and a start-up
  // allocates the source twice (read, then wrapped: bin/dist.js). scripts/build.mjs checks it.
  legalComments: 'linked',
  // Native: resolved from node_modules at run time, and loaded only in the keychain's child process (src/config/keychain.ts).
  external: ['@napi-rs/keyring'],
  inject: kyWithoutUndici.inject,
  define: { ...common.define, ...kyWithoutUndici.define },
  plugins: [requireJq],
};
