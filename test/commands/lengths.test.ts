import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshFetch } from '../helpers/fresh-fetch.js';
import { sandboxToken, startSandboxSession, type SandboxSession } from '../helpers/sandbox.js';

/**
 * A length limit is counted as the API counts it: in code points (JSON Schema's
 * `maxLength`, as the sandbox checks it), not in UTF-16 units. A value refused is quoted
 * in the error by whole grapheme clusters: no emoji cut in half.
 */

const FAMILY = '👨‍👩‍👧‍👦';

let s: SandboxSession;
let customerId: string;
beforeAll(async () => {
  s = await startSandboxSession('acme');
  const [customer] = JSON.parse((await s.run(['customers', 'list', '--limit', '1', '--json'])).stdout) as Array<{ id: string }>;
  customerId = customer!.id;
});
afterAll(() => s?.close());

/** The customer's first name as the sandbox holds it. */
async function storedFirstName(): Promise<string> {
  const response = await freshFetch(`${s.sandbox.url}/customers/${customerId}`, { headers: { authorization: `Bearer ${await sandboxToken(s)}` } });
  return ((await response.json()) as { data: { firstName: string } }).data.firstName;
}

describe('lengths as the API counts them', () => {
  it('a first name of 60 🦄 (60 code points, 120 UTF-16 units) is sent and kept; 61 is refused before sending, as the API refuses it', async () => {
    const sixty = '🦄'.repeat(60);
    const sent = await s.run(['customers', 'update', customerId, '--first-name', sixty]);
    expect(sent.code, sent.stderr).toBe(0);
    expect(await storedFirstName()).toBe(sixty);

    const refused = await s.run(['customers', 'update', customerId, '--first-name', '🦄'.repeat(61)]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/--first-name ".*" is invalid: must be at most 60 characters/);
    expect(await storedFirstName()).toBe(sixty);
    // The API counts the same way: 61 is refused there too.
    const direct = await s.run(['api', 'PUT', `/customers/${customerId}`, '--data', JSON.stringify({ firstName: '🦄'.repeat(61) })]);
    expect(direct.code, direct.stdout).not.toBe(0);
    expect(await storedFirstName()).toBe(sixty);
  });

  it('an error quoting a value too long cuts it between grapheme clusters: no half emoji, no lone surrogate', async () => {
    const refused = await s.run(['customers', 'update', customerId, '--first-name', FAMILY.repeat(61)]);
    expect(refused.code).toBe(2);
    const quoted = /--first-name "(.*)" is invalid/.exec(refused.stderr)?.[1];
    expect(quoted, refused.stderr).toBe(`${FAMILY.repeat(57)}...`);
    expect(refused.stderr).not.toMatch(/\\ud[89a-f]/i);
  });
});
