import { listCustomers } from '../../api/customers.js';
import type { Context } from '../../context.js';
import { customerView } from '../../output/views.js';
import { parsePaging, runList } from '../shared/list.js';
import type { CommandInput } from '../spec.js';

export async function run(ctx: Context, { opts }: CommandInput): Promise<void> {
  const paging = parsePaging(opts);
  const api = await ctx.api();
  await runList(ctx, customerView, paging, (query) => listCustomers(api, query));
}
