import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInProcess } from '../helpers/in-process.js';
import { fakeJwt, sendJson, startFakeApi, type FakeApi } from '../helpers/fake-api.js';

/**
 * payctl's boundaries against a server whose answers are slightly off: card
 * numbers echoed in any grouping, answers about another resource than the one
 * asked for, ids larger than a double holds.
 */

let api: FakeApi;
beforeAll(async () => {
  api = await startFakeApi();
});
afterAll(() => api?.close());

const TOKEN = fakeJwt(Math.floor(Date.now() / 1000) + 3600);

/** A config folder logged in to the fake API, and an audit folder of its own. */
function profile(): { env: Record<string, string>; audit: string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'payctl-boundaries-'));
  mkdirSync(path.join(dir, 'config'), { mode: 0o700 });
  writeFileSync(path.join(dir, 'config', 'config.json'), JSON.stringify({ profiles: { default: { baseUrl: api.url, env: 'local', token: TOKEN } } }), { mode: 0o600 });
  return {
    env: { PAYCTL_CONFIG_DIR: path.join(dir, 'config'), XDG_STATE_HOME: path.join(dir, 'state') },
    audit: path.join(dir, 'state', 'payctl', 'audit.ndjson'),
  };
}

describe('card numbers a server echoes are masked however grouped', () => {
  const CARD = '4111111111111111';
  /** Another card than the run's: a server may echo any. */
  const OTHER_CARD = '5555555555554444';
  const ECHO = `card 4111 1111 1111 1111 (4111-1111-1111-1111, 4111.1111.1111.1111) is refused; so is 5555 5555 5555 4444 exp 12 2031, security code 123`;
  const digitsOnly = (text: string) => text.replace(/[ .-]/g, '');

  it('in the error line, the --json error, --debug and audit.ndjson', async () => {
    api.handle((request, response) =>
      request.url.startsWith('/cards/tokenize')
        ? sendJson(response, 400, { data: { message: ECHO, returnCode: -7509 } })
        : sendJson(response, 404, { data: { message: 'no such route', returnCode: -1 } }),
    );
    const { env, audit } = profile();
    const tokenize = ['cards', 'tokenize', '--customer', '3f2b8c1e-0d4a-4b6e-9a7c-2e5d1f0a9b3c', '--holder-name', 'ANA SILVA', '--exp-month', '12', '--exp-year', '2031', '--card-stdin'];
    const runs = await Promise.all([[], ['--json'], ['--debug']].map((extra) => runInProcess([...tokenize, ...extra], { env, input: `${CARD}\n123\n` })));
    for (const run of runs) {
      expect(run.code, run.stderr).toBe(1);
      expect(run.stderr).toContain('is refused');
    }
    expect(runs[0]!.stderr).toContain('error: card *** (***, ***) is refused; so is *** exp 12 2031');
    const channels = { ...Object.fromEntries(runs.map((run, i) => [`stderr of run ${i}`, run.stderr + run.stdout])), 'audit.ndjson': readFileSync(audit, 'utf8') };
    expect(channels['audit.ndjson']).toContain('is refused');
    for (const [channel, text] of Object.entries(channels)) {
      for (const card of [CARD, OTHER_CARD]) expect(digitsOnly(text), channel).not.toContain(card);
    }
    expect(existsSync(audit)).toBe(true);
  });
});
