import { clip } from './text.js';

/** A token no API issued: characters a bearer token cannot have, or a JWT whose payload or `exp` cannot be read. */
export class MalformedToken extends Error {
  constructor(reason: string) {
    super(`the token ${reason}`);
    this.name = 'MalformedToken';
  }
}

/** RFC 6750's b64token: what an Authorization header can carry after `Bearer`. */
const BEARER_TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;

/** The last second a Date can show as a four-digit year (9999-12-31T23:59:59Z). */
const LATEST_EXP = 253_402_300_799;
const BASE64URL = /^[A-Za-z0-9_-]*$/;

/**
 * The `exp` of a JWT as a Date; undefined when the token is not a JWT (an opaque
 * token, which only the server can judge) or has no `exp`. A token that cannot
 * go in an Authorization header, or a JWT whose payload is not a JSON object or
 * whose `exp` is not a time (a string, 1e20, negative), throws MalformedToken:
 * it is no token the API issued.
 */
export function jwtExpiry(token: string): Date | undefined {
  if (!BEARER_TOKEN.test(token)) throw new MalformedToken('has characters a bearer token cannot have (it takes letters, digits and -._~+/=)');
  const parts = token.split('.');
  const encoded = parts[1];
  if (parts.length !== 3 || encoded === undefined) return undefined;
  if (!BASE64URL.test(encoded)) throw new MalformedToken('is a malformed JWT: its payload is not base64url');
  let payload: unknown;
  try {
    payload = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8'));
  } catch {
    throw new MalformedToken('is a malformed JWT: its payload is not JSON');
  }
  if (!payload || typeof payload !== 'object' || Array.isArray(payload)) throw new MalformedToken('is a malformed JWT: its payload is not a JSON object');
  const exp = (payload as { exp?: unknown }).exp;
  if (exp === undefined) return undefined;
  if (typeof exp !== 'number' || !Number.isFinite(exp) || exp < 0 || exp > LATEST_EXP) {
    throw new MalformedToken(
      `is a malformed JWT: its exp (${clip(String(JSON.stringify(exp)), 40)}) is not a time in seconds since 1970, up to the year 9999`,
    );
  }
  return new Date(exp * 1000);
}
