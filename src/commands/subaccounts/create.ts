import { createSubaccount, type SubaccountKind } from '../../api/subaccounts.js';
import type { CreateSubaccountPfRequest } from '../../api/types.js';
import type { Context } from '../../context.js';
import { subaccountView } from '../../output/views.js';
import { collectBody, readBodyFile, resolveMissingFields } from '../shared/body-input.js';
import { optString, type CommandInput } from '../spec.js';
import { subaccountFields } from './create-fields.js';

/** `subaccounts create pf|pj`: flags over `--from-file`, the wizard for what is still missing. */
export async function runCreate(ctx: Context, kind: SubaccountKind, { opts }: CommandInput): Promise<void> {
  ctx.output.fieldsFor(subaccountView);
  const file = optString(opts, 'fromFile');
  const base = file === undefined ? undefined : await readBodyFile(ctx, file);
  const { body, missing } = collectBody(subaccountFields(kind), opts, { base, source: file });
  await resolveMissingFields(ctx, body, missing);
  const created = await createSubaccount(await ctx.api(), kind, body as unknown as CreateSubaccountPfRequest);
  await ctx.output.item(subaccountView, created);
  await ctx.output.note(
    `created ${kind.toUpperCase()} sub-account ${created.id} (${created.status}); it must be APPROVED to receive splits` +
      (ctx.settings().env === 'production' ? '' : ` (on a sandbox: payctl sandbox approve ${created.id})`),
  );
}
