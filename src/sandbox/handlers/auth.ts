import { createHash, timingSafeEqual } from 'node:crypto';
import type { AuthRequest, AuthToken } from '../../api/types.js';
import { single, type PublicRequest, type Reply } from '../context.js';
import { ApiError } from '../errors.js';
import { signAccessToken } from '../jwt.js';

export const TOKEN_ISSUER = 'payctl-sandbox';

/** Constant-time comparison of secrets of any length (hashing first equalises the lengths). */
const sameSecret = (a: string, b: string) => timingSafeEqual(createHash('sha256').update(a).digest(), createHash('sha256').update(b).digest());

export function auth({ body, now, services }: PublicRequest): Reply {
  const { clientId, clientSecret } = body as AuthRequest;
  const company = services.store.companyByClientId(clientId);
  if (!company || !sameSecret(company.clientSecret, clientSecret)) throw new ApiError('invalidCredentials', 'invalid clientId or clientSecret');
  const iat = Math.floor(now.getTime() / 1000);
  const token: AuthToken = {
    accessToken: signAccessToken({ sub: company.id, iat, exp: iat + services.tokenTtlSeconds, iss: TOKEN_ISSUER }, services.store.jwtKey),
    tokenType: 'Bearer',
    expiresIn: services.tokenTtlSeconds,
  };
  return single(token, 'Authenticated');
}
