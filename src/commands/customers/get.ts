import { getCustomer } from '../../api/customers.js';
import type { Context } from '../../context.js';
import { customerView } from '../../output/views.js';
import { parseUuid } from '../../validate.js';
import type { CommandInput } from '../spec.js';

export async function run(ctx: Context, { args }: CommandInput): Promise<void> {
  const id = parseUuid('ID', args[0]!);
  ctx.output.fieldsFor(customerView);
  await ctx.output.item(customerView, await getCustomer(await ctx.api(), id));
}
