import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import { ROOT, runCli, tempConfigDir } from '../helpers/cli.js';
import { runInProcess } from '../helpers/in-process.js';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
});
afterAll(() => sandbox.close());

describe('--debug', () => {
  it('logs each request and response with timing, and never the client secret or the token', async () => {
    const dir = tempConfigDir();
    const env = { PAYCTL_CONFIG_DIR: dir, PAYCTL_BASE_URL: sandbox.url };
    const secret = sandbox.credentials.find((c) => c.clientId === 'acme')!.clientSecret;
    for (const format of ['table', 'json', 'ndjson', 'csv', 'tsv']) {
      const login = await runInProcess(['auth', 'login', '--client-id', 'acme', '--client-secret-stdin', '--debug', '-o', format], {
        env,
        input: `${secret}\n`,
      });
      expect(login.code).toBe(0);
      const token: string = JSON.parse(readFileSync(path.join(dir, 'config.json'), 'utf8')).profiles.default.token;
      expect(token.split('.')).toHaveLength(3);
      expect(login.stderr).toMatch(/debug: > POST http:\/\/127\.0\.0\.1:\d+\/auth/);
      expect(login.stderr).toMatch(/debug: < 200 OK \(\d+ ms\)/);
      expect(login.stderr).toContain('"clientSecret":"***"');

      const balance = await runInProcess(['balance', '--debug', '-o', format], { env });
      expect(balance.code).toBe(0);
      expect(balance.stderr).toContain('debug: > authorization: Bearer ***');
      for (const output of [login.stdout, login.stderr, balance.stdout, balance.stderr]) {
        expect(output).not.toContain(secret);
        expect(output).not.toContain(token);
      }
    }
  });

  it('redacts the token in an API error too', async () => {
    const env = { PAYCTL_CONFIG_DIR: tempConfigDir(), PAYCTL_BASE_URL: sandbox.url, PAYCTL_TOKEN: 'forged-token-value-that-the-sandbox-refuses' };
    const result = await runInProcess(['balance', '--debug', '--json'], { env });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('"status":401');
    expect(result.stderr).not.toContain('forged-token-value-that-the-sandbox-refuses');
  });
});

/**
 * A build of payctl in which one command fails as a bug would (a TypeError, not
 * a PayctlError), made by the real build script from a copy of the sources.
 * Returns its launcher and the line of the failure.
 */
async function buildWithInternalError(file: string): Promise<{ bin: string; line: number }> {
  const root = mkdtempSync(path.join(tmpdir(), 'payctl-bug-build-'));
  for (const entry of ['src', 'scripts', 'bin', 'package.json', 'tsconfig.json']) cpSync(path.join(ROOT, entry), path.join(root, entry), { recursive: true });
  for (const entry of ['node_modules', 'openapi']) symlinkSync(path.join(ROOT, entry), path.join(root, entry));
  const lines = readFileSync(path.join(root, file), 'utf8').split('\n');
  const index = lines.findIndex((text) => text.startsWith('export async function run(')) + 1;
  expect(index).toBeGreaterThan(0);
  lines[index] = "  throw new TypeError('forced internal error');";
  writeFileSync(path.join(root, file), lines.join('\n'));
  // Not spawnSync: a build takes seconds, and the test worker's event loop must keep answering vitest meanwhile.
  await promisify(execFile)(process.execPath, ['scripts/build.mjs'], { cwd: root, env: { PATH: process.env.PATH ?? '', HOME: tmpdir() } });
  return { bin: path.join(root, 'bin/payctl.js'), line: index + 1 };
}

describe('--debug after an internal error', () => {
  const FILE = 'src/commands/profiles/list.ts';
  let bug: { bin: string; line: number };
  beforeAll(async () => {
    bug = await buildWithInternalError(FILE);
  });

  it("prints a stack trace that names payctl's source files and lines, not the bundle's", async () => {
    const result = await runCli(['profiles', 'list', '--debug'], { bin: bug.bin, env: { PAYCTL_CONFIG_DIR: tempConfigDir() } });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('error: unexpected failure: forced internal error');
    expect(result.stderr).toContain(`TypeError: forced internal error\n    at `);
    expect(result.stderr).toContain(`${FILE}:${bug.line}:`);
    expect(result.stderr).toMatch(/src\/main\.ts:\d+:\d+/);
    expect(result.stderr).not.toMatch(/cli\.cjs|dist-build-/);
  });

  it('without --debug, the same failure is one line and a hint, no stack trace', async () => {
    const result = await runCli(['profiles', 'list'], { bin: bug.bin, env: { PAYCTL_CONFIG_DIR: tempConfigDir() } });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('error: unexpected failure: forced internal error\nhint: this is a bug in payctl; run again with --debug and report the output\n');
  });
});
