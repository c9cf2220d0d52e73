/** The `exp` of a JWT as a Date, or undefined when the token is not a JWT or has none. */
export function jwtExpiry(token: string): Date | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  try {
    const payload = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8')) as { exp?: unknown };
    return typeof payload.exp === 'number' && Number.isFinite(payload.exp) ? new Date(payload.exp * 1000) : undefined;
  } catch {
    return undefined;
  }
}
