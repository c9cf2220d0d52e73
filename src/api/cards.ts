import type { ApiClient, ReadOptions } from '../http/client.js';
import type { TokenizeCardRequest } from './types.js';
import type { Answers } from './validators.js';

export type CardAnswer = Answers['getCard'];

export async function tokenizeCard(client: ApiClient, body: TokenizeCardRequest): Promise<Answers['tokenizeCard'] | undefined> {
  return (await client.call('tokenizeCard', { body }))?.data;
}

export async function getCard(client: ApiClient, id: string, options?: ReadOptions): Promise<CardAnswer> {
  return (await client.call('getCard', { params: { tokenizedCardId: id }, ...options })).data;
}
