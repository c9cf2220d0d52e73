#!/usr/bin/env node
'use strict';
// payctl's launcher, CommonJS like dist/ (see bin/package.json). `--version` is
// answered before the bundle loads, so it costs no more than starting Node itself.
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  process.stdout.write(`${require('../package.json').version}\n`);
} else {
  require('../dist/cli.cjs');
}
