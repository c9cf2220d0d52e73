import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { startSandbox } from '../../src/sandbox/server.js';
import type { AuthResponse } from '../../src/api/types.js';
import { expectError, login, startSession, type Session } from './helpers.js';

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const hs256 = (header: unknown, payload: unknown, key: string | Buffer) => {
  const body = `${b64(header)}.${b64(payload)}`;
  return `${body}.${createHmac('sha256', key).update(body).digest('base64url')}`;
};
const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8'));

describe('sandbox: POST /auth and bearer tokens', () => {
  let session: Session;
  beforeAll(async () => {
    session = await startSession();
  });
  afterAll(() => session.sandbox.close());

  it('issues a Bearer JWT with sub, iat and exp for the seeded credentials', async () => {
    const response = await session.anonymous.post<AuthResponse>('/auth', { clientId: 'globex', clientSecret: 'globex-sandbox-secret' });
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({ tokenType: 'Bearer', expiresIn: 3600 });
    const claims = claimsOf(response.body.data.accessToken);
    expect(claims.exp - claims.iat).toBe(3600);
    expect(typeof claims.sub).toBe('string');
    expect(session.sandbox.credentials.map((credential) => credential.clientId)).toEqual(['acme', 'globex']);
  });

  it.each([
    ['wrong secret', { clientId: 'acme', clientSecret: 'globex-sandbox-secret' }],
    ['unknown client', { clientId: 'initech', clientSecret: 'acme-sandbox-secret' }],
  ])('refuses %s with 401 -7402', async (_, body) => {
    expectError(await session.anonymous.post('/auth', body), 401, -7402);
  });

  it('refuses an auth body of the wrong shape with 400', async () => {
    expectError(await session.anonymous.post('/auth', { clientId: 'acme' }), 400, -7001);
    expectError(await session.anonymous.post('/auth', { clientId: 'acme', clientSecret: 1 }), 400, -7001);
  });

  it('answers 401 -7401 for missing, malformed, forged, alg:none, wrong-key and tampered tokens', async () => {
    const genuine = session.acme.token!;
    const claims = claimsOf(genuine);
    const [header, , signature] = genuine.split('.');
    const otherCompanyClaims = { ...claims, sub: claimsOf(session.globex.token!).sub };
    const forged = [
      null,
      'not-a-jwt',
      `${genuine}x`,
      `${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims)}.`,
      `${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims)}.${signature}`,
      hs256({ alg: 'HS256', typ: 'JWT' }, claims, 'wrong-key'),
      hs256({ alg: 'HS256', typ: 'JWT' }, claims, 'acme-sandbox-secret'),
      `${header}.${b64(otherCompanyClaims)}.${signature}`,
      `${b64({ alg: 'HS512', typ: 'JWT' })}.${genuine.split('.')[1]}.${signature}`,
    ];
    for (const token of forged) {
      const response = await session.acme.get('/customers', { token });
      expectError(response, 401, -7401);
      expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/);
    }
    expectError(await session.acme.get('/customers', { headers: { authorization: `Basic ${genuine}` }, token: null }), 401, -7401);
  });

  it("refuses a signature whose last character is changed but decodes to the same bytes", async () => {
    const genuine = session.acme.token!;
    const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const last = ALPHABET.indexOf(genuine.at(-1)!);
    // 32 bytes are 43 characters whose last carries 4 bits: its 2 low bits are ignored by lenient decoders
    const variants = [1, 2, 3].map((flip) => genuine.slice(0, -1) + ALPHABET[last ^ flip]);
    for (const variant of variants) {
      expect(Buffer.from(variant.split('.')[2]!, 'base64url')).toEqual(Buffer.from(genuine.split('.')[2]!, 'base64url'));
      expectError(await session.acme.get('/withdrawals/balance', { token: variant }), 401, -7401);
    }
    expect((await session.acme.get('/withdrawals/balance')).status).toBe(200);
  });

  it('honours exp: a token stops working once it expires', async () => {
    const shortLived = await startSandbox({ port: 0, tokenTtlSeconds: 60 });
    try {
      const client = await login(shortLived, 'acme');
      expect((await client.get('/withdrawals/balance')).status).toBe(200);
      // The sandbox runs in this process: its clock is moved past the token's lifetime rather than waited for.
      vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 61_000 });
      onTestFinished(() => void vi.useRealTimers());
      expectError(await client.get('/withdrawals/balance'), 401, -7401);
    } finally {
      await shortLived.close();
    }
  });
});
