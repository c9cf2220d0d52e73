import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, ROOT, cleanEnv, runCli, runCliInTerminal, tempConfigDir } from '../helpers/cli.js';
import { needsTools } from '../helpers/tools.js';
import { runInProcess } from '../helpers/in-process.js';
import { fakeJwt, sendJson, startFakeApi, type FakeApi } from '../helpers/fake-api.js';
import { startWorkers, type PayctlWorker } from '../helpers/workers.js';

const SUB_ENV = '11111111-1111-4111-8111-111111111111';
const SUB_PROFILE = '22222222-2222-4222-8222-222222222222';
const SUB_FLAG = '33333333-3333-4333-8333-333333333333';

/** Two servers, so a request tells which base URL won. */
let first: FakeApi;
let second: FakeApi;
/**
 * 16 payctl processes kept up for the file's races between processes (test/helpers/workers.ts):
 * each race starts its runs at one instant, and no race waits for Node to start 16 times on 2 cores.
 */
let workers: PayctlWorker[];
const answer = (name: string) => (request: { headers: Record<string, unknown> }, response: import('node:http').ServerResponse) =>
  sendJson(response, 200, {
    data: { disponiblePixBalance: 0, disponibleCardBalance: 0, disponibleBilletBalance: 0, withdrawalsInProcessingBalance: 0, server: name },
    message: String(request.headers.authorization ?? ''),
  });

beforeAll(async () => {
  first = await startFakeApi(answer('first'));
  second = await startFakeApi(answer('second'));
  workers = startWorkers(16);
});
afterAll(async () => {
  await first.close();
  await second.close();
  await Promise.all(workers.map((worker) => worker.close()));
});

function lastRequest(server: FakeApi) {
  return server.requests[server.requests.length - 1]!;
}

describe('config precedence: flags, then environment, then the profile', () => {
  it('resolves profile, base URL, token and sub-account in that order', async () => {
    const dir = tempConfigDir();
    const env = { PAYCTL_CONFIG_DIR: dir };
    expect((await runInProcess(['profiles', 'add', 'one', '--base-url', first.url], { env })).code).toBe(0);
    expect((await runInProcess(['profiles', 'add', 'two', '--base-url', second.url], { env })).code).toBe(0);
    expect((await runInProcess(['profiles', 'use', 'one'], { env })).code).toBe(0);
    expect((await runInProcess(['auth', 'token', '--stdin'], { env, input: 'token-of-one\n' })).code).toBe(0);
    expect((await runInProcess(['subaccounts', 'use', SUB_PROFILE], { env })).code).toBe(0);

    // The profile alone.
    await runInProcess(['balance'], { env });
    expect(lastRequest(first).headers.authorization).toBe('Bearer token-of-one');
    expect(lastRequest(first).headers['x-subaccount-id']).toBe(SUB_PROFILE);

    // Environment over the profile.
    const before = second.requests.length;
    await runInProcess(['balance'], { env: { ...env, PAYCTL_BASE_URL: second.url, PAYCTL_TOKEN: 'env-token', PAYCTL_SUBACCOUNT: SUB_ENV } });
    expect(second.requests.length).toBe(before + 1);
    expect(lastRequest(second).headers.authorization).toBe('Bearer env-token');
    expect(lastRequest(second).headers['x-subaccount-id']).toBe(SUB_ENV);

    // Flags over the environment.
    const firstBefore = first.requests.length;
    await runInProcess(['balance', '--base-url', first.url, '--subaccount', SUB_FLAG], {
      env: { ...env, PAYCTL_BASE_URL: second.url, PAYCTL_SUBACCOUNT: SUB_ENV },
    });
    expect(first.requests.length).toBe(firstBefore + 1);
    expect(lastRequest(first).headers['x-subaccount-id']).toBe(SUB_FLAG);

    // --main-account drops the sub-account from every source.
    await runInProcess(['balance', '--main-account'], { env: { ...env, PAYCTL_SUBACCOUNT: SUB_ENV } });
    expect(lastRequest(first).headers['x-subaccount-id']).toBeUndefined();

    // --profile over PAYCTL_PROFILE over the current profile.
    const status = async (extraArgs: string[], extraEnv: Record<string, string> = {}) =>
      JSON.parse((await runInProcess(['auth', 'status', '--json', ...extraArgs], { env: { ...env, ...extraEnv } })).stdout).profile;
    expect(await status([])).toBe('one');
    expect(await status([], { PAYCTL_PROFILE: 'two' })).toBe('two');
    expect(await status(['--profile', 'one'], { PAYCTL_PROFILE: 'two' })).toBe('one');
  });

  it('takes the timeout from --timeout over PAYCTL_TIMEOUT', async () => {
    const hanging = await startFakeApi(() => undefined);
    try {
      const env = { PAYCTL_CONFIG_DIR: tempConfigDir(), PAYCTL_BASE_URL: hanging.url, PAYCTL_TOKEN: 't', PAYCTL_TIMEOUT: '60' };
      const result = await runInProcess(['balance', '--timeout', '0.5'], { env });
      expect(result.code).toBe(4);
      // --timeout, not PAYCTL_TIMEOUT's 60 s, ended it
      expect(result.stderr).toContain('within the 0.5 s timeout');
      const bad = await runInProcess(['balance'], { env: { ...env, PAYCTL_TIMEOUT: 'soon' } });
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain('PAYCTL_TIMEOUT "soon" must be a number of seconds');
    } finally {
      await hanging.close();
    }
  });

  it('names a missing profile and how to add it', async () => {
    const result = await runInProcess(['balance', '--profile', 'ghost'], { env: { PAYCTL_CONFIG_DIR: tempConfigDir() } });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('profile "ghost" does not exist\nhint: add it: payctl profiles add ghost --base-url URL');
  });
});

describe('config file', () => {
  it('lives in $XDG_CONFIG_HOME/payctl/config.json without a suffix, folder 0700 and file 0600, even under umask 000', async () => {
    const home = tempConfigDir();
    await new Promise<void>((resolve, reject) => {
      const child = spawn('sh', ['-c', `umask 000; exec "${process.execPath}" "${BIN}" auth token --stdin`], {
        env: cleanEnv({ XDG_CONFIG_HOME: home }),
        stdio: ['pipe', 'ignore', 'ignore'],
      });
      child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`exit ${code}`))));
      child.stdin.end('umask-token\n');
    });
    const dir = path.join(home, 'payctl');
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(path.join(dir, 'config.json')).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(path.join(dir, 'config.json'), 'utf8')).profiles.default.token).toBe('umask-token');
  });

  it("without PAYCTL_CONFIG_DIR or XDG_CONFIG_HOME lives in $HOME/.config/payctl, HOME read from the run's environment", async () => {
    const home = tempConfigDir();
    const added = await runInProcess(['profiles', 'add', 'home', '--base-url', 'https://api.example.com'], { env: { HOME: home } });
    expect(added.code, added.stderr).toBe(0);
    expect(Object.keys(JSON.parse(readFileSync(path.join(home, '.config', 'payctl', 'config.json'), 'utf8')).profiles)).toContain('home');
  });

  it('reports a corrupt config file with its fix, without a stack trace', async () => {
    const dir = tempConfigDir();
    writeFileSync(path.join(dir, 'config.json'), '{"profiles": {"default": {"baseUrl": "http://127.0.0.1:1", "tok');
    const result = await runInProcess(['balance'], { env: { PAYCTL_CONFIG_DIR: dir } });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^error: the config file .*config\.json is not valid JSON/);
    expect(result.stderr).toMatch(/hint: fix it by hand, or move it away and start again: mv /);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    const writes = await runInProcess(['profiles', 'add', 'x', '--base-url', 'http://127.0.0.1:1'], { env: { PAYCTL_CONFIG_DIR: dir } });
    expect(writes.code).toBe(2);
    expect(readFileSync(path.join(dir, 'config.json'), 'utf8')).toContain('"tok'); // left for the user to repair
  });

  it('keeps every change when many payctl processes change it at once', async () => {
    const dir = tempConfigDir();
    mkdirSync(dir, { recursive: true });
    const names = Array.from({ length: 12 }, (_, i) => `p${i}`);
    const startAt = Date.now() + 50;
    const results = await Promise.all([
      ...names.map((name, i) => workers[i]!.run(['profiles', 'add', name, '--base-url', `http://127.0.0.1:${4000 + i}`], { env: { PAYCTL_CONFIG_DIR: dir }, startAt })),
      workers[12]!.run(['auth', 'token', '--stdin'], { env: { PAYCTL_CONFIG_DIR: dir }, input: `${fakeJwt(Math.floor(Date.now() / 1000) + 600)}\n`, startAt }),
    ]);
    expect(results.map((r) => r.code)).toEqual(results.map(() => 0));
    const config = JSON.parse(readFileSync(path.join(dir, 'config.json'), 'utf8'));
    expect(Object.keys(config.profiles).sort()).toEqual(['default', ...names].sort());
    expect(config.profiles.default.tokenExpiresAt).toMatch(/^\d{4}-/);
  });
});

describe('global flags are parsed before any command runs, on every command', () => {
  const TIMEOUT_RULE = 'must be a number of seconds greater than 0 and at most 3600';

  it('a bad --timeout, --base-url or --subaccount is exit 2 naming the flag and the rule; the command never runs', async () => {
    const dir = tempConfigDir();
    const env = { PAYCTL_CONFIG_DIR: dir };
    const cases: Array<[string[], string]> = [
      [['profiles', 'list', '--timeout', 'abc'], `--timeout "abc" ${TIMEOUT_RULE}`],
      [['version', '--timeout', 'abc'], `--timeout "abc" ${TIMEOUT_RULE}`],
      [['completion', 'bash', '--timeout', '-5'], `--timeout "-5" ${TIMEOUT_RULE}`],
      [['--timeout', '0', 'profiles', 'add', 'early', '--base-url', 'http://127.0.0.1:1'], `--timeout "0" ${TIMEOUT_RULE}`],
      [['profiles', 'add', 'late', '--base-url', 'http://127.0.0.1:1', '--timeout', '3601'], `--timeout "3601" ${TIMEOUT_RULE}`],
      [['profiles', 'use', 'default', '--base-url', 'ftp://127.0.0.1'], '--base-url "ftp://127.0.0.1" is invalid: must be an http or https URL'],
      [['profiles', 'add', 'blank', '--base-url', ''], '--base-url "" is invalid: must be an http or https URL'],
      [['help', 'balance', '--base-url', 'not a url'], '--base-url "not a url" is invalid: must be an http or https URL'],
      // Checked before the missing flags of the command: the flag is wrong whatever the command needs.
      [['withdraw', 'pix', '--subaccount', 'loja-norte'], '--subaccount "loja-norte" is invalid: must be a UUID'],
      [['profiles', 'list', '--profile', ''], '--profile "" is invalid: must not be empty'],
    ];
    for (const [args, message] of cases) {
      const result = await runInProcess(args, { env });
      expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(2);
      // One line, the error alone.
      expect(result.stderr.trimEnd().split('\n'), args.join(' ')).toEqual([expect.stringMatching(/^error: /)]);
      expect(result.stderr, args.join(' ')).toContain(`error: ${message}`);
      expect(result.stdout, args.join(' ')).toBe('');
    }
    // Neither profile was added, nor the config written at all.
    expect(existsSync(path.join(dir, 'config.json'))).toBe(false);
  });

  it('a base URL with credentials is refused without echoing them, from the flag or the environment', async () => {
    const env = { PAYCTL_CONFIG_DIR: tempConfigDir() };
    const flag = await runInProcess(['profiles', 'list', '--base-url', 'http://ops:hunter2@127.0.0.1:1'], { env });
    expect(flag.code).toBe(2);
    expect(flag.stderr).toBe('error: --base-url is invalid: a base URL must not carry credentials (user:password@)\n');
    const variable = await runInProcess(['balance'], { env: { ...env, PAYCTL_BASE_URL: 'http://ops:hunter2@127.0.0.1:1', PAYCTL_TOKEN: 't' } });
    expect(variable.code).toBe(2);
    expect(variable.stderr).toBe('error: PAYCTL_BASE_URL is invalid: a base URL must not carry credentials (user:password@)\n');
  });

  it('values from the environment and the profile are still checked where they are used, named by where they came from', async () => {
    const dir = tempConfigDir();
    writeFileSync(
      path.join(dir, 'config.json'),
      JSON.stringify({ profiles: { odd: { baseUrl: 'ftp://127.0.0.1', env: 'local', token: 't' }, lost: { baseUrl: first.url, env: 'local', token: 't', subaccount: 'loja' } } }),
    );
    const cases: Array<[string[], Record<string, string>, string]> = [
      [['balance', '--profile', 'lost'], { PAYCTL_BASE_URL: 'ftp://127.0.0.1' }, 'PAYCTL_BASE_URL "ftp://127.0.0.1" is invalid: must be an http or https URL'],
      [['balance', '--profile', 'odd'], {}, 'the base URL of profile "odd" "ftp://127.0.0.1" is invalid: must be an http or https URL'],
      [['balance', '--profile', 'lost'], { PAYCTL_SUBACCOUNT: 'loja' }, 'PAYCTL_SUBACCOUNT "loja" is invalid: must be a UUID'],
      [['balance', '--profile', 'lost'], {}, 'the profile\'s sub-account "loja" is invalid: must be a UUID'],
      [['balance', '--profile', 'lost', '--main-account'], { PAYCTL_TIMEOUT: '-1' }, `PAYCTL_TIMEOUT "-1" ${TIMEOUT_RULE}`],
    ];
    for (const [args, extra, message] of cases) {
      const result = await runInProcess(args, { env: { PAYCTL_CONFIG_DIR: dir, ...extra } });
      expect(result.code, `${args.join(' ')} ${JSON.stringify(extra)}: ${result.stderr}`).toBe(2);
      expect(result.stderr).toContain(`error: ${message}`);
    }
    // The flag wins over a bad value below it, which is then never read.
    const overridden = await runInProcess(['balance', '--profile', 'lost', '--subaccount', SUB_FLAG, '--base-url', first.url], {
      env: { PAYCTL_CONFIG_DIR: dir, PAYCTL_SUBACCOUNT: 'loja' },
    });
    expect(overridden.code, overridden.stderr).toBe(0);
    expect(lastRequest(first).headers['x-subaccount-id']).toBe(SUB_FLAG);
  });
});

describe('profiles add takes the global --base-url', () => {
  it('in any position, normalised; a bad one names --base-url and its rule; without one, the flag is named', async () => {
    const dir = tempConfigDir();
    const env = { PAYCTL_CONFIG_DIR: dir };
    expect((await runInProcess(['--base-url', 'http://127.0.0.1:4010/', 'profiles', 'add', 'before'], { env })).code).toBe(0);
    expect((await runInProcess(['profiles', 'add', 'after', '--base-url', 'HTTP://LOCALHOST:4010/v1/'], { env })).code).toBe(0);
    const profiles = JSON.parse(readFileSync(path.join(dir, 'config.json'), 'utf8')).profiles;
    expect([profiles.before.baseUrl, profiles.after.baseUrl]).toEqual(['http://127.0.0.1:4010', 'http://localhost:4010/v1']);
    const bad = await runInProcess(['profiles', 'add', 'bad', '--base-url', 'ftp://127.0.0.1'], { env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('error: --base-url "ftp://127.0.0.1" is invalid: must be an http or https URL, such as https://api.example.com\n');
    const missing = await runInProcess(['profiles', 'add', 'none'], { env });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe('error: missing required flag: --base-url\nhint: payctl profiles add none --base-url URL\n');
    expect(Object.keys(JSON.parse(readFileSync(path.join(dir, 'config.json'), 'utf8')).profiles)).toEqual(['before', 'after']);
  });

  it('its help says what --base-url is for it, and lists the flag once', async () => {
    const help = (await runInProcess(['profiles', 'add', '--help'])).stdout;
    expect(help.replace(/\s+/g, ' ')).toContain("The global --base-url, required here, is the new profile's API base URL.");
    expect(help.match(/^ +--base-url <url>/gm)).toHaveLength(1);
  });
});

describe('prompting', () => {
  needsTools('script')('refuses without a terminal, naming every missing flag, and sends nothing', async () => {
    const server = await startFakeApi();
    try {
      const env = { PAYCTL_CONFIG_DIR: tempConfigDir(), PAYCTL_BASE_URL: server.url };
      const piped = await runInProcess(['auth', 'login'], { env });
      expect(piped.code).toBe(2);
      expect(piped.stderr).toContain('missing required flags: --client-id, --client-secret-stdin');
      for (const [args, extraEnv, reason] of [
        [['--no-input'], {}, '--no-input is set'],
        [[], { PAYCTL_NO_INPUT: '1' }, 'PAYCTL_NO_INPUT=1 is set'],
        [[], { CI: 'true' }, 'CI=true is set'],
      ] as const) {
        const terminal = await runCliInTerminal(['auth', 'login', ...args], { env: { ...env, ...extraEnv } });
        expect(terminal.code).toBe(2);
        expect(terminal.stderr).toContain(reason);
      }
      expect(server.requests).toEqual([]);
    } finally {
      await server.close();
    }
  });

  needsTools('script')('a blank client secret typed at the prompt is refused there, by the rule --client-secret-stdin follows, and never sent', async () => {
    const server = await startFakeApi();
    try {
      const env = { PAYCTL_CONFIG_DIR: tempConfigDir(), PAYCTL_BASE_URL: server.url };
      const typed = await runCliInTerminal(['auth', 'login', '--client-id', 'acme'], {
        env,
        stderrOnTerminal: true,
        steps: [
          { after: 'Client secret', send: '   \r' },
          { after: 'must not be empty', send: '\x03' },
        ],
      });
      expect(typed.stdout).toContain('must not be empty');
      expect(typed.code).toBe(130);
      expect(server.requests).toEqual([]);
    } finally {
      await server.close();
    }
  });
});

describe('a production profile must use https (loopback addresses aside)', () => {
  const add = (dir: string, ...args: string[]) => runInProcess(['profiles', 'add', ...args], { env: { PAYCTL_CONFIG_DIR: dir } });

  it('profiles add refuses http for production, said or guessed, and writes nothing', async () => {
    const dir = tempConfigDir();
    for (const args of [['prod', '--base-url', 'http://api.example.com', '--env', 'production'], ['guessed', '--base-url', 'http://api.example.com/v1']]) {
      const result = await add(dir, ...args);
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toMatch(
        /^error: --base-url http:\/\/api\.example\.com(\/v1)? uses http, and a production profile must use https \(only loopback addresses such as 127\.0\.0\.1 may use http\)\n/,
      );
      expect(result.stderr).toMatch(/hint: use https:\/\/api\.example\.com/);
    }
    expect(existsSync(path.join(dir, 'config.json'))).toBe(false);
  });

  it('accepts https, a sandbox over http, and loopback addresses over http', async () => {
    const dir = tempConfigDir();
    const accepted = [
      ['a', '--base-url', 'https://api.example.com', '--env', 'production'],
      ['b', '--base-url', 'http://sandbox.example.com', '--env', 'sandbox'],
      ['c', '--base-url', 'http://127.0.0.1:4010', '--env', 'production'],
      ['d', '--base-url', 'http://127.45.6.7:4010', '--env', 'production'],
      ['e', '--base-url', 'http://localhost:4010', '--env', 'production'],
      ['f', '--base-url', 'http://[::1]:4010', '--env', 'production'],
    ];
    for (const args of accepted) {
      const result = await add(dir, ...args);
      expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(0);
    }
    expect(Object.keys(JSON.parse(readFileSync(path.join(dir, 'config.json'), 'utf8')).profiles)).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
  });

  it('before every request: an http base URL from the file, PAYCTL_BASE_URL or --base-url under a production profile is refused with exit 2, the client secret never sent', async () => {
    const dir = tempConfigDir();
    // Written by hand (or by an older payctl): profiles add would refuse it.
    writeFileSync(
      path.join(dir, 'config.json'),
      JSON.stringify({
        currentProfile: 'prod',
        profiles: {
          prod: { baseUrl: 'http://api.payctl-test.invalid', env: 'production', token: 't' },
          safe: { baseUrl: 'https://api.payctl-test.invalid', env: 'production', token: 't' },
        },
      }),
    );
    const env = { PAYCTL_CONFIG_DIR: dir };
    const cases: Array<[string[], Record<string, string>, string]> = [
      [['balance'], {}, 'the base URL of profile "prod" http://api.payctl-test.invalid uses http'],
      [['auth', 'login', '--client-id', 'acme', '--client-secret-stdin'], {}, 'the base URL of profile "prod" http://api.payctl-test.invalid uses http'],
      [['balance', '--profile', 'safe'], { PAYCTL_BASE_URL: 'http://api.payctl-test.invalid' }, 'PAYCTL_BASE_URL http://api.payctl-test.invalid uses http'],
      [
        [
          'withdraw',
          'pix',
          '--amount',
          '1500',
          '--bank-account',
          '7',
          '--pix-key-type',
          'email',
          '--pix-key',
          'a@example.com',
          '--yes',
          '--profile',
          'safe',
          '--base-url',
          'http://api.payctl-test.invalid',
        ],
        {},
        '--base-url http://api.payctl-test.invalid uses http',
      ],
    ];
    for (const [args, extra, message] of cases) {
      // A request would fail to resolve the host (exit 4): exit 2 means none was attempted.
      const result = await runInProcess(args, { env: { ...env, ...extra }, input: 'cs_live_secret\n' });
      expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(2);
      expect(result.stderr).toContain(`error: ${message}, and a production profile must use https`);
    }
  });

  it('a production profile on a loopback address over http still works', async () => {
    const dir = tempConfigDir();
    expect((await add(dir, 'tunnel', '--base-url', first.url, '--env', 'production')).code).toBe(0);
    const before = first.requests.length;
    const result = await runInProcess(['balance', '--json', '--profile', 'tunnel'], { env: { PAYCTL_CONFIG_DIR: dir, PAYCTL_TOKEN: 't' } });
    expect(result.code, result.stderr).toBe(0);
    expect(first.requests.length).toBe(before + 1);
  });
});

describe('the config lock', () => {
  /** What a crash leaves: the lock as payctl makes it (a directory), or the plain file older versions made, last touched a minute ago. */
  function staleLock(dir: string, form: 'directory' | 'file'): void {
    const lock = path.join(dir, 'config.lock');
    if (form === 'directory') mkdirSync(lock);
    else writeFileSync(lock, '4242');
    const minuteAgo = new Date(Date.now() - 60_000);
    utimesSync(lock, minuteAgo, minuteAgo);
  }

  it('50 rounds of 12 to 16 concurrent profiles add, each starting with a stale config.lock: no update lost, every run exit 0', async () => {
    // In each round 12 to 16 of the file's workers start their `profiles add` at one instant on a
    // fresh folder with a stale lock, so every round is a race between real processes.
    const problems: string[] = [];
    let runs = 0;
    for (let round = 0; round < 50; round++) {
      const dir = tempConfigDir();
      staleLock(dir, round % 2 === 0 ? 'directory' : 'file');
      const names = Array.from({ length: 12 + (round % 5) }, (_, i) => `r${round}p${i}`);
      const startAt = Date.now() + 50;
      const results = await Promise.all(
        names.map((name, i) =>
          workers[i]!.run(['profiles', 'add', name, '--base-url', `http://127.0.0.1:${4000 + i}`], { env: { PAYCTL_CONFIG_DIR: dir }, startAt }),
        ),
      );
      runs += results.length;
      const failed = results.filter((result) => result.code !== 0);
      if (failed.length) problems.push(`round ${round}: ${failed.length} runs failed: ${failed[0]!.stderr}`);
      const kept = Object.keys(JSON.parse(readFileSync(path.join(dir, 'config.json'), 'utf8')).profiles);
      const lost = names.filter((name) => !kept.includes(name));
      if (lost.length) problems.push(`round ${round}: ${lost.length} of ${names.length} profiles lost`);
      if (existsSync(path.join(dir, 'config.lock'))) problems.push(`round ${round}: config.lock left behind`);
    }
    expect(problems, problems.join('\n')).toEqual([]);
    expect(runs).toBeGreaterThanOrEqual(50 * 12);
  }, 600_000);

  it('a lock held by a live payctl is waited for, not taken', async () => {
    const dir = tempConfigDir();
    const lock = path.join(dir, 'config.lock');
    mkdirSync(lock);
    // Each try that finds the lock held is counted (test/helpers/lock-tries.cjs): the run is seen waiting, not timed.
    const tries = path.join(dir, 'tries');
    const env = { PAYCTL_CONFIG_DIR: dir, NODE_OPTIONS: `--require ${path.join(ROOT, 'test/helpers/lock-tries.cjs')}`, PAYCTL_TEST_LOCK_TRIES: tries };
    let ended = false;
    const pending = runCli(['profiles', 'add', 'late', '--base-url', 'http://127.0.0.1:4010'], { env }).finally(() => (ended = true));
    const triedAt = () => (existsSync(tries) ? readFileSync(tries, 'utf8').split('\n').filter(Boolean) : []);
    while (triedAt().length < 5 && !ended) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(ended, 'payctl ended while the lock was held').toBe(false);
    expect(new Set(triedAt())).toEqual(new Set([lock]));
    expect(existsSync(lock)).toBe(true);
    expect(existsSync(path.join(dir, 'config.json'))).toBe(false);
    rmSync(lock, { recursive: true });
    const result = await pending;
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(readFileSync(path.join(dir, 'config.json'), 'utf8')).profiles.late.baseUrl).toBe('http://127.0.0.1:4010');
  });
});
