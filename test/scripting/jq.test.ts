import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempConfigDir } from '../helpers/cli.js';
import { fakeJwt, startFakeApi } from '../helpers/fake-api.js';
import { startSandboxSession, type SandboxSession } from '../helpers/sandbox.js';

/**
 * --jq: jq's own filter, run in-process on the JSON a command would print, its
 * strings printed raw. The first filter and the large document run as processes of
 * the built binary (bin/payctl.js), so jq is loaded and given memory as users' runs
 * do; the others run in the test process (session.run), the same code.
 */
let session: SandboxSession;
/** Every request the sandbox answered, as its log lines (`GET /customers?… 200 …`). */
const requests: string[] = [];
beforeAll(async () => {
  session = await startSandboxSession('acme', { customers: 250, log: (line) => requests.push(line) });
});
afterAll(() => session?.close());

const json = <T>(stdout: string) => JSON.parse(stdout) as T;
const lines = (stdout: string) => stdout.trimEnd().split('\n');
/** A failure's message: with --jq, stderr has the JSON error line of json modes. */
const messageOf = (stderr: string) => json<{ error: { message: string } }>(stderr).error.message;

describe('--jq', () => {
  it('filters a list page: strings print raw, one a line, as jq -r', async () => {
    const listed = json<Array<{ email: string }>>((await session.run(['customers', 'list', '--limit', '5', '--json'])).stdout);
    const filtered = await session.runProcess(['customers', 'list', '--limit', '5', '--jq', '.[].email']);
    expect(filtered.code, filtered.stderr).toBe(0);
    expect(lines(filtered.stdout)).toEqual(listed.map((customer) => customer.email));
  });

  it('filters a single resource; objects print as compact JSON', async () => {
    const [first] = json<[{ id: string; email: string; address: { city: string } }]>(
      (await session.run(['customers', 'list', '--limit', '1', '--json'])).stdout,
    );
    const filtered = await session.run(['customers', 'get', first.id, '--jq', '{id, email}, .address.city']);
    expect(filtered.code, filtered.stderr).toBe(0);
    expect(filtered.stdout).toBe(`${JSON.stringify({ id: first.id, email: first.email })}\n${first.address.city}\n`);
  });

  it('with --all takes the whole list as one array, as `--all --json | jq` does', async () => {
    const all = json<Array<{ id: string }>>((await session.run(['customers', 'list', '--all', '--json'])).stdout);
    expect(all).toHaveLength(250);
    const filtered = await session.run(['customers', 'list', '--all', '--jq', 'length, .[-1].id']);
    expect(filtered.code, filtered.stderr).toBe(0);
    expect(lines(filtered.stdout)).toEqual(['250', all[249]!.id]);
    // -o ndjson: each line is a document, filtered one by one.
    const perLine = await session.run(['customers', 'list', '--all', '-o', 'ndjson', '--jq', '.id']);
    expect(lines(perLine.stdout)).toEqual(all.map((customer) => customer.id));
  });

  it('an invalid expression is exit 2 naming it, and nothing is sent', async () => {
    const before = requests.length;
    const invalid = await session.run(['customers', 'list', '--jq', '.[] | select(.email == )']);
    expect(invalid.code).toBe(2);
    expect(invalid.stdout).toBe('');
    expect(messageOf(invalid.stderr)).toContain('--jq ".[] | select(.email == )" is not a valid jq expression');
    expect(messageOf(invalid.stderr)).toContain('syntax error');
    // An unknown function is a compile error too.
    const unknown = await session.run(['balance', '--jq', 'nosuch(1)']);
    expect(unknown.code).toBe(2);
    expect(messageOf(unknown.stderr)).toContain('nosuch/1 is not defined');
    expect(requests.slice(before)).toEqual([]);
  });

  it("a runtime error is exit 1 naming --jq with jq's message, and says the command succeeded (a withdrawal was made)", async () => {
    const failed = await session.run(['customers', 'list', '--limit', '2', '--jq', '.[0].email | .domain']);
    expect(failed.code).toBe(1);
    expect(failed.stdout).toBe('');
    expect(messageOf(failed.stderr)).toBe('--jq failed on the output of a command that succeeded: jq: error (at <stdin>:0): Cannot index string with string ("domain")');
    const credit = await session.run(['api', 'POST', '/sandbox/balance', '--main-account', '--data', '{"pix":100000}']);
    expect(credit.code, credit.stderr).toBe(0);
    const withdrawal = ['withdraw', 'pix', '--amount', '333', '--bank-account', '1001', '--pix-key-type', 'email', '--pix-key', 'jq-runtime@example.com', '--main-account', '--yes'];
    const made = await session.run([...withdrawal, '--jq', '.amount + "x"']);
    expect(made.code).toBe(1);
    expect(messageOf(made.stderr)).toMatch(/^--jq failed on the output of a command that succeeded: jq: error .*cannot be added$/);
    const listed = json<Array<{ pixKey?: string }>>((await session.run(['withdrawals', 'list', '--main-account', '--limit', '100', '--json'])).stdout);
    expect(listed.filter((w) => w.pixKey === 'jq-runtime@example.com')).toHaveLength(1);
  });

  it("reads the run's environment in $ENV and env, as gh's --jq does, but never payctl's secrets", async () => {
    const [first] = json<[{ id: string; email: string }]>((await session.run(['customers', 'list', '--limit', '1', '--json'])).stdout);
    // The session's token, given as scripts give it: PAYCTL_TOKEN.
    const config = json<{ profiles: { default: { token: string } } }>(readFileSync(path.join(session.env.PAYCTL_CONFIG_DIR!, 'config.json'), 'utf8'));
    const env = { WANTED_EMAIL: first.email, PAYCTL_TOKEN: config.profiles.default.token };
    const picked = await session.run(['customers', 'list', '--limit', '5', '--jq', '.[] | select(.email == env.WANTED_EMAIL) | .id, $ENV.WANTED_EMAIL'], { env });
    expect(picked.code, picked.stderr).toBe(0);
    expect(lines(picked.stdout)).toEqual([first.id, first.email]);
    const secret = await session.run(['balance', '--jq', '[env.PAYCTL_TOKEN, $ENV.PAYCTL_TOKEN, $ENV.PGPASSWORD]'], { env: { ...env, PGPASSWORD: 'ledger-secret' } });
    expect(secret.code, secret.stderr).toBe(0);
    expect(secret.stdout).toBe('[null,null,null]\n');
    // Passwords in the addresses payctl reads (a ledger's URL, refused when used; an https proxy's, this run uses none) are masked.
    const addresses = { PAYCTL_LEDGER: 'postgres://ana:ledger-secret@db.example.com/payctl', HTTPS_PROXY: 'proxy-user:proxy-secret@proxy.example.com:3128' };
    const masked = await session.run(['balance', '--jq', '[env.PAYCTL_LEDGER, $ENV.HTTPS_PROXY]'], { env: { ...env, ...addresses } });
    expect(masked.code, masked.stderr).toBe(0);
    expect(json(masked.stdout)).toEqual(['postgres://ana:***@db.example.com/payctl', 'proxy-user:***@proxy.example.com:3128']);
    // A base URL with a password is refused where it is used; a command that uses none still shows it masked.
    const baseUrl = await session.run(['profiles', 'list', '--jq', 'env.PAYCTL_BASE_URL'], { env: { ...env, PAYCTL_BASE_URL: 'http://ana:api-secret@127.0.0.1:9' } });
    expect(baseUrl.code, baseUrl.stderr).toBe(0);
    expect(baseUrl.stdout).toBe('http://ana:***@127.0.0.1:9/\n');
  });

  it('filters what --dry-run prints, a batch as one array', async () => {
    const single = await session.run(['withdraw', 'pix', '--amount', '1500', '--bank-account', '1001', '--pix-key-type', 'email', '--pix-key', 'a@example.com', '--dry-run', '--jq', '.method, .body.amount']);
    expect(single.code, single.stderr).toBe(0);
    expect(single.stdout).toBe('POST\n1500\n');
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'payctl-jq-')), 'payouts.csv');
    writeFileSync(file, 'amount,bank_account_id,pix_key_type,pix_key\n1500,1001,email,a@example.com\n2500,1002,email,b@example.com\n');
    const batch = await session.run(['withdraw', 'batch', file, '--method', 'pix', '--dry-run', '--jq', 'map(.body.amount)']);
    expect(batch.code, batch.stderr).toBe(0);
    expect(batch.stdout).toBe('[1500,2500]\n');
    const perLine = await session.run(['withdraw', 'batch', file, '--method', 'pix', '--dry-run', '-o', 'ndjson', '--jq', '.body.pixKey']);
    expect(perLine.stdout).toBe('a@example.com\nb@example.com\n');
  });

  it('with an -o that is not JSON is a usage error', async () => {
    const refused = await session.run(['customers', 'list', '-o', 'csv', '--jq', '.']);
    expect(refused.code).toBe(2);
    expect(messageOf(refused.stderr)).toContain('--jq filters JSON and cannot be used with -o csv');
  });

  it('has room for a document of some hundred thousand values (jq-wasm alone stops at 256 MB)', async () => {
    // 700,000 empty objects: 2 MB of JSON that jq holds in over 256 MB, as it would 100,000 customers.
    const values = 700_000;
    const fake = await startFakeApi((_, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(`{"data":[${'{},'.repeat(values - 1)}{}],"message":"ok"}`);
    });
    try {
      const env = { PAYCTL_CONFIG_DIR: tempConfigDir(), PAYCTL_BASE_URL: fake.url, PAYCTL_TOKEN: fakeJwt(Math.floor(Date.now() / 1000) + 3600) };
      const counted = await session.runProcess(['api', 'GET', '/anything', '--jq', 'length'], { env, timeoutMs: 120_000 });
      expect(counted.stderr).toBe('');
      expect(counted.stdout).toBe(`${values}\n`);
      expect(counted.code).toBe(0);
    } finally {
      await fake.close();
    }
  });
});
