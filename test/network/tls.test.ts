import { spawn, type ChildProcess } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, cleanEnv, runCli, tempConfigDir } from '../helpers/cli.js';
import { sandboxRequest, sandboxToken, withdrawalCount } from './sandbox-api.js';
import type { BankAccountListResponse, WithdrawalListResponse } from '../../src/api/types.js';
import type { RunningSandbox } from '../../src/sandbox/server.js';

/**
 * `payctl sandbox start --tls` as a user runs it: https with a certificate it
 * makes, the authority's file printed with the NODE_EXTRA_CA_CERTS line to use.
 * Without that line payctl refuses the certificate before sending anything; with
 * it, commands work and money moves once.
 */

let child: ChildProcess;
let stdout = '';
let url: string;
let caFile: string;
/** The running sandbox as the direct API helpers see it. */
let sandbox: RunningSandbox;
let token: string;

beforeAll(async () => {
  child = spawn(process.execPath, [BIN, 'sandbox', 'start', '--port', '0', '--tls'], { env: cleanEnv({ PAYCTL_CONFIG_DIR: tempConfigDir() }), stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.setEncoding('utf8');
  while (!/credentials \(sandbox only\):\n(.+\n){2}/.test(stdout)) {
    const [chunk] = (await Promise.race([once(child.stdout!, 'data'), once(child, 'exit').then(() => [''])])) as [string];
    if (chunk === '') throw new Error(`sandbox start --tls stopped: ${stdout}`);
    stdout += chunk;
  }
  url = /^listening on (\S+)$/m.exec(stdout)![1]!;
  caFile = /^ca file: (\S+)$/m.exec(stdout)![1]!;
  sandbox = { url, caFile, credentials: [{ company: 'acme', clientId: 'acme', clientSecret: 'acme-sandbox-secret' }] } as RunningSandbox;
  token = await sandboxToken(sandbox);
});

afterAll(async () => {
  if (child.exitCode === null) {
    child.kill('SIGINT');
    await once(child, 'exit');
  }
});

const run = (args: string[], env: Record<string, string>, input?: string) =>
  runCli(args, { env: { PAYCTL_CONFIG_DIR: tempConfigDir(), PAYCTL_BASE_URL: url, ...env }, input });

describe('sandbox start --tls', () => {
  it('serves https and prints the file of the authority to trust, and the NODE_EXTRA_CA_CERTS line', () => {
    expect(url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(stdout).toContain(`\nNODE_EXTRA_CA_CERTS=${caFile}\n`);
    const authority = new X509Certificate(readFileSync(caFile));
    expect(authority.ca).toBe(true);
  });

  it('without NODE_EXTRA_CA_CERTS the certificate is refused: exit 4, the hint names NODE_EXTRA_CA_CERTS, nothing sent (a login or a withdrawal)', async () => {
    const login = await run(['auth', 'login', '--client-id', 'acme', '--client-secret-stdin'], {}, 'acme-sandbox-secret\n');
    expect(login.code).toBe(4);
    expect(login.stderr).toMatch(/^error: the TLS certificate of 127\.0\.0\.1:\d+ was refused/m);
    expect(login.stderr).toMatch(/^hint: nothing was sent\..*NODE_EXTRA_CA_CERTS=/m);

    const before = await withdrawalCount(sandbox, token);
    const accounts = await sandboxRequest<BankAccountListResponse>(sandbox, 'GET', '/bank_accounts?page=1&limit=1', { token });
    const withdrawal = await run(
      ['withdraw', 'pix', '--amount', '1500', '--bank-account', String(accounts.body.data[0]!.id), '--pix-key-type', 'email', '--pix-key', 'tls-refused@example.com', '--yes'],
      { PAYCTL_TOKEN: token },
    );
    expect(withdrawal.code).toBe(4);
    expect(withdrawal.stderr).toContain('NODE_EXTRA_CA_CERTS');
    expect(await withdrawalCount(sandbox, token)).toBe(before);
  });

  it('with NODE_EXTRA_CA_CERTS from its output, commands work and a withdrawal moves once', async () => {
    const trust = { NODE_EXTRA_CA_CERTS: caFile };
    const configDir = tempConfigDir();
    const login = await runCli(['auth', 'login', '--client-id', 'acme', '--client-secret-stdin'], { env: { PAYCTL_CONFIG_DIR: configDir, PAYCTL_BASE_URL: url, ...trust }, input: 'acme-sandbox-secret\n' });
    expect(login.code, login.stderr).toBe(0);
    await sandboxRequest(sandbox, 'POST', '/sandbox/balance', { token, body: { pix: 10_000 } });
    const accounts = await sandboxRequest<BankAccountListResponse>(sandbox, 'GET', '/bank_accounts?page=1&limit=1', { token });
    const before = await withdrawalCount(sandbox, token);
    const withdrawal = await runCli(
      ['withdraw', 'pix', '--amount', '1500', '--bank-account', String(accounts.body.data[0]!.id), '--pix-key-type', 'email', '--pix-key', 'tls-trusted@example.com', '--yes', '--json'],
      { env: { PAYCTL_CONFIG_DIR: configDir, PAYCTL_BASE_URL: url, ...trust } },
    );
    expect(withdrawal.code, withdrawal.stderr).toBe(0);
    expect(await withdrawalCount(sandbox, token)).toBe(before + 1);
    const listed = await sandboxRequest<WithdrawalListResponse>(sandbox, 'GET', '/withdrawals?page=1&limit=100', { token });
    expect(listed.body.data.filter((w: { pixKey?: string }) => w.pixKey === 'tls-trusted@example.com')).toHaveLength(1);
  });

  it('removes the authority\'s file when it stops', async () => {
    expect(existsSync(caFile)).toBe(true);
    child.kill('SIGINT');
    const [code] = await once(child, 'exit');
    expect(code).toBe(0);
    expect(existsSync(caFile)).toBe(false);
  });
});
