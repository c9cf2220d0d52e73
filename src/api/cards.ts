import type { ApiClient } from '../http/client.js';
import type { Card, TokenizeCardRequest, TokenizedCard } from './types.js';

export async function tokenizeCard(client: ApiClient, body: TokenizeCardRequest): Promise<TokenizedCard | undefined> {
  return (await client.request<TokenizedCard>({ method: 'POST', path: '/cards/tokenize', operation: 'tokenizeCard', body }))?.data;
}

export async function getCard(client: ApiClient, id: string): Promise<Card> {
  return (await client.request<Card>({ method: 'GET', path: `/cards/${encodeURIComponent(id)}`, operation: 'getCard', resourceId: id })).data;
}
