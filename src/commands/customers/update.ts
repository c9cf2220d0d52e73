import { getCustomer, updateCustomer } from '../../api/customers.js';
import type { UpdateCustomerRequest } from '../../api/types.js';
import { usageError } from '../../errors.js';
import { resolveRequired } from '../../prompt.js';
import { collectBody, getAt, readBodyFile, resolveMissingFields } from '../shared/body-input.js';
import { pickCustomer } from '../shared/pickers.js';
import type { Invocation } from '../spec.js';
import { CUSTOMER_ADDRESS_FIELDS, CUSTOMER_FIELDS } from './fields.js';
import type { customersUpdate } from './index.js';

export async function run(invocation: Invocation<typeof customersUpdate>): Promise<void> {
  const { io, services, opts, flag, needArg, print } = invocation;
  const base = opts.fromFile === undefined ? undefined : await readBodyFile(invocation, flag('fromFile'), opts.fromFile);
  const source = `${flag('fromFile')} ${opts.fromFile}`;
  const { body } = collectBody(CUSTOMER_FIELDS, opts, { base, source });
  if (Object.keys(body).length === 0) {
    throw usageError(`nothing to change: give at least one field flag or ${flag('fromFile')}`, 'see the flags: payctl customers update --help');
  }
  const address = getAt(body, 'address');
  // only a file can give an empty address, which the API refuses (at least one field)
  if (address && typeof address === 'object' && Object.keys(address).length === 0) {
    throw usageError(`${source}: address is empty: give at least one of its fields or leave it out`);
  }
  const { id } = await resolveRequired(invocation, { id: needArg(0, (field) => pickCustomer(invocation, field)) });
  const api = await services.api();
  if (address && typeof address === 'object') {
    // The first address needs every field: check before sending (and ask at a terminal).
    const current = await getCustomer(api, id);
    if (!current.address) {
      const missing = CUSTOMER_ADDRESS_FIELDS.filter((field) => getAt(body, field.path) === undefined);
      await resolveMissingFields(invocation, body, missing, 'this customer has no address yet, so the first one needs every field');
    }
  }
  const updated = await updateCustomer(api, id, body as UpdateCustomerRequest);
  if (!updated) return;
  await print(updated);
  await io.output.note(`customer ${updated.id} updated: ${Object.keys(body).join(', ')}`);
}
