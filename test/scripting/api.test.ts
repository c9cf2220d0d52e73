import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempConfigDir } from '../helpers/cli.js';
import { runInProcess } from '../helpers/in-process.js';
import { startFakeApi } from '../helpers/fake-api.js';
import { startSandboxSession, type SandboxSession } from '../helpers/sandbox.js';

let session: SandboxSession;
beforeAll(async () => {
  session = await startSandboxSession('acme');
});
afterAll(() => session?.close());

const json = <T = unknown>(stdout: string) => JSON.parse(stdout) as T;

describe.concurrent('payctl api', () => {
  it('GET prints the data of the answer; --query and a query in the path are sent', async () => {
    const result = await session.run(['api', 'GET', '/customers?page=2', '--query', 'limit=3']);
    expect(result.code, result.stderr).toBe(0);
    const viaList = await session.run(['customers', 'list', '--page', '2', '--limit', '3', '--json']);
    expect(json(result.stdout)).toEqual(json(viaList.stdout));
  });

  it('GET --envelope prints the whole body; -o ndjson one item a line', async () => {
    const envelope = json<{ meta: unknown; data: Array<{ id: string }> }>(
      (await session.run(['api', 'GET', '/customers', '--query', 'limit=2', '--envelope'])).stdout,
    );
    expect(envelope.meta).toMatchObject({ page: 1, limit: 2 });
    expect(envelope.data).toHaveLength(2);
    const lines = (await session.run(['api', 'GET', '/customers', '--query', 'limit=2', '-o', 'ndjson'])).stdout.trimEnd().split('\n');
    expect(lines.map((line) => JSON.parse(line).id)).toEqual(envelope.data.map((c) => c.id));
  });

  it('PUT sends --data given as text', async () => {
    const [customer] = json<[{ id: string }]>((await session.run(['api', 'GET', '/customers', '--query', 'limit=1'])).stdout);
    const email = `api-put-${Date.now()}@example.com`;
    const put = await session.run(['api', 'PUT', `/customers/${customer.id}`, '--data', JSON.stringify({ email })]);
    expect(put.code, put.stderr).toBe(0);
    expect(json<{ email: string }>(put.stdout).email).toBe(email);
    expect(json<{ email: string }>((await session.run(['customers', 'get', customer.id, '--json'])).stdout).email).toBe(email);
  });

  it('POST sends --data @FILE and --data @- (stdin)', async () => {
    const before = json<{ disponibleCardBalance: number; disponibleBilletBalance: number }>((await session.run(['balance', '--json'])).stdout);
    const file = path.join(tempConfigDir(), 'credit.json');
    writeFileSync(file, JSON.stringify({ card: 1234 }));
    const fromFile = await session.run(['api', 'POST', '/sandbox/balance', '--data', `@${file}`]);
    expect(fromFile.code, fromFile.stderr).toBe(0);
    const fromStdin = await session.run(['api', 'POST', '/sandbox/balance', '--data', '@-'], { input: JSON.stringify({ billet: 500 }) });
    expect(fromStdin.code, fromStdin.stderr).toBe(0);
    const after = json<Record<string, number>>(fromStdin.stdout);
    expect(after.disponibleCardBalance).toBeCloseTo(before.disponibleCardBalance + 12.34, 2);
    expect(after.disponibleBilletBalance).toBeCloseTo(before.disponibleBilletBalance + 5, 2);
  });

  it('DELETE removes a bank account', async () => {
    const body = {
      holderName: 'Ana Souza',
      bankCode: '341',
      routingNumber: '0001',
      accountNumber: '12345-6',
      document: '52998224725',
      accountType: 'CHECKING',
    };
    const created = await session.run(['api', 'POST', '/sandbox/bank_accounts', '--data', JSON.stringify(body)]);
    expect(created.code, created.stderr).toBe(0);
    const id = json<{ id: number }>(created.stdout).id;
    const deleted = await session.run(['api', 'DELETE', `/bank_accounts/${id}`]);
    expect(deleted.code, deleted.stderr).toBe(0);
    const again = await session.run(['api', 'GET', `/bank_accounts/${id}`]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('returnCode -7100');
  });

  it('PATCH reaches the API, and an API refusal exits 1 with its message', async () => {
    const result = await session.run(['api', 'PATCH', '/customers', '--data', '{}']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error: .*HTTP 4\d\d/m);
    expect(result.stdout).toBe('');
  });

  it('--dry-run prints a POST without sending it, token redacted', async () => {
    const result = await session.run(['api', 'POST', '/sandbox/balance', '--data', '{"pix":100}', '--dry-run']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('POST ');
    expect(result.stdout).not.toMatch(/Bearer ey/);
  });

  it('refuses bad input with exit 2 and sends nothing', async () => {
    const cases = [
      [['api', 'PUT', '/customers/x', '--data', '{bad'], '--data is not valid JSON'],
      [['api', 'GET', 'http://elsewhere.example/customers'], 'relative to the base URL'],
      [['api', 'GET', '/customers', '--data', '{}'], '--data cannot be sent with GET'],
      [['api', 'GET', '/customers', '--query', 'limit'], 'must be key=value'],
      [['api', 'GET', '/customers', '-o', 'csv'], 'prints JSON'],
      [['api', 'FETCH', '/customers'], 'FETCH'],
    ] as const;
    for (const [args, message] of cases) {
      const result = await session.run(args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toContain(message);
    }
  });

  it('without a token exits 3', async () => {
    const result = await session.run(['api', 'GET', '/customers'], { env: { PAYCTL_CONFIG_DIR: tempConfigDir() } });
    expect(result.code).toBe(3);
  });

  it('refuses secrets given inline, at any depth, or in the query: exit 2 with the way to give them, nothing sent', async () => {
    const server = await startFakeApi();
    try {
      const env = { PAYCTL_CONFIG_DIR: tempConfigDir(), PAYCTL_BASE_URL: server.url, PAYCTL_TOKEN: 't' };
      const bodies = [
        { cardNumber: '4111111111111111', securityCode: '123' },
        { card: { details: [{ securityCode: '123' }] } },
        { clientId: 'acme', clientSecret: 'acme-sandbox-secret' },
        { nested: { accessToken: 'eyJ.x.y' } },
      ];
      for (const body of bodies) {
        const result = await runInProcess(['api', 'POST', '/cards/tokenize', '--data', JSON.stringify(body)], { env });
        expect(result.code, result.stderr).toBe(2);
        expect(result.stderr).toMatch(
          /^error: --data given inline holds secrets \((cardNumber, securityCode|securityCode|clientSecret|accessToken)\), and the command line is visible to every user of this machine \(ps\)/,
        );
        expect(result.stderr).toContain('hint: put the body in a file, or pipe it: --data @body.json, or --data @- < body.json\n');
        for (const secret of ['4111111111111111', 'acme-sandbox-secret', 'eyJ.x.y']) expect(result.stderr).not.toContain(secret);
      }
      const query = await runInProcess(['api', 'GET', '/customers?limit=1', '--query', 'accessToken=abc'], { env });
      expect(query.code).toBe(2);
      expect(query.stderr).toContain('error: the query holds secrets (accessToken)');
      expect(server.requests).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it('POST /auth prints the access token masked; --show-secrets prints it as issued, and it works', async () => {
    const file = path.join(tempConfigDir(), 'credentials.json');
    writeFileSync(file, JSON.stringify({ clientId: 'acme', clientSecret: 'acme-sandbox-secret' }));
    const masked = await session.run(['api', 'POST', '/auth', '--data', `@${file}`]);
    expect(masked.code, masked.stderr).toBe(0);
    expect(json(masked.stdout)).toMatchObject({ accessToken: '***', tokenType: 'Bearer' });
    expect(masked.stdout).not.toMatch(/eyJ/);

    const shown = await session.run(['api', 'POST', '/auth', '--data', '@-', '--show-secrets'], { input: readFileSync(file, 'utf8') });
    expect(shown.code, shown.stderr).toBe(0);
    const token = json<{ accessToken: string }>(shown.stdout).accessToken;
    expect(token.split('.')).toHaveLength(3);
    const balance = await session.run(['balance', '--json'], { env: { PAYCTL_CONFIG_DIR: tempConfigDir(), PAYCTL_TOKEN: token } });
    expect(balance.code, balance.stderr).toBe(0);
  });
});
