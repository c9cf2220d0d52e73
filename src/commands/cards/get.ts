import { getCard } from '../../api/cards.js';
import { resolveRequired } from '../../prompt.js';
import { CARD_NOT_FOUND, withHints } from '../shared/hints.js';
import { pickCard } from '../shared/pickers.js';
import type { Invocation } from '../spec.js';
import type { cardsGet } from './index.js';

export async function run(invocation: Invocation<typeof cardsGet>): Promise<void> {
  const { services, needArg, print } = invocation;
  const { id } = await resolveRequired(invocation, { id: needArg(0, (field) => pickCard(invocation, field)) });
  const hint = {
    [CARD_NOT_FOUND]:
      'the API lists no cards: payctl cards get with no id, at a terminal, searches for the customer and lists ' +
      "the cards their subscriptions charge (payctl customers get shows them too)",
  };
  await print(await withHints(getCard(await services.api(), id), hint));
}
