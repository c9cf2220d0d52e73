import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { tempConfigDir } from '../helpers/cli.js';
import { fakeJwt, sendJson, startFakeApi, type FakeApi } from '../helpers/fake-api.js';
import { startSandboxSession, type SandboxSession } from '../helpers/sandbox.js';

/** `api GET PATH --paginate [--slurp]`: every page of a raw route, read as --all reads a list. */
let session: SandboxSession;
const requests: string[] = [];
beforeAll(async () => {
  session = await startSandboxSession('acme', { customers: 1000, log: (line) => requests.push(line) });
});
afterAll(() => session?.close());

let fake: FakeApi | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const json = <T>(stdout: string) => JSON.parse(stdout) as T;
const messageOf = (stderr: string) => json<{ error: { message: string } }>(stderr).error.message;

describe('api --paginate', () => {
  it('--slurp over 1,000 customers prints what customers list --all --json does', async () => {
    const [slurped, listed] = await Promise.all([
      session.runProcess(['api', 'GET', '/customers', '--paginate', '--slurp']),
      session.runProcess(['customers', 'list', '--all', '--json']),
    ]);
    expect(slurped.code, slurped.stderr).toBe(0);
    expect(json<unknown[]>(slurped.stdout)).toHaveLength(1000);
    expect(slurped.stdout).toBe(listed.stdout);
  });

  it('prints an array per page as it goes, one item a line with -o ndjson; --jq filters each page or the slurped array', async () => {
    const pages = await session.run(['api', 'GET', '/customers', '--paginate', '--query', 'limit=80', '--jq', 'length']);
    expect(pages.code, pages.stderr).toBe(0);
    expect(pages.stdout).toBe(`${'80\n'.repeat(12)}40\n`);
    const lines = await session.run(['api', 'GET', '/customers', '--paginate', '-o', 'ndjson']);
    const ids = lines.stdout.trimEnd().split('\n').map((line) => json<{ id: string }>(line).id);
    expect(new Set(ids).size).toBe(1000);
    const slurped = await session.run(['api', 'GET', '/customers', '--paginate', '--slurp', '--jq', 'map(.id)']);
    expect(json<string[]>(slurped.stdout)).toEqual(ids);
  });

  it('is refused with anything but GET, and --slurp without --paginate, before anything is sent', async () => {
    const before = requests.length;
    const post = await session.run(['api', 'POST', '/customers', '--paginate', '--json']);
    expect(post.code).toBe(2);
    expect(messageOf(post.stderr)).toContain('--paginate reads pages, with GET only');
    const slurp = await session.run(['api', 'GET', '/customers', '--slurp', '--json']);
    expect(slurp.code).toBe(2);
    expect(messageOf(slurp.stderr)).toContain('--slurp gathers the pages of --paginate');
    expect(requests.slice(before)).toEqual([]);
  });

  it('stops at a page that fails, with its exit code, saying how many items were printed, in the JSON error too', async () => {
    fake = await startFakeApi((request, response) => {
      const page = Number(new URL(request.url, 'http://fake').searchParams.get('page'));
      if (page === 3) return sendJson(response, 400, { data: { message: 'page 3 refused', returnCode: -7002 } });
      sendJson(response, 200, { data: [{ id: page * 10 }, { id: page * 10 + 1 }], meta: { total: 10, page, limit: 2, totalPages: 5 }, message: 'ok' });
    });
    const env = { PAYCTL_CONFIG_DIR: tempConfigDir(), PAYCTL_BASE_URL: fake.url, PAYCTL_TOKEN: fakeJwt(Math.floor(Date.now() / 1000) + 3600) };
    const ndjson = await session.run(['api', 'GET', '/anything', '--paginate', '--query', 'limit=2', '-o', 'ndjson', '--jq', '.id'], { env });
    expect(ndjson.code).toBe(1);
    expect(ndjson.stdout).toBe('10\n11\n20\n21\n');
    expect(json(ndjson.stderr)).toEqual({
      error: { message: 'page 3 refused (--paginate did not finish: 4 items were printed before the failure)', returnCode: -7002, status: 400, exitCode: 1 },
    });
    const person = await session.run(['api', 'GET', '/anything', '--paginate', '--query', 'limit=2'], { env });
    expect(person.code).toBe(1);
    expect(person.stderr).toBe('--paginate did not finish: 4 items were printed before the failure\nerror: page 3 refused (returnCode -7002, HTTP 400)\n');
  });

  it('waits out a 429 in the middle (Retry-After) and prints every page once', async () => {
    fake = await startFakeApi();
    const total = 250;
    let refused = false;
    fake.handle((request, response) => {
      const url = new URL(request.url, 'http://fake');
      const page = Number(url.searchParams.get('page'));
      const limit = Number(url.searchParams.get('limit'));
      if (page === 2 && !refused) {
        refused = true;
        return sendJson(response, 429, { data: { message: 'slow down', returnCode: -1 } }, { 'retry-after': '1' });
      }
      const data = Array.from({ length: Math.max(0, Math.min(limit, total - (page - 1) * limit)) }, (_, i) => ({ id: (page - 1) * limit + i }));
      sendJson(response, 200, { data, meta: { total, page, limit, totalPages: Math.ceil(total / limit) }, message: 'ok' });
    });
    const env = { PAYCTL_CONFIG_DIR: tempConfigDir(), PAYCTL_BASE_URL: fake.url, PAYCTL_TOKEN: fakeJwt(Math.floor(Date.now() / 1000) + 3600) };
    const result = await session.runProcess(['api', 'GET', '/anything', '--paginate', '--jq', '[.[].id] | "\\(.[0])-\\(.[-1])"'], { env });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe('0-99\n100-199\n200-249\n');
    const asked = fake.requests.map((r) => new URL(r.url, 'http://fake').searchParams.get('page'));
    expect(asked.filter((page) => page === '2')).toHaveLength(2);
    expect(asked.filter((page) => page !== '2').sort()).toEqual(['1', '3']);
  });
});
