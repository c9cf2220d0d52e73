// Counts a payctl process's tries at a lock that another holds: each mkdir of a path ending in
// `.lock` that fails with EEXIST appends a line to PAYCTL_TEST_LOCK_TRIES (proper-lockfile takes a
// lock by mkdir, through graceful-fs, which copies fs's functions when loaded: hence a preload).
// Loaded with NODE_OPTIONS=--require, so a test sees a run waiting on a lock without timing it.
const fs = require('node:fs');

const log = process.env.PAYCTL_TEST_LOCK_TRIES;
const mkdir = fs.mkdir;
fs.mkdir = function (dir, ...rest) {
  const callback = rest.pop();
  return mkdir.call(fs, dir, ...rest, (error, ...results) => {
    if (error?.code === 'EEXIST' && String(dir).endsWith('.lock')) fs.appendFileSync(log, `${dir}\n`);
    callback(error, ...results);
  });
};
