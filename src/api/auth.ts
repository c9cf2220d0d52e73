import type { ApiClient } from '../http/client.js';
import type { AuthToken } from './types.js';

export async function authenticate(client: ApiClient, clientId: string, clientSecret: string): Promise<AuthToken | undefined> {
  return (await client.request<AuthToken>({ method: 'POST', path: '/auth', operation: 'auth', body: { clientId, clientSecret } }))?.data;
}
