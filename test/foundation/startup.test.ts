import { execFile } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { cp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, ROOT, cleanEnv, runCli, tempConfigDir } from '../helpers/cli.js';
import { fakeJwt, sendJson, startFakeApi, type FakeApi } from '../helpers/fake-api.js';
import { startSandboxSession, type SandboxSession } from '../helpers/sandbox.js';
import { startWorkers } from '../helpers/workers.js';
import { loadCommandTree } from '../../src/commands/top-level.js';
import { everyCommand } from '../../src/commands/spec.js';

/**
 * What makes a short run short (docs/performance.md), checked as behaviour: the
 * pre-rendered help is the help, the code cache is the build's own and a wrong
 * one is harmless, and a request loads neither undici nor node:tty.
 */
const PACKAGE = path.resolve(path.dirname(BIN), '..');
const BALANCE = { disponiblePixBalance: 1, disponibleCardBalance: 2, disponibleBilletBalance: 3, withdrawalsInProcessingBalance: 0 };

let api: FakeApi;
const envFor = (extra: Record<string, string> = {}) => ({
  PAYCTL_CONFIG_DIR: tempConfigDir(),
  PAYCTL_BASE_URL: api.url,
  PAYCTL_TOKEN: fakeJwt(Math.floor(Date.now() / 1000) + 3600),
  ...extra,
});

beforeAll(async () => {
  api = await startFakeApi((_, response) => sendJson(response, 200, { data: BALANCE, message: 'ok' }));
});
afterAll(() => api.close());

/**
 * A copy of the built package (bin, dist, package.json), changed by `change`; returns its launcher.
 * Copied without blocking: dist/ is 14 MB, and a worker busy copying it on a loaded machine answers
 * none of vitest's messages meanwhile.
 */
async function copyOfPackage(change: (root: string) => void, skip: (file: string) => boolean = () => false): Promise<string> {
  const root = mkdtempSync(path.join(tmpdir(), 'payctl-package-'));
  await cp(path.join(PACKAGE, 'bin'), path.join(root, 'bin'), { recursive: true });
  await cp(path.join(PACKAGE, 'dist'), path.join(root, 'dist'), { recursive: true, filter: (file) => !skip(path.relative(PACKAGE, file)) });
  await cp(path.join(PACKAGE, 'package.json'), path.join(root, 'package.json'));
  change(root);
  return path.join(root, 'bin/payctl.js');
}

/**
 * Whether the copy's launcher was given a cache, and whether V8 took it, as
 * `loadBundle` reports: 'undefined' (none), 'false' (taken) or 'true' (refused).
 */
async function cacheVerdict(bin: string, cacheHome: string): Promise<string> {
  const probe = `const r = require(${JSON.stringify(path.join(path.dirname(bin), 'dist.js'))}).loadBundle(); console.log(String(r.script.cachedDataRejected))`;
  return (await promisify(execFile)(process.execPath, ['-e', probe], { env: cleanEnv({ XDG_CACHE_HOME: cacheHome }) })).stdout.trim();
}

/** A copy of the package whose code cache is changed by `change` (the cache's first line and the V8 data after it). */
function copyWithCache(change: (header: string, data: Buffer) => Buffer): Promise<string> {
  return copyOfPackage((root) => {
    const cache = path.join(root, 'dist/cli.cjs.cache');
    const file = readFileSync(cache);
    const newline = file.indexOf(10);
    writeFileSync(cache, change(file.toString('utf8', 0, newline), file.subarray(newline + 1)));
  });
}

/** The caches payctl wrote for later runs under this cache folder. */
const userCaches = (cacheHome: string) => (existsSync(path.join(cacheHome, 'payctl')) ? readdirSync(path.join(cacheHome, 'payctl')) : []);

describe('help', () => {
  it('--help of every command is the text the bundle itself renders (pre-rendered at build, read without loading the bundle)', async () => {
    // What the bundle renders: its main() in one payctl process kept up for every command.
    const [bundle] = startWorkers(1);
    // What the launcher answers `payctl WORDS... --help` with, read by the launcher's own code (bin/dist.js).
    const { readHelp } = createRequire(BIN)('./dist.js') as { readHelp: (words: string[]) => string | undefined };
    try {
      const paths = [[], ...everyCommand(await loadCommandTree()).map((command) => command.path)];
      for (const words of paths) {
        const rendered = await bundle!.run([...words, '--help']);
        expect({ words, code: rendered.code, stderr: rendered.stderr }).toEqual({ words, code: 0, stderr: '' });
        expect({ words, help: readHelp(words) }).toEqual({ words, help: rendered.stdout });
        expect(rendered.stdout).toMatch(/^Usage: payctl/);
      }
      // The launcher answers with that text, for the root, a group, a command and one three words deep (the longest help), -h or --help.
      for (const words of [[], ['subs'], ['withdraw', 'pix'], ['subaccounts', 'create', 'pj']]) {
        for (const flag of ['--help', '-h']) {
          const fast = await runCli([...words, flag]);
          expect({ words, flag, code: fast.code, stdout: fast.stdout, stderr: fast.stderr }).toEqual({ words, flag, code: 0, stdout: readHelp(words), stderr: '' });
        }
      }
    } finally {
      await bundle!.close();
    }
  });

  it('--help after arguments that are not a command path is still answered by commander', async () => {
    const result = await runCli(['customers', 'get', 'not-a-command', '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Usage: payctl customers get/);
  });
});

describe('code cache', () => {
  it("the bundle is ASCII, as the launcher's Latin-1 read of it needs, and the licences of what it bundles are beside it", () => {
    const bundle = readFileSync(path.join(PACKAGE, 'dist/cli.cjs'));
    expect(bundle.findIndex((byte) => byte > 0x7f)).toBe(-1);
    expect(readFileSync(path.join(PACKAGE, 'dist/cli.cjs.LEGAL.txt'), 'utf8')).toContain('MIT License © Sindre Sorhus');
  });

  it("the bundle copies no Node module's exports at run time (esbuild's interop for a default import, scripts/build.mjs)", () => {
    expect(readFileSync(path.join(PACKAGE, 'dist/cli.cjs'), 'latin1').match(/\w+\(require\("node:\w+"\),1\)/g)).toBeNull();
  });

  it('the launcher loads the bundle with the code cache made by its build, and V8 takes it; nothing is written', async () => {
    const cacheHome = tempConfigDir();
    expect(await cacheVerdict(BIN, cacheHome)).toBe('false');
    expect(userCaches(cacheHome)).toEqual([]);
  });

  it('a cache from another build is not used, and one V8 cannot read is dropped: payctl runs the same', async () => {
    const otherBuild = await copyWithCache((_, data) => Buffer.concat([Buffer.from('// payctl build 0000000000000000\n'), data]));
    const unreadable = await copyWithCache((header, data) => Buffer.concat([Buffer.from(`${header}\n`), data.subarray(0, 16), Buffer.alloc(data.length - 16, 0x5a)]));
    expect(await cacheVerdict(otherBuild, tempConfigDir())).toBe('undefined');
    expect(await cacheVerdict(unreadable, tempConfigDir())).toBe('true');
    const expected = await runCli(['balance', '--json'], { env: envFor({ XDG_CACHE_HOME: tempConfigDir() }) });
    expect(expected.code).toBe(0);
    for (const bin of [otherBuild, unreadable]) expect(await runCli(['balance', '--json'], { bin, env: envFor({ XDG_CACHE_HOME: tempConfigDir() }) })).toEqual(expected);
  });

  it("on a Node other than the build's, the first run leaves a cache for this Node in the user's own cache folder, and later runs use it", async () => {
    const otherNode = await copyWithCache((header, data) => Buffer.concat([Buffer.from(`${header.replace(/ node v\S+/, ' node v0.0.0')}\n`), data]));
    const cacheHome = tempConfigDir();
    const first = await runCli(['balance', '--json'], { bin: otherNode, env: envFor({ XDG_CACHE_HOME: cacheHome }) });
    expect(first).toEqual({ code: 0, stdout: `${JSON.stringify(BALANCE, null, 2)}\n`, stderr: '' });
    const written = userCaches(cacheHome);
    expect(written).toEqual([expect.stringMatching(new RegExp(`^cli-[0-9a-f]{16}-node${process.version.replace(/\./g, '\\.')}-${process.arch}\\.cache$`))]);
    expect(statSync(path.join(cacheHome, 'payctl')).mode & 0o777).toBe(0o700);
    expect(statSync(path.join(cacheHome, 'payctl', written[0]!)).mode & 0o777).toBe(0o600);
    expect(await cacheVerdict(otherNode, cacheHome)).toBe('false');
    expect(await runCli(['balance', '--json'], { bin: otherNode, env: envFor({ XDG_CACHE_HOME: cacheHome }) })).toEqual(first);
    expect(userCaches(cacheHome)).toEqual(written);
  });

  it("writing its cache removes other builds' caches for this Node written over a week ago, and no other", async () => {
    const otherNode = await copyWithCache((header, data) => Buffer.concat([Buffer.from(`${header.replace(/ node v\S+/, ' node v0.0.0')}\n`), data]));
    const cacheHome = tempConfigDir();
    const folder = path.join(cacheHome, 'payctl');
    mkdirSync(folder, { mode: 0o700 });
    const thisNode = `node${process.version}-${process.arch}.cache`;
    const weekAndADayAgo = new Date(Date.now() - 8 * 24 * 3600_000);
    const files = { oldBuild: `cli-${'a'.repeat(16)}-${thisNode}`, recentBuild: `cli-${'b'.repeat(16)}-${thisNode}`, otherNode: `cli-${'c'.repeat(16)}-nodev0.0.1-${process.arch}.cache`, notOurs: 'notes.txt' };
    for (const name of Object.values(files)) {
      writeFileSync(path.join(folder, name), 'x');
      if (name !== files.recentBuild) utimesSync(path.join(folder, name), weekAndADayAgo, weekAndADayAgo);
    }
    expect((await runCli(['balance', '--json'], { bin: otherNode, env: envFor({ XDG_CACHE_HOME: cacheHome }) })).code).toBe(0);
    const left = userCaches(cacheHome);
    expect(left).toHaveLength(4);
    expect(left).not.toContain(files.oldBuild);
    expect(left).toEqual(expect.arrayContaining([files.recentBuild, files.otherNode, files.notOurs]));
  });

  it("a user cache that others could have written (file 0666 in a 0777 folder, or another user's file) is neither read nor written; payctl runs the same", async () => {
    const otherNode = await copyWithCache((header, data) => Buffer.concat([Buffer.from(`${header.replace(/ node v\S+/, ' node v0.0.0')}\n`), data]));
    const cacheHome = tempConfigDir();
    const folder = path.join(cacheHome, 'payctl');
    const first = await runCli(['balance', '--json'], { bin: otherNode, env: envFor({ XDG_CACHE_HOME: cacheHome }) });
    const [name] = userCaches(cacheHome);
    const file = path.join(folder, name!);
    // A cache V8 takes, as a poisoned one would be: loaded, it would report 'false'.
    expect(await cacheVerdict(otherNode, cacheHome)).toBe('false');
    chmodSync(folder, 0o777);
    chmodSync(file, 0o666);
    const before = { content: readFileSync(file), mtime: statSync(file).mtimeMs, files: userCaches(cacheHome) };
    expect(await cacheVerdict(otherNode, cacheHome)).toBe('undefined');
    expect(await runCli(['balance', '--json'], { bin: otherNode, env: envFor({ XDG_CACHE_HOME: cacheHome }) })).toEqual(first);
    expect({ content: readFileSync(file), mtime: statSync(file).mtimeMs, files: userCaches(cacheHome) }).toEqual(before);
    // The folder private again, the file still 0666: not read; this run writes its own, 0600, in its place.
    chmodSync(folder, 0o700);
    expect(await cacheVerdict(otherNode, cacheHome)).toBe('undefined');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(await cacheVerdict(otherNode, cacheHome)).toBe('false');
    if (process.getuid?.() === 0) {
      // Another user's file, 0600 in the user's private folder: not read.
      chownSync(file, 65534, 65534);
      expect(await cacheVerdict(otherNode, cacheHome)).toBe('undefined');
    }
  });

  it('a build cache V8 refuses is replaced by one this Node writes, used from the next run on', async () => {
    const unreadable = await copyWithCache((header, data) => Buffer.concat([Buffer.from(`${header}\n`), data.subarray(0, 16), Buffer.alloc(data.length - 16, 0x5a)]));
    const cacheHome = tempConfigDir();
    expect(await cacheVerdict(unreadable, cacheHome)).toBe('true');
    expect(userCaches(cacheHome)).toHaveLength(1);
    expect(await cacheVerdict(unreadable, cacheHome)).toBe('false');
  });
});

describe('what a request loads', () => {
  /** Runs balance (--json unless `args` say otherwise) with a preload that records Node's loaded built-ins and required files at exit. */
  async function loadedModules(
    stdout: 'pipe' | 'devnull',
    args = ['--json'],
  ): Promise<{ code: number | null; stdout: string; modules: string[]; files: string[] }> {
    const dir = mkdtempSync(path.join(tmpdir(), 'payctl-modules-'));
    const probe = path.join(dir, 'probe.cjs');
    const list = path.join(dir, 'modules.json');
    writeFileSync(
      probe,
      `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(list)}, JSON.stringify({ modules: process.moduleLoadList, files: Object.keys(require.cache) })));`,
    );
    const result = await runCli(['balance', ...args], { env: { ...envFor(), NODE_OPTIONS: `--require ${probe}` }, stdoutToDevNull: stdout === 'devnull' });
    return { code: result.code, stdout: result.stdout, ...(JSON.parse(readFileSync(list, 'utf8')) as { modules: string[]; files: string[] }) };
  }

  const onDemand = [
    {
      library: 'jq',
      by: 'a run with --jq',
      args: ['--jq', '.disponiblePixBalance'],
      named: 'jq-wasm',
      isLibrary: (file: string) => file.includes('jq-wasm'),
      printed: (stdout: string) => expect(stdout).toBe(`${BALANCE.disponiblePixBalance}\n`),
    },
    {
      library: 'ExcelJS',
      by: 'a run that writes a workbook',
      args: ['-o', 'xlsx'],
      named: 'exceljs',
      isLibrary: (file: string) => /[\\/]vendor[\\/]exceljs\.cjs$/.test(file),
      printed: (stdout: string) => expect(stdout.startsWith('PK')).toBe(true),
    },
  ];
  for (const { library, by, args, named, isLibrary, printed } of onDemand) {
    it(`${library} is loaded only by ${by}`, async () => {
      const plain = await loadedModules('pipe');
      expect(plain.code).toBe(0);
      expect(plain.files.filter((file) => file.includes(named))).toEqual([]);
      const using = await loadedModules('pipe', args);
      expect(using.code).toBe(0);
      printed(using.stdout);
      expect(using.files.some(isLibrary)).toBe(true);
    });
  }

  it('balance --json answers through node:http without loading undici (fetch) or node:tty', async () => {
    const before = api.requests.length;
    const { code, stdout, modules } = await loadedModules('pipe');
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual(BALANCE);
    expect(api.requests.length).toBe(before + 1);
    expect(modules).toContain('NativeModule http');
    expect(modules.filter((name) => /undici|tty/.test(name))).toEqual([]);
  });

  it('balance --json writes nothing on stderr on each Node payctl is checked on (no warning for a constant of a built-in read at load)', async () => {
    // The Nodes CI tests on: this one, and 22 and 24 where installed (bench/node-versions.mjs).
    const listed = (await promisify(execFile)(process.execPath, [path.join(ROOT, 'bench/node-versions.mjs'), 'list'])).stdout;
    for (const [major = '', node = ''] of listed.trim().split('\n').map((line) => line.split(' '))) {
      const { stdout, stderr } = await promisify(execFile)(node, [BIN, 'balance', '--json'], { env: cleanEnv({ ...envFor(), XDG_CACHE_HOME: tempConfigDir() }) });
      expect({ major, stderr }).toEqual({ major, stderr: '' });
      expect(JSON.parse(stdout)).toEqual(BALANCE);
    }
  });

  it('output sent to /dev/null is not taken for a terminal', async () => {
    const { code, modules } = await loadedModules('devnull');
    expect(code).toBe(0);
    expect(modules.filter((name) => /tty/.test(name))).toEqual([]);
  });
});

describe('exports', () => {
  const CUSTOMERS = 250;
  let session: SandboxSession;
  beforeAll(async () => {
    session = await startSandboxSession('acme', { customers: CUSTOMERS });
  });
  afterAll(() => session.close());

  interface ThreadRecord {
    isMainThread: boolean;
    resourceLimits: { maxYoungGenerationSizeMb?: number };
    flagsSet: string[];
  }

  /** Runs payctl with a preload that records, for each thread at its exit, what it is and every V8 flag set in it. */
  async function runRecordingThreads(args: string[], stdoutToDevNull = false): Promise<{ code: number; stdout: string; threads: ThreadRecord[] }> {
    const dir = mkdtempSync(path.join(tmpdir(), 'payctl-threads-'));
    const probe = path.join(dir, 'probe.cjs');
    const records = path.join(dir, 'threads.ndjson');
    writeFileSync(
      probe,
      `const { isMainThread, resourceLimits } = require('node:worker_threads');
       const v8 = require('node:v8');
       const flagsSet = [];
       const setFlags = v8.setFlagsFromString;
       v8.setFlagsFromString = (flags) => (flagsSet.push(flags), setFlags(flags));
       process.on('exit', () => require('node:fs').appendFileSync(${JSON.stringify(records)}, JSON.stringify({ isMainThread, resourceLimits, flagsSet }) + '\\n'));`,
    );
    const result = await session.runProcess(args, { env: { NODE_OPTIONS: `--require ${probe}` }, stdoutToDevNull });
    const threads = readFileSync(records, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as ThreadRecord);
    return { code: result.code, stdout: result.stdout, threads };
  }

  it('an export into a pipe runs in a worker thread with a bounded young generation, and no V8 flag is set at run time', async () => {
    for (const args of [
      ['customers', 'list', '--all', '-o', 'ndjson', '--fields', 'id'],
      ['customers', 'find', '--name', 'a', '-o', 'ndjson', '--fields', 'id'],
    ]) {
      const { code, stdout, threads } = await runRecordingThreads(args);
      expect(code).toBe(0);
      const ids = stdout.trim().split('\n').map((line) => (JSON.parse(line) as { id: string }).id);
      if (args[1] === 'list') expect(new Set(ids).size).toBe(CUSTOMERS);
      else expect(ids.length).toBeGreaterThan(0);
      expect(threads.map((t) => t.isMainThread).sort()).toEqual([false, true]);
      expect(threads.find((t) => !t.isMainThread)!.resourceLimits.maxYoungGenerationSizeMb).toBe(8);
      expect(threads.flatMap((t) => t.flagsSet)).toEqual([]);
    }
  });

  it('a single page, or an export to /dev/null (a character device, as a terminal is), runs on the main thread alone', async () => {
    const page = await runRecordingThreads(['customers', 'list', '--limit', '5', '-o', 'ndjson']);
    expect(page.code).toBe(0);
    expect(page.stdout.trim().split('\n')).toHaveLength(5);
    expect(page.threads.map((t) => t.isMainThread)).toEqual([true]);
    const devNull = await runRecordingThreads(['customers', 'list', '--all', '-o', 'ndjson'], true);
    expect(devNull.code).toBe(0);
    expect(devNull.threads.map((t) => t.isMainThread)).toEqual([true]);
  });
});
