#!/usr/bin/env node
// `--version` is answered before the bundle loads: scripts call it often, and it
// should cost no more than starting Node itself.
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  const { readFileSync } = await import('node:fs');
  const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  process.stdout.write(`${version}\n`);
} else {
  await import('../dist/cli.js');
}
