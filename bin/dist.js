'use strict';
// What the launcher reads from dist/, and what the build prepares there by
// running the bundle (scripts/prerender.cjs): the V8 code cache of dist/cli.cjs
// and the help text of every command.
const fs = require('node:fs');
const path = require('node:path');

const DIST = path.join(__dirname, '../dist');
const BUNDLE = path.join(DIST, 'cli.cjs');
const cacheFileOf = (bundle) => `${bundle}.cache`;
/** The bundle's first line names its build (scripts/build.mjs); its cache starts with the same line. */
const stampOf = (source) => source.slice(0, source.indexOf('\n'));

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
 * Runs the bundle as CommonJS would, but through vm.Script with its V8 code
 * cache: compiling the bundle and the functions a command calls is a third of a
 * short run, and the cache skips most of it. The cache starts with the build
 * line of the bundle it was made from; another build's is not used, and one from
 * another Node version V8 rejects by itself. Either way the bundle then
 * compiles as usual. `useCache: false` is for the build, which makes the cache.
 */
function loadBundle(file = BUNDLE, { useCache = true } = {}) {
  const vm = require('node:vm');
  const { createRequire } = require('node:module');
  const source = fs.readFileSync(file, 'utf8');
  const stamp = stampOf(source);
  const cachedData = useCache ? readCache(file, stamp) : undefined;
  // The wrapper has a line of its own, so line numbers in stack traces are the file's.
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {\n${source}\n})`, {
    filename: file,
    lineOffset: -1,
    cachedData,
  });
  const module = { exports: {} };
  script.runInThisContext()(module.exports, createRequire(file), module, file, path.dirname(file));
  return { exports: module.exports, script, stamp };
}

function readCache(file, stamp) {
  let data;
  try {
    data = fs.readFileSync(cacheFileOf(file));
  } catch {
    return undefined;
  }
  const newline = data.indexOf(10);
  if (newline < 0 || data.toString('utf8', 0, newline) !== stamp) return undefined;
  return data.subarray(newline + 1);
}

module.exports = { loadBundle, readHelp, helpFileOf, cacheFileOf };
