import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxSession, type SandboxSession } from '../helpers/sandbox.js';
import { json } from './helpers.js';

/**
 * A sub-account by the first 8 characters of its id, as a table at 80 columns shows it:
 * `--subaccount` and `subaccounts use` take them when they begin exactly one id payctl
 * has shown in this profile (else exit 2, nothing sent); `status` names the sub-account
 * it runs in where payctl knows the name.
 */
let s: SandboxSession;
let subaccounts: Array<{ id: string; name: string }>;
beforeAll(async () => {
  s = await startSandboxSession('acme');
  // A table shows the sub-accounts' ids (so they are remembered) and teaches payctl their names.
  const table = await s.run(['subaccounts', 'list', '-o', 'table']);
  expect(table.code, table.stderr).toBe(0);
  subaccounts = await json(s, ['subaccounts', 'list']);
});
afterAll(() => s?.close());

const activeSubaccount = async () => (await json<{ subaccount: string | null }>(s, ['auth', 'status'])).subaccount;

describe('a sub-account by the first 8 characters of its id', () => {
  it('--subaccount takes them: status runs in that sub-account and names it', async () => {
    const sub = subaccounts[0]!;
    const status = await json<{ subaccount: string; subaccountName: string | null }>(s, ['status', '--subaccount', sub.id.slice(0, 8)]);
    expect(status).toMatchObject({ subaccount: sub.id, subaccountName: sub.name });
    const byPrefix = await s.run(['balance', '--subaccount', sub.id.slice(0, 8), '--json']);
    const byId = await s.run(['balance', '--subaccount', sub.id, '--json']);
    expect(byPrefix.code, byPrefix.stderr).toBe(0);
    expect(byPrefix.stdout).toBe(byId.stdout);
  });

  it('subaccounts use takes them too', async () => {
    const sub = subaccounts[1]!;
    const used = await s.run(['subaccounts', 'use', sub.id.slice(0, 8)]);
    expect(used.code, used.stderr).toBe(0);
    expect(await activeSubaccount()).toBe(sub.id);
    expect((await s.run(['subaccounts', 'clear'])).code).toBe(0);
  });

  it('one that begins no id payctl has shown, or two, is exit 2 saying so; the account in use is not changed', async () => {
    const unknown = await s.run(['status', '--subaccount', 'abcdef12', '--json']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('--subaccount \\"abcdef12\\" is unknown: no id payctl has shown in profile \\"default\\" begins with it; give the full id');
    expect(unknown.stdout).toBe('');

    const sub = subaccounts[2]!;
    const twin = `${sub.id.slice(0, 8)}-0000-4000-8000-000000000000`;
    const file = path.join(s.configDir, 'shown-ids.json');
    const shown = JSON.parse(readFileSync(file, 'utf8')) as Record<string, Record<string, string>>;
    writeFileSync(file, JSON.stringify({ ...shown, default: { ...shown.default, [twin]: 'withdrawal' } }));
    const ambiguous = await s.run(['balance', '--subaccount', sub.id.slice(0, 8)]);
    expect(ambiguous.code).toBe(2);
    expect(ambiguous.stderr).toContain(`--subaccount "${sub.id.slice(0, 8)}" is ambiguous`);
    expect(ambiguous.stderr).toContain(`${twin} (withdrawal)`);
    const notUsed = await s.run(['subaccounts', 'use', sub.id.slice(0, 8)]);
    expect(notUsed.code).toBe(2);
    expect(notUsed.stderr).toContain('is ambiguous');
    expect(await activeSubaccount()).toBeNull();
  });
});
