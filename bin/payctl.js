#!/usr/bin/env node
'use strict';
// payctl's launcher, CommonJS like dist/ (see bin/package.json). `--version` is
// answered before the bundle loads, and written straight to the file descriptor
// (setting up process.stdout loads the streams stack), so that it costs no more
// than starting Node itself.
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  const line = `${require('../package.json').version}\n`;
  try {
    require('node:fs').writeSync(1, line);
  } catch {
    process.stdout.write(line);
  }
} else {
  require('../dist/cli.cjs');
}
