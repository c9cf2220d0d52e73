'use strict';
// What the launcher reads from dist/, and what the build prepares there by
// running the bundle (scripts/prerender.cjs): the V8 code cache of dist/cli.cjs
// and the help of every command.
const fs = require('node:fs');
const path = require('node:path');

const DIST = path.join(__dirname, '../dist');
const BUNDLE = path.join(DIST, 'cli.cjs');
const cacheFileOf = (bundle) => `${bundle}.cache`;
/**
 * What a code cache is good for: the bundle's build (its first line, written by
 * scripts/build.mjs) on this Node version and processor. A cache starts with it.
 */
const stampOf = (source) => `${source.slice(0, source.indexOf('\n'))} node ${process.version} ${process.arch}`;

/** Where the help of `payctl WORDS... --help` is kept; undefined for words no command has. */
function helpFileOf(distDir, words) {
  if (!words.every((word) => /^[a-z][a-z0-9-]*$/.test(word))) return undefined;
  return path.join(distDir, 'help', `${['payctl', ...words].join('.')}.txt`);
}

/** The pre-rendered help of `payctl WORDS... --help`, if WORDS name a command. */
function readHelp(words) {
  const file = helpFileOf(DIST, words);
  if (!file) return undefined;
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/**
 * Runs the bundle as CommonJS would, but through vm.Script with a V8 code
 * cache: compiling the bundle and the functions a command calls is a third of a
 * short run, and the cache skips most of it. (Node 22's module.enableCompileCache
 * does this for required files, but its cache is made as the file is loaded,
 * without the functions a command then calls: on Node 22, balance --json
 * measured 1.39x a bare request with it, 1.30x with this.)
 *
 * V8 takes a cache only from its own version and flags. The build's cache
 * (dist/cli.cjs.cache) serves the Node that built payctl; on another Node, or
 * when V8 refuses it, payctl runs without one and, on its way out, writes one
 * made by that run into the user's cache folder, which later runs of this build
 * on this Node use first. `useCache: false` is for the build, which makes the
 * cache itself.
 */
function loadBundle(file = BUNDLE, { useCache = true } = {}) {
  const vm = require('node:vm');
  const { createRequire } = require('node:module');
  const { source, spare } = readWrapped(file);
  const stamp = stampOf(source.slice(WRAPPER_HEAD.length));
  const ownCache = useCache ? userCacheFileOf(stamp) : undefined;
  const cachedData = useCache ? (readCache(ownCache, stamp, { into: spare }) ?? readCache(cacheFileOf(file), stamp, { own: false, into: spare })) : undefined;
  const script = new vm.Script(source, {
    filename: file,
    lineOffset: -1,
    cachedData,
  });
  if (ownCache && (cachedData === undefined || script.cachedDataRejected)) {
    process.once('exit', () => writeCache(ownCache, stamp, script));
  }
  const module = { exports: {} };
  script.runInThisContext()(module.exports, createRequire(file), module, file, path.dirname(file));
  return { exports: module.exports, script, stamp };
}

// The bundle as a CommonJS module's function. The wrapper's head is a line of its own, so line
// numbers in stack traces are the file's (lineOffset -1).
const WRAPPER_HEAD = '(function (exports, require, module, __filename, __dirname) {\n';
const WRAPPER_TAIL = '\n})';

/**
 * The bundle's source inside the wrapper, read into one buffer and decoded once: joining
 * the wrapper to the source as strings made a second copy of the source in V8's young
 * generation (about a megabyte when payctl starts, and what fills it sooner brings the
 * next scavenge sooner). The build keeps dist/cli.cjs ASCII (scripts/build.mjs), so it is read
 * as Latin-1, a plain copy with no UTF-8 check, into a string of a byte a character.
 *
 * The buffer is then `spare`, and the code cache is read into it (readCache): memory a
 * process touches for the first time costs a page fault for every 4 KB, the larger part of
 * reading a file here, and a buffer this size gets pages of its own. It is twice the source,
 * room for a cache (1.1 to 1.3 times the source); the pages a read never reaches are never
 * touched.
 */
function readWrapped(file) {
  const fd = fs.openSync(file, 'r');
  try {
    const size = fs.fstatSync(fd).size;
    const spare = Buffer.allocUnsafe(2 * (WRAPPER_HEAD.length + size + WRAPPER_TAIL.length));
    let end = spare.write(WRAPPER_HEAD, 'latin1');
    end += readInto(fd, spare.subarray(end, end + size));
    end += spare.write(WRAPPER_TAIL, end, 'latin1');
    return { source: spare.toString('latin1', 0, end), spare };
  } finally {
    fs.closeSync(fd);
  }
}

/** Reads an open file from its start into `bytes`, up to their length; returns how many were read. */
function readInto(fd, bytes) {
  let end = 0;
  for (let read; end < bytes.length && (read = fs.readSync(fd, bytes, end, bytes.length - end, end)) > 0; ) end += read;
  return end;
}

/** The whole of an open file, read into `into` when it fits (its source was decoded already), else into a buffer of its own. */
function readWhole(fd, size, into) {
  const bytes = into && into.length >= size ? into.subarray(0, size) : Buffer.allocUnsafe(size);
  return bytes.subarray(0, readInto(fd, bytes));
}

/**
 * The bundle for a `--debug` run, whose stack traces must name payctl's own
 * files and lines (src/….ts). Node maps positions through dist/'s source maps
 * only in files it loads itself, and a V8 code cache carries the file name of
 * the folder the build ran in, so this run requires the bundle, uncached.
 */
function loadReadableBundle(file = BUNDLE) {
  process.setSourceMapsEnabled(true);
  return require(file);
}

/** The cache a run of this build on this Node writes for later runs: in $XDG_CACHE_HOME/payctl (~/.cache/payctl). */
function userCacheFileOf(stamp) {
  const home = process.env.HOME || require('node:os').homedir();
  const root = path.isAbsolute(process.env.XDG_CACHE_HOME || '') ? process.env.XDG_CACHE_HOME : path.join(home, '.cache');
  const [, build] = /payctl build (\w+)/.exec(stamp) ?? [];
  if (!build) return undefined;
  return path.join(root, 'payctl', `cli-${build}-node${process.version}-${process.arch}.cache`);
}

/**
 * V8 runs what a code cache holds, so one that another user could have written is
 * code of theirs: a folder is used only when it is the user's own and no one else
 * may write in it, a file only when it is the user's, a plain file, and 0600. (The
 * build's cache in dist/ is the install's, as the bundle is.) Where the system has
 * no user ids (Windows), the profile folder's own rights stand instead.
 */
const UID = typeof process.getuid === 'function' ? process.getuid() : undefined;
const isOwn = (stat, othersMayNot) => UID === undefined || (stat.uid === UID && (stat.mode & othersMayNot) === 0);

function isPrivateFolder(folder) {
  try {
    const stat = fs.lstatSync(folder);
    return stat.isDirectory() && isOwn(stat, 0o022);
  } catch {
    return false;
  }
}

/** A file of the user's cache folder, read (into `into` if it fits) only when the folder and the file are private (isOwn). */
function readPrivateFile(file, into) {
  if (!isPrivateFolder(path.dirname(file))) return undefined;
  let fd;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0));
    const stat = fs.fstatSync(fd);
    return stat.isFile() && isOwn(stat, 0o077) ? readWhole(fd, stat.size, into) : undefined;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/** The V8 data of a cache made for `stamp`, read into `into` if it fits; undefined when there is none or it was made for another. */
function readCache(file, stamp, { own = true, into } = {}) {
  if (file === undefined) return undefined;
  let data;
  try {
    data = own ? readPrivateFile(file, into) : readFile(file, into);
  } catch {
    return undefined;
  }
  if (data === undefined) return undefined;
  const newline = data.indexOf(10);
  if (newline < 0 || data.toString('utf8', 0, newline) !== stamp) return undefined;
  return data.subarray(newline + 1);
}

function readFile(file, into) {
  const fd = fs.openSync(file, 'r');
  try {
    return readWhole(fd, fs.fstatSync(fd).size, into);
  } finally {
    fs.closeSync(fd);
  }
}

/** How long the cache of another build for this Node is kept, from its writing: an upgrade leaves the old one behind. */
const OTHER_BUILD_CACHE_MS = 7 * 24 * 3600_000;

/**
 * Written whole under a temporary name, then renamed: a payctl starting at the
 * same time reads the old file or the new, never half of one. The folder is the
 * user's own (created 0700, and not written in unless private: see isOwn), the file
 * 0600: V8 runs what a cache holds. Any failure (a read-only
 * home) only means the next run compiles again. Caches of other builds for this
 * Node written over a week ago go (a payctl installed twice rewrites its own at
 * most once a week).
 */
function writeCache(file, stamp, script) {
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    const folder = path.dirname(file);
    fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
    if (!isPrivateFolder(folder)) return;
    fs.writeFileSync(temporary, Buffer.concat([Buffer.from(`${stamp}\n`), script.createCachedData()]), { mode: 0o600, flag: 'wx' });
    fs.renameSync(temporary, file);
    const sameNode = file.slice(file.indexOf('-node'));
    for (const name of fs.readdirSync(folder)) {
      const other = path.join(folder, name);
      if (other !== file && name.startsWith('cli-') && name.endsWith(sameNode) && Date.now() - fs.statSync(other).mtimeMs > OTHER_BUILD_CACHE_MS) fs.rmSync(other, { force: true });
    }
  } catch {
    try {
      fs.unlinkSync(temporary);
    } catch {
      // Never written.
    }
  }
}

/**
 * Whether this run pages through a whole list (`line.pagesAll`, read by
 * src/command-line.ts) with its output going to a pipe or a file: an export, which
 * runs in a worker thread (runInThread). At a terminal (a character device,
 * /dev/null included) it runs as any command.
 */
function isExport(line) {
  if (!line.pagesAll) return false;
  try {
    return !fs.fstatSync(1).isCharacterDevice();
  } catch {
    return false;
  }
}

/** The young generation of an export's heap (runInThread), in MB: V8 makes each semi-space a third of it. */
const EXPORT_YOUNG_GENERATION_MB = 8;

/**
 * Runs payctl in a worker thread whose young generation is bounded. An export
 * allocates fast (a page parsed, then written, every few milliseconds) though
 * little of it stays alive (6 to 9 MB), and V8 answers a high allocation rate
 * by growing its heap: measured over 1,000,000 customers, to 50 MB on Node 20
 * and 150 MB on Node 24, and the longer the export the larger the peak. A
 * worker's `resourceLimits` is Node's documented way to size a heap at run time
 * (V8 flags set once Node runs are not supported); with it the peak is the same
 * for a million customers as for a hundred thousand, at the same speed
 * (docs/performance.md). The worker writes to the same file descriptors, and
 * its exit code is payctl's.
 */
function runInThread(args) {
  const { Worker } = require('node:worker_threads');
  const worker = new Worker(path.join(__dirname, 'thread.js'), {
    argv: args,
    resourceLimits: { maxYoungGenerationSizeMb: EXPORT_YOUNG_GENERATION_MB },
  });
  worker.on('exit', (code) => {
    process.exitCode = code;
  });
}

module.exports = { isExport, runInThread, loadBundle, loadReadableBundle, readHelp, helpFileOf, cacheFileOf };
