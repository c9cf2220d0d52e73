import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, cleanEnv, runCli, tempConfigDir } from '../helpers/cli.js';
import { fakeJwt, sendJson, startFakeApi, type FakeApi } from '../helpers/fake-api.js';
import { startWorkers } from '../helpers/workers.js';
import { COMMAND_TREE } from '../../src/commands/tree.js';
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

/** A copy of the built package (bin, dist, package.json), changed by `change`; returns its launcher. */
function copyOfPackage(change: (root: string) => void, skip: (file: string) => boolean = () => false): string {
  const root = mkdtempSync(path.join(tmpdir(), 'payctl-package-'));
  cpSync(path.join(PACKAGE, 'bin'), path.join(root, 'bin'), { recursive: true });
  cpSync(path.join(PACKAGE, 'dist'), path.join(root, 'dist'), { recursive: true, filter: (file) => !skip(path.relative(PACKAGE, file)) });
  cpSync(path.join(PACKAGE, 'package.json'), path.join(root, 'package.json'));
  change(root);
  return path.join(root, 'bin/payctl.js');
}

/** Whether the copy's launcher was given the cache, and whether V8 took it, as `loadBundle` reports. */
function cacheVerdict(bin: string): string {
  const probe = `const r = require(${JSON.stringify(path.join(path.dirname(bin), 'dist.js'))}).loadBundle(); console.log(String(r.script.cachedDataRejected))`;
  return spawnSync(process.execPath, ['-e', probe], { env: cleanEnv(), encoding: 'utf8' }).stdout.trim();
}

describe('help', () => {
  it('--help of every command is the text the bundle itself renders (pre-rendered at build, read without loading the bundle)', async () => {
    // What the bundle renders: its main() in one payctl process kept up for every command.
    const [bundle] = startWorkers(1);
    try {
      const paths = [[], ...everyCommand(COMMAND_TREE).map((command) => command.path)];
      for (const words of paths) {
        const [fast, rendered] = await Promise.all([runCli([...words, '--help']), bundle!.run([...words, '--help'])]);
        expect({ words, code: fast.code, stdout: fast.stdout, stderr: fast.stderr }).toEqual({ words, code: 0, stdout: rendered.stdout, stderr: '' });
        expect(fast.stdout).toMatch(/^Usage: payctl/);
      }
    } finally {
      await bundle!.close();
    }
    expect((await runCli(['customers', 'list', '-h'])).stdout).toBe((await runCli(['customers', 'list', '--help'])).stdout);
  });

  it('--help after arguments that are not a command path is still answered by commander', async () => {
    const result = await runCli(['customers', 'get', 'not-a-command', '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Usage: payctl customers get/);
  });
});

describe('code cache', () => {
  it('the launcher loads the bundle with the code cache made by its build, and V8 takes it', () => {
    expect(cacheVerdict(BIN)).toBe('false');
  });

  it("a cache from another build is not used, and one V8 cannot read is dropped: payctl runs the same", async () => {
    const otherBuild = copyOfPackage((root) => {
      const cache = path.join(root, 'dist/cli.cjs.cache');
      const data = readFileSync(cache);
      writeFileSync(cache, Buffer.concat([Buffer.from('// payctl build 0000000000000000\n'), data.subarray(data.indexOf(10) + 1)]));
    });
    const unreadable = copyOfPackage((root) => {
      const cache = path.join(root, 'dist/cli.cjs.cache');
      const data = readFileSync(cache);
      const start = data.indexOf(10) + 1;
      data.fill(0x5a, start + 16, data.length);
      writeFileSync(cache, data);
    });
    expect(cacheVerdict(otherBuild)).toBe('undefined');
    expect(cacheVerdict(unreadable)).toBe('true');
    const expected = await runCli(['balance', '--json'], { env: envFor() });
    expect(expected.code).toBe(0);
    for (const bin of [otherBuild, unreadable]) expect(await runCli(['balance', '--json'], { bin, env: envFor() })).toEqual(expected);
  });
});

describe('what a request loads', () => {
  /** Runs balance --json with a preload that records Node's loaded built-ins at exit. */
  async function loadedModules(stdout: 'pipe' | 'devnull'): Promise<{ code: number | null; stdout: string; modules: string[] }> {
    const dir = mkdtempSync(path.join(tmpdir(), 'payctl-modules-'));
    const probe = path.join(dir, 'probe.cjs');
    const list = path.join(dir, 'modules.json');
    writeFileSync(probe, `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(list)}, JSON.stringify(process.moduleLoadList)));`);
    const result = await runCli(['balance', '--json'], { env: { ...envFor(), NODE_OPTIONS: `--require ${probe}` }, stdoutToDevNull: stdout === 'devnull' });
    return { code: result.code, stdout: result.stdout, modules: JSON.parse(readFileSync(list, 'utf8')) as string[] };
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

  it('output sent to /dev/null is not taken for a terminal', async () => {
    const { code, modules } = await loadedModules('devnull');
    expect(code).toBe(0);
    expect(modules.filter((name) => /tty/.test(name))).toEqual([]);
  });
});
