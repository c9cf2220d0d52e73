import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempConfigDir, type RunResult } from '../helpers/cli.js';
import { closedPort } from '../helpers/fake-api.js';
import type { BankAccountListResponse, CustomerListResponse } from '../../src/api/types.js';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import { startForwardProxy, type ForwardProxy, type ForwardProxyOptions } from './forward-proxy.js';
import { sandboxRequest, sandboxToken, withdrawalCount } from './sandbox-api.js';

/**
 * payctl behind a company's proxy: real requests through a forward proxy on
 * 127.0.0.1 to a sandbox over http and, tunnelled with CONNECT, to one started
 * with --tls. The proxy's record says which requests went through it; the
 * sandbox's own API says what moved.
 */

let plain: RunningSandbox;
let secure: RunningSandbox;
let plainToken: string;
let secureToken: string;
const proxies: ForwardProxy[] = [];

beforeAll(async () => {
  [plain, secure] = await Promise.all([startSandbox({ port: 0 }), startSandbox({ port: 0, tls: true })]);
  [plainToken, secureToken] = await Promise.all([sandboxToken(plain), sandboxToken(secure)]);
});
afterAll(async () => {
  await Promise.all([plain?.close(), secure?.close()]);
});
afterEach(async () => {
  await Promise.all(proxies.splice(0).map((proxy) => proxy.close()));
});

async function proxy(options: ForwardProxyOptions = {}): Promise<ForwardProxy> {
  const started = await startForwardProxy(options);
  proxies.push(started);
  return started;
}

/** payctl against a sandbox, logged in by token, with the given proxy variables. */
function payctl(sandbox: RunningSandbox, args: string[], env: Record<string, string> = {}, input?: string): Promise<RunResult> {
  return runCli(args, {
    env: {
      PAYCTL_CONFIG_DIR: tempConfigDir(),
      PAYCTL_BASE_URL: sandbox.url,
      PAYCTL_TOKEN: sandbox === secure ? secureToken : plainToken,
      ...(sandbox.caFile ? { NODE_EXTRA_CA_CERTS: sandbox.caFile } : {}),
      ...env,
    },
    input,
  });
}

const hostOf = (sandbox: RunningSandbox) => new URL(sandbox.url).host;

/** A withdrawal payctl can make in acme's main account: its first bank account, and money enough. */
async function withdrawArgs(sandbox: RunningSandbox, token: string): Promise<string[]> {
  await sandboxRequest(sandbox, 'POST', '/sandbox/balance', { token, body: { pix: 100_000 } });
  const accounts = await sandboxRequest<BankAccountListResponse>(sandbox, 'GET', '/bank_accounts?page=1&limit=1', { token });
  const account = accounts.body.data[0]!.id;
  return ['withdraw', 'pix', '--amount', '1234', '--bank-account', String(account), '--pix-key-type', 'email', '--pix-key', `proxy-${Date.now()}@example.com`, '--yes'];
}

describe('HTTP_PROXY and HTTPS_PROXY', () => {
  it('HTTP_PROXY carries http requests: the proxy sees each one, a withdrawal moves once', async () => {
    const forward = await proxy();
    const env = { HTTP_PROXY: forward.url };
    const balance = await payctl(plain, ['balance', '--json'], env);
    expect(balance.code, balance.stderr).toBe(0);
    expect(JSON.parse(balance.stdout)).toHaveProperty('disponiblePixBalance');
    expect(forward.records).toContainEqual(expect.objectContaining({ kind: 'HTTP', method: 'GET', target: `${plain.url}/withdrawals/balance` }));

    const before = await withdrawalCount(plain, plainToken);
    const withdrawal = await payctl(plain, await withdrawArgs(plain, plainToken), env);
    expect(withdrawal.code, withdrawal.stderr).toBe(0);
    expect(await withdrawalCount(plain, plainToken)).toBe(before + 1);
    expect(forward.records.filter((r) => r.method === 'POST' && r.target === `${plain.url}/withdrawals/withdraw`)).toHaveLength(1);
  });

  it('HTTPS_PROXY tunnels https with CONNECT to sandbox start --tls, trusted through NODE_EXTRA_CA_CERTS', async () => {
    const forward = await proxy();
    const env = { HTTPS_PROXY: forward.url };
    const login = await runCli(['auth', 'login', '--client-id', 'acme', '--client-secret-stdin'], {
      env: { PAYCTL_CONFIG_DIR: tempConfigDir(), PAYCTL_BASE_URL: secure.url, NODE_EXTRA_CA_CERTS: secure.caFile!, ...env },
      input: 'acme-sandbox-secret\n',
    });
    expect(login.code, login.stderr).toBe(0);
    const before = await withdrawalCount(secure, secureToken);
    const withdrawal = await payctl(secure, await withdrawArgs(secure, secureToken), env);
    expect(withdrawal.code, withdrawal.stderr).toBe(0);
    expect(await withdrawalCount(secure, secureToken)).toBe(before + 1);
    // Every request went through a tunnel: the proxy saw where to, never what.
    expect(forward.records.filter((r) => r.kind === 'CONNECT' && r.target === hostOf(secure)).length).toBeGreaterThanOrEqual(2);
    expect(forward.records.filter((r) => r.kind === 'HTTP')).toEqual([]);
  });

  it('an export (--all into a pipe) goes through the proxy too, every page', async () => {
    const forward = await proxy();
    const result = await payctl(secure, ['customers', 'list', '--all', '-o', 'ndjson'], { HTTPS_PROXY: forward.url });
    expect(result.code, result.stderr).toBe(0);
    const total = (await sandboxRequest<CustomerListResponse>(secure, 'GET', '/customers?page=1&limit=1', { token: secureToken })).body.meta.total;
    expect(result.stdout.trim().split('\n')).toHaveLength(total);
    expect(forward.records.length).toBeGreaterThan(0);
    expect(forward.records.every((r) => r.kind === 'CONNECT' && r.target === hostOf(secure))).toBe(true);
  });

  it('lower-case https_proxy and http_proxy are honoured', async () => {
    const forward = await proxy();
    const overTls = await payctl(secure, ['balance'], { https_proxy: forward.url });
    expect(overTls.code, overTls.stderr).toBe(0);
    const overHttp = await payctl(plain, ['balance'], { http_proxy: forward.url });
    expect(overHttp.code, overHttp.stderr).toBe(0);
    expect(forward.records.map((r) => r.kind)).toEqual(['CONNECT', 'HTTP']);
  });

  it('HTTPS_PROXY is not used for http, nor HTTP_PROXY for https', async () => {
    const forward = await proxy();
    expect((await payctl(plain, ['balance'], { HTTPS_PROXY: forward.url })).code).toBe(0);
    expect((await payctl(secure, ['balance'], { HTTP_PROXY: forward.url })).code).toBe(0);
    expect(forward.records).toEqual([]);
  });
});

describe('NO_PROXY', () => {
  it('an exact host, a host:port, * and the lower-case no_proxy go direct; another port goes through the proxy', async () => {
    const forward = await proxy();
    const { hostname, port } = new URL(plain.url);
    const cases: Array<[Record<string, string>, boolean]> = [
      [{ NO_PROXY: hostname }, false],
      [{ NO_PROXY: `example.com, ${hostname}:${port}` }, false],
      [{ NO_PROXY: '*' }, false],
      [{ no_proxy: hostname }, false],
      [{ NO_PROXY: `${hostname}:${Number(port) + 1}` }, true],
      [{ NO_PROXY: 'example.com' }, true],
    ];
    for (const [noProxy, proxied] of cases) {
      const seen = forward.records.length;
      const result = await payctl(plain, ['balance'], { HTTP_PROXY: forward.url, ...noProxy });
      expect(result.code, `${JSON.stringify(noProxy)}: ${result.stderr}`).toBe(0);
      expect(forward.records.length - seen, JSON.stringify(noProxy)).toBe(proxied ? 1 : 0);
    }
  });

  it('a .domain entry sends its hosts direct: a name only the proxy knows then cannot be resolved', async () => {
    const forward = await proxy({ hosts: { 'api.payctl.test': '127.0.0.1' } });
    const baseUrl = `http://api.payctl.test:${new URL(plain.url).port}`;
    const throughProxy = await payctl(plain, ['balance'], { PAYCTL_BASE_URL: baseUrl, HTTP_PROXY: forward.url });
    expect(throughProxy.code, throughProxy.stderr).toBe(0);
    expect(forward.records).toEqual([expect.objectContaining({ kind: 'HTTP', target: `${baseUrl}/withdrawals/balance` })]);

    const direct = await payctl(plain, ['balance'], { PAYCTL_BASE_URL: baseUrl, HTTP_PROXY: forward.url, NO_PROXY: '.payctl.test' });
    expect(direct.code).toBe(4);
    expect(direct.stderr).toContain('error: could not resolve api.payctl.test');
    expect(forward.records).toHaveLength(1);
  });
});

describe('proxy credentials and failures', () => {
  const password = 'pr0xy-S3cret-pass';
  const secretForms = [password, encodeURIComponent(password), Buffer.from(`ana:${password}`).toString('base64')];

  it('credentials in the proxy URL are sent to the proxy and never shown, --debug included', async () => {
    const forward = await proxy({ credentials: `ana:${password}` });
    const proxyUrl = `http://ana:${password}@127.0.0.1:${forward.port}`;
    const overTls = await payctl(secure, ['balance', '--debug'], { HTTPS_PROXY: proxyUrl });
    const overHttp = await payctl(plain, ['balance', '--debug'], { HTTP_PROXY: proxyUrl });
    for (const result of [overTls, overHttp]) {
      expect(result.code, result.stderr).toBe(0);
      for (const secret of secretForms) expect(`${result.stdout}${result.stderr}`).not.toContain(secret);
    }
    expect(forward.records.map((r) => [r.kind, r.credentials])).toEqual([
      ['CONNECT', `ana:${password}`],
      ['HTTP', `ana:${password}`],
    ]);
  });

  it('credentials the proxy refuses (407, over https and http): exit 4 even for a POST, the proxy named without its password, the variable in the hint', async () => {
    const forward = await proxy({ credentials: 'ana:another-password' });
    const result = await payctl(secure, ['balance'], { HTTPS_PROXY: `http://ana:${password}@127.0.0.1:${forward.port}` });
    expect(result.code).toBe(4);
    expect(result.stderr).toContain(`error: the proxy http://***@127.0.0.1:${forward.port} (HTTPS_PROXY) refused to connect to ${hostOf(secure)}: HTTP 407`);
    expect(result.stderr).toMatch(/^hint: nothing was sent; check the proxy in HTTPS_PROXY, or add 127\.0\.0\.1 to NO_PROXY/m);
    for (const secret of secretForms) expect(`${result.stdout}${result.stderr}`).not.toContain(secret);

    // Over http the proxy answers the request itself: its 407 forwarded nothing, so even a POST is exit 4.
    const balanceBefore = await sandboxRequest(plain, 'GET', '/withdrawals/balance', { token: plainToken });
    const credit = await payctl(plain, ['sandbox', 'credit', '--pix', '5000'], { HTTP_PROXY: `http://ana:${password}@127.0.0.1:${forward.port}` });
    expect(credit.code).toBe(4);
    expect(credit.stderr).toContain(`error: the proxy http://***@127.0.0.1:${forward.port} (HTTP_PROXY) refused to connect to ${hostOf(plain)}: HTTP 407 Proxy Authentication Required`);
    expect((await sandboxRequest(plain, 'GET', '/withdrawals/balance', { token: plainToken })).body).toEqual(balanceBefore.body);
    for (const secret of secretForms) expect(`${credit.stdout}${credit.stderr}`).not.toContain(secret);
  });

  it('a proxy that refuses CONNECT: exit 4 even for a POST, and nothing moved', async () => {
    const forward = await proxy({ refuseConnect: 403 });
    const balanceBefore = await sandboxRequest(secure, 'GET', '/withdrawals/balance', { token: secureToken });
    const credit = await payctl(secure, ['sandbox', 'credit', '--pix', '5000'], { HTTPS_PROXY: forward.url });
    expect(credit.code).toBe(4);
    expect(credit.stderr).toContain(`(HTTPS_PROXY) refused to connect to ${hostOf(secure)}: HTTP 403 Forbidden`);
    expect(credit.stderr).not.toMatch(/outcome is unknown|unexpected failure/);
    expect((await sandboxRequest(secure, 'GET', '/withdrawals/balance', { token: secureToken })).body).toEqual(balanceBefore.body);

    const before = await withdrawalCount(secure, secureToken);
    const withdrawal = await payctl(secure, await withdrawArgs(secure, secureToken), { HTTPS_PROXY: forward.url });
    expect(withdrawal.code).toBe(4);
    expect(await withdrawalCount(secure, secureToken)).toBe(before);
    expect(forward.records.every((r) => r.kind === 'CONNECT')).toBe(true);
    expect(forward.records.length).toBeGreaterThan(0);
  });

  it('an unreachable proxy: exit 4 naming the proxy and its variable', async () => {
    const port = await closedPort();
    const result = await payctl(plain, ['balance'], { http_proxy: `http://127.0.0.1:${port}` });
    expect(result.code).toBe(4);
    expect(result.stderr).toContain(`error: could not connect to the proxy http://127.0.0.1:${port} (http_proxy): connection refused`);
    expect(result.stderr).toContain('hint: nothing was sent; check the proxy in http_proxy');
  });

  it('a proxy variable payctl cannot use: exit 4 naming it, its value (which may hold a password) not quoted', async () => {
    const notUrl = await payctl(plain, ['balance'], { HTTP_PROXY: `http://ana:${password}@[proxy` });
    expect(notUrl.code).toBe(4);
    expect(notUrl.stderr).toContain('error: HTTP_PROXY is not a URL payctl can use');
    expect(notUrl.stderr).not.toContain(password);
    const socks = await payctl(secure, ['balance'], { HTTPS_PROXY: 'socks5://127.0.0.1:1080' });
    expect(socks.code).toBe(4);
    expect(socks.stderr).toContain('error: HTTPS_PROXY names a socks5 proxy; payctl speaks to http and https proxies');
  });
});
