import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxSession, type SandboxSession } from '../helpers/sandbox.js';
import { json } from './helpers.js';

/** subaccounts use by name: the sandbox's sub-accounts, chosen by a name typed as a person would. */
let s: SandboxSession;
beforeAll(async () => {
  s = await startSandboxSession('acme');
});
afterAll(() => s?.close());

const activeSubaccount = async () => (await json<{ subaccount: string | null }>(s, ['auth', 'status'])).subaccount;

describe('subaccounts use NAME', () => {
  it('takes the one sub-account of that name, in any case and without accents; refuses an unknown name naming the known ones', async () => {
    const subaccounts = await json<Array<{ id: string; name: string }>>(s, ['subaccounts', 'list']);
    const unique = subaccounts.find((one) => subaccounts.filter((other) => other.name === one.name).length === 1)!;
    expect(unique, JSON.stringify(subaccounts)).toBeDefined();
    const typed = unique.name.toUpperCase().normalize('NFD').replace(/\p{M}/gu, '');
    const used = await s.run(['subaccounts', 'use', typed]);
    expect(used.code, used.stderr).toBe(0);
    expect(await activeSubaccount()).toBe(unique.id);
    expect(used.stderr).toContain(unique.id);

    expect((await s.run(['subaccounts', 'clear'])).code).toBe(0);
    const unknown = await s.run(['subaccounts', 'use', 'No Such Store Anywhere']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no sub-account payctl can list is named "No Such Store Anywhere"');
    expect(unknown.stderr).toContain(unique.name);
    expect(await activeSubaccount()).toBeNull();
  });
});
