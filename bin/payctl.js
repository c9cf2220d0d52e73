#!/usr/bin/env node
'use strict';
// payctl's launcher, CommonJS like dist/ (see bin/package.json). What it must know
// before loading the bundle is read off the command line by the function main uses
// too (src/command-line.ts, built into dist/command-line.cjs). `--version` (and
// `-V`, `-v`, `version`), and `--help` of any command (and `help COMMAND...`), are
// answered without loading the bundle (the help was rendered from it at build
// time, bin/dist.js; words that name no command go to the bundle, which says so),
// and written straight to the file descriptor (setting up process.stdout loads the
// streams stack), so that they cost little more than starting Node itself. A `--debug` run loads the bundle
// so that its stack traces name payctl's source files, and an export runs in a
// worker thread whose heap stays small (bin/dist.js).
const args = process.argv.slice(2);
const commandLine = require('../dist/command-line.cjs');
const line = commandLine.readCommandLine(args);
const answer = line.version ? `${commandLine.VERSION}\n` : line.help ? require('./dist.js').readHelp(line.help) : undefined;
if (answer !== undefined) writeOut(answer);
else if (line.debug) require('./dist.js').loadReadableBundle().run(args);
else if (require('./dist.js').isExport(line)) require('./dist.js').runInThread(args);
else require('./dist.js').loadBundle().exports.run(args);

function writeOut(text) {
  let bytes = Buffer.from(text);
  try {
    while (bytes.length > 0) bytes = bytes.subarray(require('node:fs').writeSync(1, bytes));
  } catch (error) {
    // A reader that has gone (`payctl --help | head -1`) wants no more; a
    // descriptor left non-blocking (EAGAIN) is left to Node's stream to wait on.
    if (error.code !== 'EPIPE') process.stdout.write(bytes);
  }
}
