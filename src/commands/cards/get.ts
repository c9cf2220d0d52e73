import { getCard } from '../../api/cards.js';
import type { Invocation } from '../spec.js';
import type { cardsGet } from './index.js';

export async function run({ services, args: [id], print }: Invocation<typeof cardsGet>): Promise<void> {
  await print(await getCard(await services.api(), id));
}
