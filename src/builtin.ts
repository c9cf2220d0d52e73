import { createRequire } from 'node:module';

/**
 * Loads a Node built-in when first needed, for modules most runs never use.
 * Not `import()`: dist/cli.cjs runs through vm.Script for its code cache
 * (bin/dist.js), where dynamic import is not available. Any absolute
 * path serves to require a built-in.
 */
export function loadBuiltin<T>(name: `node:${string}`): T {
  return createRequire(process.execPath)(name) as T;
}
