import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInProcess } from '../helpers/in-process.js';
import { startSandboxSession, type SandboxSession } from '../helpers/sandbox.js';

/** Where the API's own word differs from payctl's, both spellings run the same command. */
let s: SandboxSession;
beforeAll(async () => {
  s = await startSandboxSession('acme');
});
afterAll(() => s?.close());

describe('aliases', () => {
  it('payctl subscriptions is payctl subs: the same output', async () => {
    const long = await s.run(['subs', 'list', '--json']);
    expect(long.code, long.stderr).toBe(0);
    const alias = await s.run(['subscriptions', 'list', '--json']);
    expect(alias).toMatchObject({ code: 0, stdout: long.stdout });
    expect(JSON.parse(alias.stdout)).not.toEqual([]);
  });

  it('payctl logout and login are payctl auth logout and auth login', async () => {
    const logout = await s.run(['logout']);
    expect(logout.code, logout.stderr).toBe(0);
    expect(logout.stderr + logout.stdout).toContain('logged out of profile default');
    const after = await s.run(['auth', 'status', '--json']);
    expect(after.code).toBe(3);
    // Without a terminal, login names what it needs as auth login does.
    const [alias, long] = await Promise.all([s.run(['login']), s.run(['auth', 'login'])]);
    expect(alias.code).toBe(2);
    expect(alias).toMatchObject({ code: long.code, stdout: long.stdout, stderr: long.stderr });
  });

  it('are listed in help, saying what they stand for, and suggested', async () => {
    const help = (await runInProcess(['--help'])).stdout.replace(/\s+/g, ' ');
    expect(help).toContain('subscriptions Same as payctl subs:');
    expect(help).toContain('login Same as payctl auth login:');
    expect(help).toContain('logout Same as payctl auth logout:');
    expect((await runInProcess(['subscription'])).stderr).toContain('Did you mean subscriptions?');
    for (const shell of ['bash', 'zsh', 'fish']) {
      const script = (await runInProcess(['completion', shell])).stdout;
      for (const name of ['subscriptions', 'login', 'logout']) expect(script, `${shell} completes ${name}`).toMatch(new RegExp(`\\b${name}\\b`));
    }
  });
});
