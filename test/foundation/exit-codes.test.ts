import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, runCliInTerminal, tempConfigDir } from '../helpers/cli.js';
import { needsTools } from '../helpers/tools.js';
import { runInProcess } from '../helpers/in-process.js';
import { closedPort, fakeJwt, sendJson, startFakeApi, type FakeApi } from '../helpers/fake-api.js';

const BALANCE = { disponiblePixBalance: 1, disponibleCardBalance: 2, disponibleBilletBalance: 3, withdrawalsInProcessingBalance: 0 };
const TOKEN = fakeJwt(Math.floor(Date.now() / 1000) + 3600);

let api: FakeApi;
const envFor = (url: string, extra: Record<string, string> = {}) => ({
  PAYCTL_CONFIG_DIR: tempConfigDir(),
  PAYCTL_BASE_URL: url,
  PAYCTL_TOKEN: TOKEN,
  ...extra,
});

/** Each test gets its own server so that request counts are its own. */
async function withServer(handler: Parameters<typeof startFakeApi>[0], test: (server: FakeApi) => Promise<void>) {
  const server = await startFakeApi(handler);
  try {
    await test(server);
  } finally {
    await server.close();
  }
}

beforeAll(async () => {
  api = await startFakeApi((_, response) => sendJson(response, 200, { data: BALANCE, message: 'ok' }));
});
afterAll(() => api.close());

describe.concurrent('exit codes', () => {
  it('0: done', async () => {
    const result = await runInProcess(['balance', '--json'], { env: envFor(api.url) });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(BALANCE);
    expect(result.stderr).toBe('');
  });

  it('1: the API refused; its message, return code, status and a hint are shown', async () => {
    await withServer(
      (_, response) => sendJson(response, 404, { data: { message: 'bank account not found', returnCode: -7100 } }),
      async (server) => {
        const result = await runInProcess(['balance'], { env: envFor(server.url) });
        expect(result.code).toBe(1);
        expect(result.stderr).toBe(
          'error: bank account not found (returnCode -7100, HTTP 404)\nhint: list the bank accounts of this account: payctl bank-accounts list\n',
        );
        expect(result.stdout).toBe('');
      },
    );
  });

  it('1 with -o json: the error is also written to stderr as JSON', async () => {
    await withServer(
      (_, response) => sendJson(response, 422, { data: { message: 'insufficient balance', returnCode: -7600 } }),
      async (server) => {
        const result = await runInProcess(['balance', '-o', 'json'], { env: envFor(server.url) });
        expect(result.code).toBe(1);
        const jsonLine = result.stderr.trim().split('\n').pop()!;
        expect(JSON.parse(jsonLine)).toEqual({ error: { message: 'insufficient balance', returnCode: -7600, status: 422, exitCode: 1 } });
      },
    );
  });

  it('2: usage errors send nothing (unknown flag, bad choice, bad value, unknown command)', async () => {
    await withServer(undefined, async (server) => {
      const env = envFor(server.url);
      for (const args of [
        ['balance', '--bogus'],
        ['balance', '-o', 'yaml'],
        ['balance', '--subaccount', 'not-a-uuid'],
        ['nope'],
        ['balance', '--timeout', '-1'],
      ]) {
        const result = await runInProcess(args, { env });
        expect(result.code, args.join(' ')).toBe(2);
        expect(result.stderr, args.join(' ')).toMatch(/^error: /);
        expect(result.stderr).not.toMatch(/\n\s+at /);
      }
      expect(server.requests).toEqual([]);
    });
  });

  it('2 with --json: a parse error is also written as JSON', async () => {
    const result = await runInProcess(['balance', '--json', '--bogus'], { env: envFor(api.url) });
    expect(result.code).toBe(2);
    expect(JSON.parse(result.stderr.trim().split('\n').pop()!).error.exitCode).toBe(2);
  });

  it('3: no token, or an expired one, is refused before anything is sent', async () => {
    await withServer(undefined, async (server) => {
      const none = await runInProcess(['balance'], { env: { PAYCTL_CONFIG_DIR: tempConfigDir(), PAYCTL_BASE_URL: server.url } });
      expect(none.code).toBe(3);
      expect(none.stderr).toContain('hint: log in: payctl auth login');
      const expired = await runInProcess(['balance'], { env: envFor(server.url, { PAYCTL_TOKEN: fakeJwt(Math.floor(Date.now() / 1000) - 60) }) });
      expect(expired.code).toBe(3);
      expect(expired.stderr).toMatch(
        /^error: the token in PAYCTL_TOKEN expired at .*\nhint: set PAYCTL_TOKEN to a fresh token, or unset it and log in: payctl auth login\n/,
      );
      const dir = tempConfigDir();
      writeFileSync(
        path.join(dir, 'config.json'),
        JSON.stringify({ profiles: { default: { baseUrl: server.url, env: 'local', token: fakeJwt(Math.floor(Date.now() / 1000) - 60) } } }),
      );
      const stored = await runInProcess(['balance'], { env: { PAYCTL_CONFIG_DIR: dir } });
      expect(stored.code).toBe(3);
      expect(stored.stderr).toMatch(/^error: the token of profile "default" expired at .*\nhint: log in again: payctl auth login\n/);
      expect(server.requests).toEqual([]);
    });
  });

  it('3: a 401 or 403 answer', async () => {
    for (const status of [401, 403]) {
      await withServer(
        (_, response) => sendJson(response, status, { data: { message: status === 401 ? 'invalid token' : 'sub-account not yours', returnCode: -status } }),
        async (server) => {
          const result = await runInProcess(['balance'], { env: envFor(server.url) });
          expect(result.code).toBe(3);
          expect(result.stderr).toContain(`HTTP ${status}`);
          expect(server.requests).toHaveLength(1);
        },
      );
    }
  });

  it('3: a 401 names the way to log in again for the profile that ran; a refused login names the client id and secret', async () => {
    await withServer(
      (_, response) => sendJson(response, 401, { data: { message: 'invalid credentials', returnCode: -401 } }),
      async (server) => {
        const env = envFor(server.url);
        expect((await runInProcess(['profiles', 'add', 'big', '--base-url', server.url], { env })).code).toBe(0);
        const big = await runInProcess(['balance', '--profile', 'big'], { env });
        expect(big.code).toBe(3);
        expect(big.stderr).toContain('hint: log in again: payctl auth login --profile big\n');
        const login = await runInProcess(['auth', 'login', '--client-id', 'acme', '--client-secret-stdin'], { env: envFor(server.url), input: 'wrong-secret\n' });
        expect(login.code).toBe(3);
        expect(login.stderr).toContain('hint: check the client id and the client secret (for a sandbox, sandbox start prints them), then: payctl auth login\n');
      },
    );
  });

  it('4: connection refused, for a read and for a write: nothing can have taken effect', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const read = await runInProcess(['balance'], { env: envFor(url) });
    expect(read.code).toBe(4);
    expect(read.stderr).toContain('connection refused');
    // Most often a sandbox that is not running, or runs on another port: the hint names the address and both ways out.
    expect(read.stderr).toContain(`hint: nothing was sent; is the API at ${url} running? A local sandbox: payctl sandbox start (it prints its URL); another address: --base-url URL or PAYCTL_BASE_URL`);
    const write = await runInProcess(['sandbox', 'credit', '--pix', '100'], { env: envFor(url) });
    expect(write.code).toBe(4);
  });

  it('4: a GET that keeps failing is tried 3 times in all, then reported as safe to retry', async () => {
    await withServer(
      (_, response) => {
        response.writeHead(503, { 'content-type': 'text/html' });
        response.end('<html>busy</html>');
      },
      async (server) => {
        const result = await runInProcess(['balance'], { env: envFor(server.url) });
        expect(result.code).toBe(4);
        expect(server.requests).toHaveLength(3);
        expect(result.stderr).toContain('not an API answer');
      },
    );
  });

  it('4: an answer that is not JSON says so and gives its HTTP status once, in the error line and the --json error', async () => {
    const answers: Array<[number, string]> = [[200, 'text/html'], [408, 'text/plain'], [429, 'text/plain'], [418, 'text/plain']];
    for (const [status, type] of answers) {
      await withServer(
        (_, response) => {
          response.writeHead(status, { 'content-type': type });
          response.end('<html>a login page</html>');
        },
        async (server) => {
          const human = await runInProcess(['balance'], { env: envFor(server.url) });
          expect(human.stderr.split('\n')[0]!.match(new RegExp(`HTTP ${status}`, 'g')), human.stderr).toHaveLength(1);
          const json = await runInProcess(['balance', '--json'], { env: envFor(server.url) });
          const error = (JSON.parse(json.stderr) as { error: { message: string; status: number } }).error;
          expect(error.status).toBe(status);
          expect(error.message).not.toContain(`HTTP ${status}`);
        },
      );
    }
  });

  it('5: a POST sent with no answer is never resent, and its outcome is reported unknown', async () => {
    await withServer(
      (_, response) => void response.socket?.destroy(),
      async (server) => {
        const result = await runInProcess(['sandbox', 'credit', '--pix', '100'], { env: envFor(server.url) });
        expect(result.code).toBe(5);
        expect(result.stderr).toMatch(/outcome is unknown\nhint: check whether the POST took effect before retrying: payctl balance\n/);
        expect(server.requests).toHaveLength(1);
      },
    );
  });

  it('5: a POST that times out after being sent', async () => {
    await withServer(
      () => undefined, // never answers
      async (server) => {
        // payctl in a process of its own: a stall of this one (the server's) cannot hold its deadline's timer
        // past its connection's, and the kernel accepts the connection whatever this process is doing.
        const result = await runCli(['sandbox', 'credit', '--pix', '100', '--timeout', '10'], { env: envFor(server.url) });
        expect(result.code, result.stderr).toBe(5);
        // --timeout, not the default 30 s, ended it
        expect(result.stderr).toContain('within the 10 s timeout');
        expect(server.requests).toHaveLength(1);
      },
    );
  });

  needsTools('script')('130: Ctrl-C at a prompt sends nothing', async () => {
    await withServer(undefined, async (server) => {
      const result = await runCliInTerminal(['auth', 'login'], {
        env: { PAYCTL_CONFIG_DIR: tempConfigDir(), PAYCTL_BASE_URL: server.url },
        stderrOnTerminal: true,
        steps: [{ after: 'Client id', send: '\u0003' }],
      });
      expect(result.code).toBe(130);
      expect(server.requests).toEqual([]);
    });
  });
});

describe.concurrent('help', () => {
  it('lists the exit codes in --help', async () => {
    const result = await runCli(['--help']);
    expect(result.code).toBe(0);
    for (const code of ['0 ', '1 ', '2 ', '3 ', '4 ', '5 ', '130 ']) expect(result.stdout).toContain(`\n  ${code}`);
    expect(result.stdout).toContain('outcome unknown');
  });

  it('prints the version', async () => {
    const result = await runCli(['--version']);
    expect(result.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
  });
});
