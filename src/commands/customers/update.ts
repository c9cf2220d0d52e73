import { getCustomer, updateCustomer } from '../../api/customers.js';
import type { UpdateCustomerRequest } from '../../api/types.js';
import type { Context } from '../../context.js';
import { usageError } from '../../errors.js';
import { customerView } from '../../output/views.js';
import { parseUuid } from '../../validate.js';
import { collectBody, readBodyFile, resolveMissingFields } from '../shared/body-input.js';
import { optString, type CommandInput } from '../spec.js';
import { CUSTOMER_ADDRESS_FIELDS, CUSTOMER_FIELDS } from './fields.js';

export async function run(ctx: Context, { args, opts }: CommandInput): Promise<void> {
  const id = parseUuid('ID', args[0]!);
  ctx.output.fieldsFor(customerView);
  const file = optString(opts, 'fromFile');
  const base = file === undefined ? undefined : await readBodyFile(ctx, file);
  const { body } = collectBody(CUSTOMER_FIELDS, opts, { base, source: file });
  if (Object.keys(body).length === 0) throw usageError('nothing to change: give at least one field flag or --from-file', 'see the flags: payctl customers update --help');
  const api = await ctx.api();
  const address = body.address as Record<string, unknown> | undefined;
  if (address && Object.keys(address).length > 0) {
    // The first address needs every field: check before sending (and ask at a terminal).
    const current = await getCustomer(api, id);
    if (!current.address) {
      const missing = CUSTOMER_ADDRESS_FIELDS.filter((field) => address[field.path.replace('address.', '')] === undefined);
      await resolveMissingFields(ctx, body, missing, 'this customer has no address yet, so the first one needs every field');
    }
  }
  const updated = await updateCustomer(api, id, body as UpdateCustomerRequest);
  await ctx.output.item(customerView, updated);
  await ctx.output.note(`customer ${updated.id} updated: ${Object.keys(body).join(', ')}`);
}
