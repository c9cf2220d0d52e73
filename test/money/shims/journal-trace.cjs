// Records, in order, every write and fsync (its start and its end) on a batch journal (a file whose name
// ends in .journal) and every POST this process sends, then writes them as JSON
// lines to PAYCTL_TEST_TRACE when the process exits. Loaded with NODE_OPTIONS=--require.
// The audit log's writes, fsyncs and closes are recorded too, as audit-write, audit-fsync-start, audit-fsync
// and audit-close, with their descriptor.
const fs = require('node:fs');
const http = require('node:http');
const { openSync, writeSync, fsync, fsyncSync, closeSync, writeFileSync } = fs;
const traceFile = process.env.PAYCTL_TEST_TRACE;
const journalFds = new Set();
const auditFds = new Set();
const events = [];
// A descriptor number is reused once closed (the journal's is closed before the last audit outcomes are
// written, and a rotation then opens a new audit file): each open says afresh what its number is.
fs.openSync = function (file, ...rest) {
  const fd = openSync.call(this, file, ...rest);
  journalFds.delete(fd);
  auditFds.delete(fd);
  if (String(file).endsWith('.journal')) journalFds.add(fd);
  if (String(file).endsWith('audit.ndjson')) auditFds.add(fd);
  return fd;
};
const textOf = (data, offset) => (Buffer.isBuffer(data) ? data.toString('utf8', typeof offset === 'number' ? offset : 0) : String(data));
fs.writeSync = function (fd, data, ...rest) {
  if (journalFds.has(fd)) events.push({ event: 'write', text: textOf(data, rest[0]) });
  if (auditFds.has(fd)) events.push({ event: 'audit-write', fd, text: textOf(data, rest[0]) });
  return writeSync.call(this, fd, data, ...rest);
};
fs.closeSync = function (fd) {
  journalFds.delete(fd);
  if (auditFds.delete(fd)) events.push({ event: 'audit-close', fd });
  return closeSync.call(this, fd);
};
let fsyncs = 0;
fs.fsyncSync = function (fd) {
  const id = fsyncs++;
  if (journalFds.has(fd)) events.push({ event: 'fsync-start', id });
  const result = fsyncSync.call(this, fd);
  if (journalFds.has(fd)) events.push({ event: 'fsync', id });
  return result;
};
// The asynchronous form: its start when called, its end when the callback runs (the data is on disk then).
fs.fsync = function (fd, callback) {
  const id = fsyncs++;
  const prefix = journalFds.has(fd) ? '' : auditFds.has(fd) ? 'audit-' : undefined;
  if (prefix === undefined) return fsync.call(this, fd, callback);
  events.push({ event: `${prefix}fsync-start`, fd, id });
  return fsync.call(this, fd, (error) => {
    if (!error) events.push({ event: `${prefix}fsync`, fd, id });
    callback(error);
  });
};
const end = http.ClientRequest.prototype.end;
http.ClientRequest.prototype.end = function (chunk, ...rest) {
  if (this.method === 'POST') events.push({ event: 'post', path: this.path, body: chunk ? String(chunk) : '' });
  return end.call(this, chunk, ...rest);
};
process.on('exit', () => writeFileSync(traceFile, events.map((e) => JSON.stringify(e)).join('\n') + '\n'));
