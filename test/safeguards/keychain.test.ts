import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempConfigDir, type RunResult } from '../helpers/cli.js';
import { runInProcess } from '../helpers/in-process.js';
import { startSecretService, startSilentBus, type SecretService } from '../helpers/secret-service.js';
import { hasTools, needsTools, type Tool } from '../helpers/tools.js';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';

/**
 * The token in the system keychain, against a real Secret Service (gnome-keyring
 * on a D-Bus session), and the fallback to the config file when there is no
 * D-Bus session or it never answers. What the keychain holds is read with
 * secret-tool, not through payctl.
 */

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
});
afterAll(() => sandbox?.close());

const secret = () => sandbox.credentials.find((c) => c.clientId === 'acme')!.clientSecret;

function payctl(configDir: string, extraEnv: Record<string, string | undefined>) {
  const env = { PAYCTL_CONFIG_DIR: configDir, PAYCTL_BASE_URL: sandbox.url, ...extraEnv };
  return {
    run: (args: string[], input?: string): Promise<RunResult> => runInProcess(args, { env, input }),
    login: () => runInProcess(['auth', 'login', '--client-id', 'acme', '--client-secret-stdin'], { env, input: `${secret()}\n` }),
  };
}

const configText = (dir: string) => readFileSync(path.join(dir, 'config.json'), 'utf8');
const profileOf = (dir: string) => JSON.parse(configText(dir)).profiles.default as Record<string, unknown>;
const ok = (result: RunResult) => {
  expect(result.code, result.stderr).toBe(0);
  return result;
};

const keychainTools: Tool[] = ['dbus-daemon', 'dbus-send', 'gnome-keyring-daemon', 'secret-tool'];
/** Skipped with a line naming the missing tools on a machine without them; a failure in CI. */
const keychainIt = needsTools(...keychainTools);

describe('the token in the Secret Service', () => {
  let service: SecretService;
  beforeAll(async () => {
    if (hasTools(...keychainTools)) service = await startSecretService();
  });
  afterAll(() => service?.close());

  /** What the keychain holds for a profile of a config folder, read by secret-tool: '' when nothing. */
  const inKeychain = (configDir: string) =>
    spawnSync('secret-tool', ['lookup', 'service', 'payctl', 'username', `default (${configDir})`], {
      env: { PATH: process.env.PATH, DBUS_SESSION_BUS_ADDRESS: service.address },
      encoding: 'utf8',
    }).stdout;

  keychainIt('login stores it there and not in the config file; status says so; logout removes it', async () => {
    const dir = tempConfigDir();
    const cli = payctl(dir, { DBUS_SESSION_BUS_ADDRESS: service.address });
    ok(await cli.run(['profiles', 'set', 'default', '--token-store', 'keychain']));
    const login = ok(await cli.login());
    expect(login.stderr).toContain('the token is kept in the keychain');
    expect(login.stderr).not.toContain('warning');
    const token = inKeychain(dir);
    expect(token).toMatch(/^ey[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(configText(dir)).not.toContain(token);
    expect(profileOf(dir)).toMatchObject({ tokenStore: 'keychain', tokenInKeychain: true });
    expect(profileOf(dir)).not.toHaveProperty('token');

    const status = JSON.parse(ok(await cli.run(['auth', 'status', '--json'])).stdout);
    expect(status).toMatchObject({ loggedIn: true, tokenStore: 'keychain', tokenStoreSetting: 'keychain' });
    expect(JSON.parse(ok(await cli.run(['status', '--json'])).stdout)).toMatchObject({ tokenStore: 'keychain', tokenUsable: true });
    expect(JSON.parse(ok(await cli.run(['balance', '--json'])).stdout)).toHaveProperty('disponiblePixBalance');

    ok(await cli.run(['auth', 'logout']));
    expect(inKeychain(dir)).toBe('');
    expect(profileOf(dir)).not.toHaveProperty('tokenInKeychain');
    expect((await cli.run(['auth', 'status'])).code).toBe(3);
  });

  keychainIt('a keychain helper that is slow to start, as on a busy machine, is waited for: the 3 s are the keychain\'s', async () => {
    // Every Node process started with `-e` (the keychain's helper) sleeps 4 s before it runs.
    const slowStart = path.join(tempConfigDir(), 'slow-start.cjs');
    writeFileSync(slowStart, "if (process.execArgv.includes('-e')) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 4000);\n");
    const dir = tempConfigDir();
    ok(await payctl(dir, {}).run(['profiles', 'set', 'default', '--token-store', 'keychain']));
    const env = { PAYCTL_CONFIG_DIR: dir, PAYCTL_BASE_URL: sandbox.url, DBUS_SESSION_BUS_ADDRESS: service.address, NODE_OPTIONS: `--require ${slowStart}` };
    const login = ok(await runCli(['auth', 'login', '--client-id', 'acme', '--client-secret-stdin'], { env, input: `${secret()}\n` }));
    expect(login.stderr).not.toContain('warning');
    expect(inKeychain(dir)).toMatch(/^ey[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(profileOf(dir)).not.toHaveProperty('token');
  });

  keychainIt('switching the store moves the token each way and leaves no copy behind', async () => {
    const dir = tempConfigDir();
    const cli = payctl(dir, { DBUS_SESSION_BUS_ADDRESS: service.address });
    ok(await cli.login());
    const token = profileOf(dir).token as string;
    expect(inKeychain(dir)).toBe('');

    expect(ok(await cli.run(['profiles', 'set', 'default', '--token-store', 'keychain'])).stderr).toContain('keeps its token in the keychain now');
    expect(inKeychain(dir)).toBe(token);
    expect(configText(dir)).not.toContain(token);

    expect(ok(await cli.run(['profiles', 'set', 'default', '--token-store', 'file'])).stderr).toContain('keeps its token in the config file now');
    expect(inKeychain(dir)).toBe('');
    expect(profileOf(dir)).toMatchObject({ token });
    expect(JSON.parse(ok(await cli.run(['profiles', 'show', '--json'])).stdout)).toMatchObject({ tokenStore: 'file', loggedIn: true });
    expect(JSON.parse(ok(await cli.run(['balance', '--json'])).stdout)).toHaveProperty('disponiblePixBalance');
  });

  keychainIt('PAYCTL_TOKEN overrides the keychain', async () => {
    const dir = tempConfigDir();
    const cli = payctl(dir, { DBUS_SESSION_BUS_ADDRESS: service.address });
    ok(await cli.run(['profiles', 'set', 'default', '--token-store', 'keychain']));
    ok(await cli.login());
    const result = await runInProcess(['auth', 'status', '--json'], {
      env: { PAYCTL_CONFIG_DIR: dir, PAYCTL_BASE_URL: sandbox.url, DBUS_SESSION_BUS_ADDRESS: service.address, PAYCTL_TOKEN: 'opaque-token-from-a-vault' },
    });
    expect(JSON.parse(ok(result).stdout)).toMatchObject({ tokenStore: 'env', tokenSource: 'env' });
  });

  keychainIt('profiles remove deletes the keychain entry', async () => {
    const dir = tempConfigDir();
    const cli = payctl(dir, { DBUS_SESSION_BUS_ADDRESS: service.address });
    ok(await cli.run(['profiles', 'set', 'default', '--token-store', 'keychain']));
    ok(await cli.login());
    expect(inKeychain(dir)).not.toBe('');
    ok(await cli.run(['profiles', 'remove', 'default']));
    expect(inKeychain(dir)).toBe('');
  });
});

describe('a keychain that cannot be used means the config file, with a warning', () => {
  it('no D-Bus session (a headless server): the token goes to the file at once', async () => {
    const dir = tempConfigDir();
    const cli = payctl(dir, { DBUS_SESSION_BUS_ADDRESS: undefined });
    ok(await cli.run(['profiles', 'set', 'default', '--token-store', 'keychain']));
    const login = ok(await cli.login());
    const warnings = login.stderr.split('\n').filter((line) => line.startsWith('warning:'));
    expect(warnings).toHaveLength(1);
    // It says why. The 3 s count from the helper being ready to ask, so a busy machine does not turn this into "did not answer".
    expect(warnings[0]).toMatch(/^warning: the system keychain \(Secret Service\) cannot be used: .*; the token is kept in the config file$/);
    expect(profileOf(dir)).toMatchObject({ tokenStore: 'keychain' });
    expect(typeof profileOf(dir).token).toBe('string');
    expect(JSON.parse(ok(await cli.run(['auth', 'status', '--json'])).stdout)).toMatchObject({ loggedIn: true, tokenStore: 'file', tokenStoreSetting: 'keychain' });
    expect(JSON.parse(ok(await cli.run(['balance', '--json'])).stdout)).toHaveProperty('disponiblePixBalance');
  });

  it('a D-Bus session that never answers: given up after about 3 s, then the file', async () => {
    const bus = await startSilentBus();
    try {
      const dir = tempConfigDir();
      const cli = payctl(dir, { DBUS_SESSION_BUS_ADDRESS: bus.address });
      ok(await cli.run(['profiles', 'set', 'default', '--token-store', 'keychain']));
      const login = ok(await cli.login());
      expect(login.stderr).toContain('warning: the system keychain (Secret Service) did not answer within 3 s; the token is kept in the config file');
      expect(typeof profileOf(dir).token).toBe('string');
      expect(profileOf(dir)).not.toHaveProperty('tokenInKeychain');
    } finally {
      await bus.close();
    }
  });
});
