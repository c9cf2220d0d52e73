import { createRequire } from 'node:module';

/**
 * Where jq-wasm's `jq.wasm` is, as node_modules lays it out. dist/cli.cjs has its
 * own version of this module, which asks the bundle's require (scripts/build.mjs):
 * the bundle has no `import.meta`.
 */
export const jqWasmFile = (): string => createRequire(import.meta.url).resolve('jq-wasm/jq.wasm');
