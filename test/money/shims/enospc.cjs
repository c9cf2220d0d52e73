// A disk that fills up: after PAYCTL_TEST_JOURNAL_WRITES successful writes to a
// batch journal (a file whose name ends in .journal), every further write to it
// fails with ENOSPC, the first of them after writing half its bytes, as a full
// disk does. For machines where a small tmpfs cannot be mounted. Loaded with NODE_OPTIONS=--require.
const fs = require('node:fs');
const { openSync, writeSync } = fs;
let left = Number(process.env.PAYCTL_TEST_JOURNAL_WRITES);
let torn = false;
const journalFds = new Set();
fs.openSync = function (file, ...rest) {
  const fd = openSync.call(this, file, ...rest);
  if (String(file).endsWith('.journal')) journalFds.add(fd);
  return fd;
};
fs.writeSync = function (fd, data, offset, ...rest) {
  if (!journalFds.has(fd) || left-- > 0) return writeSync.call(this, fd, data, offset, ...rest);
  if (!torn && Buffer.isBuffer(data)) {
    torn = true;
    const start = typeof offset === 'number' ? offset : 0;
    return writeSync.call(this, fd, data, start, Math.floor((data.length - start) / 2));
  }
  throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', errno: -28, syscall: 'write' });
};
// A disk that fails under the journal: after PAYCTL_TEST_JOURNAL_FSYNCS successful fsyncs of a batch journal
// (unset: every one succeeds), every further one fails with EIO.
const { fsync } = fs;
let fsyncsLeft = Number(process.env.PAYCTL_TEST_JOURNAL_FSYNCS ?? Infinity);
fs.fsync = function (fd, callback) {
  if (!journalFds.has(fd) || fsyncsLeft-- > 0) return fsync.call(this, fd, callback);
  process.nextTick(callback, Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO', errno: -5, syscall: 'fsync' }));
};
