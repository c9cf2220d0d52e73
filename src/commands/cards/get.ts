import { getCard } from '../../api/cards.js';
import type { Context } from '../../context.js';
import { cardView } from '../../output/views.js';
import { parseUuid } from '../../validate.js';
import type { CommandInput } from '../spec.js';

export async function run(ctx: Context, { args }: CommandInput): Promise<void> {
  const id = parseUuid('ID', args[0]!);
  ctx.output.fieldsFor(cardView);
  await ctx.output.item(cardView, await getCard(await ctx.api(), id));
}
