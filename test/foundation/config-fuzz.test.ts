import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunResult } from '../helpers/cli.js';
import { runInProcess } from '../helpers/in-process.js';
import { sendJson, startFakeApi, type FakeApi } from '../helpers/fake-api.js';
import { STACK_LINE } from '../hardening/commands.js';

/**
 * Odd configs and odd tokens, every one of them, through the commands that read
 * them: each ends in a clear error (exit 2 for the config, 3 for a token) or in
 * success, never in "unexpected failure … a bug in payctl", a stack trace, or a
 * request sent with what was refused. The cases the contract names have their
 * messages checked word for word.
 */

const BALANCE = { disponiblePixBalance: 1, disponibleCardBalance: 2, disponibleBilletBalance: 3, withdrawalsInProcessingBalance: 0 };
const hourFromNow = () => Math.floor(Date.now() / 1000) + 3600;
const b64 = (text: string) => Buffer.from(text).toString('base64url');
/** A JWT whose payload is `payload` as written (not necessarily JSON). */
const jwtWithPayload = (payload: string) => `${b64('{"alg":"HS256","typ":"JWT"}')}.${b64(payload)}.c2lnbmF0dXJl`;
const jwtWithExp = (exp: unknown) => jwtWithPayload(JSON.stringify({ sub: 'fuzz', exp }));

const ODD_VALUES: unknown[] = [
  null, true, false, 0, -1, 1.5, 1e20, -1e20, '', ' ', 'x', 'x'.repeat(5000), [], [1, 2], {}, { nested: { deep: [] } },
  '\u0000', '\u001b[31mred', '\u202eevil', 'http://', 'ftp://example.com', 'http://user:pw@127.0.0.1:1', 'http://127.0.0.1:1',
  'https://api.payctl-test.invalid', 'production', 'local', 'constructor', '__proto__', '2024-13-45T99:99:99Z', 'not-a-uuid',
  '3f2b8c1e-0d4a-4b6e-9a7c-2e5d1f0a9b3c', jwtWithExp(1e20),
];

const ODD_TOKENS: string[] = [
  jwtWithExp(1e20), jwtWithExp(-1e20), jwtWithExp(-1), jwtWithExp('soon'), jwtWithExp('1e20'), jwtWithExp(null), jwtWithExp([]), jwtWithExp({}),
  jwtWithExp(true), jwtWithExp(1.5), jwtWithExp(2 ** 53), jwtWithExp(253_402_300_800), jwtWithExp(hourFromNow() + 0.5), jwtWithPayload('{"sub":"no exp"}'),
  jwtWithPayload('null'), jwtWithPayload('[]'), jwtWithPayload('123'), jwtWithPayload('"text"'), jwtWithPayload('{"exp":'), jwtWithPayload('\u00ff\u00fe'),
  'aGVhZGVy.!!!notbase64!!!.c2ln', 'a.b.c', '..', '.', 'a..b', 'a.b', 'a.b.c.d', 'x y', 'tok\u0000en', 'tøken', '\u202eabc', 'ab\u001b[2Jcd',
  'x'.repeat(10_000), '=', 'abc=def', 'opaque-token-0123456789',
];

/** A config as JSON, before it is written: any value may go anywhere. */
interface ConfigJson {
  currentProfile?: unknown;
  profiles: { default: Record<string, unknown> };
}

/** Where an odd value goes in an otherwise good config. */
const PLACES: Array<(config: ConfigJson, value: unknown) => void> = [
  (config, value) => (config.currentProfile = value),
  (config, value) => ((config as { profiles: unknown }).profiles = value),
  (config, value) => ((config.profiles as Record<string, unknown>).default = value),
  ...['baseUrl', 'env', 'token', 'tokenExpiresAt', 'clientId', 'subaccount', 'somethingNew'].map(
    (field) => (config: ConfigJson, value: unknown) => (config.profiles.default[field] = value),
  ),
];

const COMMANDS: string[][] = [
  ['balance'],
  ['auth', 'status'],
  ['profiles', 'list'],
  ['profiles', 'show'],
  ['auth', 'logout'],
  ['profiles', 'add', 'extra', '--base-url', 'http://127.0.0.1:4010'],
];

let api: FakeApi;
beforeAll(async () => {
  api = await startFakeApi((_, response) => sendJson(response, 200, { data: BALANCE, message: 'ok' }));
});
afterAll(() => api?.close());

const goodConfig = (): ConfigJson & { profiles: { default: { token: string } } } => ({
  currentProfile: 'default',
  profiles: { default: { baseUrl: api.url, env: 'local', token: jwtWithExp(hourFromNow()) } },
});

interface Run extends RunResult {
  sent: number;
}

/** main() in this process (hundreds of cases in seconds), counting the requests the run sent. */
async function runCounted(argv: string[], env: Record<string, string>, input?: string): Promise<Run> {
  const before = api.requests.length;
  const result = await runInProcess(argv, { env, input });
  return { ...result, sent: api.requests.length - before };
}

/** What no run may show, whatever it was fed; `expected` are the exit codes this kind of case may end in. */
function problemsOf(label: string, run: Run, expected: number[]): string[] {
  const problems: string[] = [];
  const say = (text: string) => problems.push(`${label}: ${text} (exit ${run.code})\n  ${run.stderr.trim().slice(0, 400)}`);
  if (!expected.includes(run.code)) say(`exit ${run.code}, expected one of ${expected.join(', ')}`);
  if (/unexpected failure|a bug in payctl/.test(run.stderr)) say('internal error shown');
  if (STACK_LINE.test(run.stderr)) say('stack trace shown');
  if (run.code !== 0 && !/^error: \S/m.test(run.stderr)) say('no error line');
  if ((run.code === 2 || run.code === 3) && run.sent > 0) say(`refused with exit ${run.code} after sending ${run.sent} requests`);
  return problems;
}

const configDirWith = (text: string) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'payctl-oddconfig-'));
  writeFileSync(path.join(dir, 'config.json'), text, { mode: 0o600 });
  return dir;
};

describe('odd configs and tokens never make payctl fail inside', () => {
  it(`${PLACES.length * ODD_VALUES.length} configs with an odd value in each place, through ${COMMANDS.length} commands: exit 0 or a clear error`, async () => {
    const problems: string[] = [];
    let runs = 0;
    for (const [placeIndex, place] of PLACES.entries()) {
      for (const [valueIndex, value] of ODD_VALUES.entries()) {
        const config = goodConfig();
        place(config, value);
        for (const argv of COMMANDS) {
          const dir = configDirWith(JSON.stringify(config));
          const run = await runCounted(argv, { PAYCTL_CONFIG_DIR: dir });
          runs++;
          // Exit 4: a base URL that is a URL of a closed port or an unknown host.
          problems.push(
            ...problemsOf(`place ${placeIndex}, value ${valueIndex} (${JSON.stringify(value)?.slice(0, 40)}), ${argv.join(' ')}`, run, [0, 2, 3, 4]),
          );
        }
      }
    }
    expect(problems, problems.slice(0, 20).join('\n')).toEqual([]);
    expect(runs).toBe(PLACES.length * ODD_VALUES.length * COMMANDS.length);
  });

  it(`${ODD_TOKENS.length} odd tokens, from PAYCTL_TOKEN, from the config and given to auth token: exit 0 or a clear error, nothing sent with a refused token`, async () => {
    const problems: string[] = [];
    for (const [index, token] of ODD_TOKENS.entries()) {
      const label = `token ${index} (${JSON.stringify(token).slice(0, 40)})`;
      const fromEnv = await runCounted(['balance'], {
        PAYCTL_CONFIG_DIR: configDirWith(JSON.stringify(goodConfig())),
        PAYCTL_BASE_URL: api.url,
        PAYCTL_TOKEN: token,
      });
      problems.push(...problemsOf(`${label} in PAYCTL_TOKEN`, fromEnv, [0, 3]));
      const config = goodConfig();
      config.profiles.default.token = token;
      for (const argv of [['balance'], ['auth', 'status']]) {
        problems.push(
          ...problemsOf(
            `${label} in the config, ${argv.join(' ')}`,
            await runCounted(argv, { PAYCTL_CONFIG_DIR: configDirWith(JSON.stringify(config)) }),
            [0, 3],
          ),
        );
      }
      const given = await runCounted(['auth', 'token', '--stdin'], { PAYCTL_CONFIG_DIR: configDirWith(JSON.stringify(goodConfig())) }, `${token}\n`);
      problems.push(...problemsOf(`${label} given to auth token`, given, [0, 2]));
      // What auth token accepts, every other command can use.
      if (given.code === 0 && fromEnv.code === 3 && !/expired/.test(fromEnv.stderr)) problems.push(`${label}: auth token stored a token that balance refuses`);
    }
    expect(problems, problems.slice(0, 20).join('\n')).toEqual([]);
  });
});

describe('the named cases, word for word', () => {
  const env = (dir: string, extra: Record<string, string> = {}) => ({ PAYCTL_CONFIG_DIR: dir, PAYCTL_BASE_URL: api.url, ...extra });

  it('a JWT with exp 1e20, or an exp that is not a number: exit 3 naming the exp, nothing sent', async () => {
    const sent = api.requests.length;
    for (const [exp, shown] of [[1e20, '100000000000000000000'], ['soon', '"soon"']] as const) {
      const result = await runInProcess(['balance'], { env: env(configDirWith('{}'), { PAYCTL_TOKEN: jwtWithExp(exp) }) });
      expect(result.code, result.stderr).toBe(3);
      expect(result.stderr).toBe(
        `error: the token in PAYCTL_TOKEN is a malformed JWT: its exp (${shown}) is not a time in seconds since 1970, up to the year 9999\n` +
          'hint: set PAYCTL_TOKEN to a token the API issued, or unset it and log in: payctl auth login\n',
      );
    }
    expect(api.requests.length).toBe(sent);
  });

  it('a long exp is quoted cut between characters, never inside an emoji', async () => {
    // 38 letters and an emoji: its first half was the 40th UTF-16 unit of the quoted exp.
    const result = await runInProcess(['balance'], { env: env(configDirWith('{}'), { PAYCTL_TOKEN: jwtWithExp(`${'x'.repeat(38)}😀later`) }) });
    expect(result.code, result.stderr).toBe(3);
    expect(result.stderr).toContain(`its exp ("${'x'.repeat(36)}...) is not a time`);
    expect(result.stderr).not.toMatch(/\p{Cs}/u); // no half of a surrogate pair
  });

  it('a malformed JWT: auth token refuses it (exit 2); stored by hand, auth status says why it is unusable (exit 3)', async () => {
    const bad = jwtWithPayload('[1,2]');
    const given = await runInProcess(['auth', 'token', '--stdin'], { env: env(configDirWith('{}')), input: `${bad}\n` });
    expect(given.code).toBe(2);
    expect(given.stderr).toBe('error: the token is a malformed JWT: its payload is not a JSON object\nhint: give the token exactly as the API issued it\n');
    const dir = configDirWith(JSON.stringify({ profiles: { default: { baseUrl: api.url, env: 'local', token: bad } } }));
    const status = await runInProcess(['auth', 'status', '--json'], { env: { PAYCTL_CONFIG_DIR: dir } });
    expect(status.code).toBe(3);
    expect(JSON.parse(status.stdout).loggedIn).toBe(false);
    // In json modes stderr is the JSON error alone.
    expect(JSON.parse(status.stderr)).toEqual({
      error: { message: 'the token of profile "default" is a malformed JWT: its payload is not a JSON object', returnCode: null, status: null, exitCode: 3 },
    });
    const human = await runInProcess(['auth', 'status'], { env: { PAYCTL_CONFIG_DIR: dir } });
    expect(human.stderr).toContain('error: the token of profile "default" is a malformed JWT: its payload is not a JSON object\nhint: log in again: payctl auth login\n');
    // The way out still works.
    expect((await runInProcess(['auth', 'logout'], { env: { PAYCTL_CONFIG_DIR: dir } })).code).toBe(0);
  });

  it('an expired JWT: auth token refuses it (exit 2), stores nothing, and says when it expired in local time', async () => {
    const dir = configDirWith('{}');
    const given = await runInProcess(['auth', 'token', '--stdin'], { env: env(dir), input: `${jwtWithExp(1_577_836_800)}\n` });
    expect(given.code).toBe(2);
    expect(given.stderr).toMatch(/^error: the token expired at (2019-12-31|2020-01-01) \d\d:\d\d: nothing was stored\nhint: give a token that is still valid, or log in: payctl auth login\n$/);
    expect(readFileSync(path.join(dir, 'config.json'), 'utf8')).toBe('{}');
  });

  it('a config whose token is not a string, that is not JSON, or whose profile fields have the wrong type: exit 2 naming the file, the field and the fix', async () => {
    const cases: Array<[string, string]> = [
      [JSON.stringify({ profiles: { default: { baseUrl: api.url, env: 'local', token: 12345 } } }), 'has a profile "default" whose token is not a string'],
      ['{"profiles": {"default": {"baseUrl": "http://127.0.0.1:1", "token": "eyJhbGciOi', 'is not valid JSON (Unterminated string in JSON at position'],
      ['{"profiles": {"default": {"token": secretvalue123}}}', "is not valid JSON (Unexpected token 's')"],
      [JSON.stringify({ profiles: { default: { baseUrl: ['http://x'], env: 'local' } } }), 'has a profile "default" whose baseUrl is missing or not a string'],
      [
        JSON.stringify({ profiles: { default: { baseUrl: api.url, env: 'staging' } } }),
        'has a profile "default" whose env is not one of sandbox, production, local',
      ],
      [
        JSON.stringify({ profiles: { default: { baseUrl: api.url, env: 'local', subaccount: { id: 1 } } } }),
        'has a profile "default" whose subaccount is not a string',
      ],
      [JSON.stringify({ currentProfile: 7, profiles: {} }), 'has a "currentProfile" that is not a string'],
    ];
    const sent = api.requests.length;
    for (const [text, message] of cases) {
      const dir = configDirWith(text);
      const result = await runInProcess(['balance'], { env: { PAYCTL_CONFIG_DIR: dir, PAYCTL_TOKEN: 't' } });
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toContain(`error: the config file ${path.join(dir, 'config.json')} ${message}`);
      expect(result.stderr).toContain(`hint: fix it by hand, or move it away and start again: mv '${path.join(dir, 'config.json')}'`);
      expect(result.stderr).not.toContain('secretvalue');
    }
    expect(api.requests.length).toBe(sent);
  });

  it('a login answered with a token payctl cannot use (exp 1e20, not a string, absent): exit 5, nothing stored', async () => {
    const cases: Array<[unknown, string]> = [
      [jwtWithExp(1e20), 'has an accessToken that is a malformed JWT: its exp (100000000000000000000) is not a time in seconds since 1970'],
      [12345, 'has no accessToken string'],
      [undefined, 'has no accessToken string'],
    ];
    for (const [accessToken, message] of cases) {
      const issuer = await startFakeApi((_, response) =>
        sendJson(response, 200, { data: { accessToken, tokenType: 'Bearer', expiresIn: 1e20 }, message: 'ok' }),
      );
      try {
        const dir = configDirWith('{}');
        const result = await runInProcess(['auth', 'login', '--client-id', 'acme', '--client-secret-stdin'], {
          env: { PAYCTL_CONFIG_DIR: dir, PAYCTL_BASE_URL: issuer.url },
          input: 'cs_live_secret\n',
        });
        expect(result.code, result.stderr).toBe(5);
        expect(result.stderr).toContain(`error: the answer to POST /auth ${message}`);
        expect(result.stderr).not.toMatch(/unexpected failure/);
        expect(readFileSync(path.join(dir, 'config.json'), 'utf8')).toBe('{}');
      } finally {
        await issuer.close();
      }
    }
  });
});
