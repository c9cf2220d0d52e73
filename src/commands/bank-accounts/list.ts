import { listBankAccounts } from '../../api/bank-accounts.js';
import type { Context } from '../../context.js';
import { bankAccountView } from '../../output/views.js';
import { parsePaging, runList } from '../shared/list.js';
import type { CommandInput } from '../spec.js';

export async function run(ctx: Context, { opts }: CommandInput): Promise<void> {
  const paging = parsePaging(opts);
  const api = await ctx.api();
  if (ctx.output.format === 'table') await ctx.output.note(`bank accounts of the ${ctx.accountLabel()}`);
  await runList(ctx, bankAccountView, paging, (query) => listBankAccounts(api, query));
}
