import { createHmac, timingSafeEqual } from 'node:crypto';

/** Claims of a sandbox access token. */
export interface AccessClaims {
  /** company id */
  sub: string;
  iat: number;
  exp: number;
  iss: string;
}

const HEADER = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');
const BASE64URL = /^[A-Za-z0-9_-]+$/;

/**
 * The bytes of a base64url part, or undefined unless `part` is their one canonical
 * spelling. The last character of a part whose length is not a multiple of 4 has
 * low bits the decoder ignores: without this check, a signature with its last
 * character changed (same top bits) would decode to the same bytes and pass.
 */
function decodeCanonical(part: string): Buffer | undefined {
  if (!BASE64URL.test(part)) return undefined;
  const bytes = Buffer.from(part, 'base64url');
  return bytes.toString('base64url') === part ? bytes : undefined;
}

const sign = (input: string, key: Buffer) => createHmac('sha256', key).update(input).digest();

export function signAccessToken(claims: AccessClaims, key: Buffer): string {
  const body = `${HEADER}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`;
  return `${body}.${sign(body, key).toString('base64url')}`;
}

function decodeJsonObject(part: string): Record<string, unknown> | undefined {
  const bytes = decodeCanonical(part);
  if (!bytes) return undefined;
  try {
    const value: unknown = JSON.parse(bytes.toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The claims of a valid token, or undefined. Strict on purpose: the header must
 * say HS256 (so `alg: none` and algorithm confusion are refused), the signature
 * must match in constant time and `exp` must be in the future.
 */
export function verifyAccessToken(token: string, key: Buffer, nowSeconds: number): AccessClaims | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  const [headerPart, payloadPart, signaturePart] = parts as [string, string, string];
  const header = decodeJsonObject(headerPart);
  if (!header || header.alg !== 'HS256' || (header.typ !== undefined && header.typ !== 'JWT')) return undefined;
  const expected = sign(`${headerPart}.${payloadPart}`, key);
  const given = decodeCanonical(signaturePart);
  if (!given || given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  const claims = decodeJsonObject(payloadPart);
  if (!claims || typeof claims.sub !== 'string' || typeof claims.iat !== 'number' || typeof claims.iss !== 'string') return undefined;
  if (typeof claims.exp !== 'number' || !Number.isFinite(claims.exp) || claims.exp <= nowSeconds) return undefined;
  return { sub: claims.sub, iat: claims.iat, exp: claims.exp, iss: claims.iss };
}
