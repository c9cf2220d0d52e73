import { createSubaccount } from '../../api/subaccounts.js';
import type { CreateSubaccountPfRequest, CreateSubaccountPjRequest } from '../../api/types.js';
import { ExitCode, PayctlError } from '../../errors.js';
import type { BodyField } from '../shared/body-fields.js';
import { collectBody, getAt, readBodyFile, resolveMissingFields, type Body } from '../shared/body-input.js';
import { rememberSubaccounts } from '../../subaccount-names.js';
import type { Invocation } from '../spec.js';
import { PF_FIELDS, PJ_FIELDS } from './create-fields.js';
import type { createPf, createPj } from './index.js';

type SubaccountRequest = CreateSubaccountPfRequest | CreateSubaccountPjRequest;

/** `subaccounts create pf|pj`: flags over `--from-file`, the wizard for what is still missing. */
export async function run(invocation: Invocation<typeof createPf> | Invocation<typeof createPj>): Promise<void> {
  const { io, services, opts, flag, print } = invocation;
  const base = opts.fromFile === undefined ? undefined : await readBodyFile(invocation, flag('fromFile'), opts.fromFile);
  const input = { base, source: `${flag('fromFile')} ${opts.fromFile}` };
  const fields: readonly BodyField[] = invocation.name === 'pf' ? PF_FIELDS : PJ_FIELDS;
  const { body, missing } = invocation.name === 'pf' ? collectBody(PF_FIELDS, invocation.opts, input) : collectBody(PJ_FIELDS, invocation.opts, input);
  await resolveMissingFields(invocation, body, missing);
  if (!isComplete(body, fields)) throw new PayctlError('a required field of the sub-account is still missing', ExitCode.internalError);
  const created = await createSubaccount(await services.api(), invocation.name, body);
  if (!created) return;
  const status = typeof created.status === 'string' ? created.status : undefined;
  await rememberSubaccounts(services, [{ id: created.id, name: typeof created.name === 'string' ? created.name : undefined, status, seenAs: 'created' }]);
  await print(created);
  await io.output.note(
    `created ${invocation.name.toUpperCase()} sub-account ${created.id} (${status ?? 'status not given'}); it must be APPROVED to receive splits` +
      (services.settings().env === 'production' ? '' : ` (on a sandbox: payctl sandbox approve ${created.id})`),
  );
}

/** Every required field has its value (each checked by its parser): the body is a request of the API's shape. */
const isComplete = (body: Body, fields: readonly BodyField[]): body is Body & SubaccountRequest =>
  fields.every((field) => !field.required || getAt(body, field.path) !== undefined);
