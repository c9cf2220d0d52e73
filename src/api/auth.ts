import type { ApiClient } from '../http/client.js';
import type { Answers } from './validators.js';

export async function authenticate(client: ApiClient, clientId: string, clientSecret: string): Promise<Answers['auth'] | undefined> {
  return (await client.call('auth', { body: { clientId, clientSecret } }))?.data;
}
