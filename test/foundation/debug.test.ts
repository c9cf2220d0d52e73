import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import { tempConfigDir } from '../helpers/cli.js';
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
    expect(result.stderr).toContain('HTTP 401');
    expect(result.stderr).not.toContain('forged-token-value-that-the-sandbox-refuses');
  });
});
