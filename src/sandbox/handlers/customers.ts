import { randomUUID } from 'node:crypto';
import type { CreateCustomerRequest, Customer, CustomerAddress, CustomerAddressInput, UpdateCustomerRequest } from '../../api/types.js';
import { findOrFail, pageMeta, pageQuery, single, type CompanyRequest, type Reply } from '../context.js';
import { ApiError } from '../errors.js';
import { isPlausibleBirthdate, isValidCpfOrCnpj } from '../../validation/rules.js';

const ADDRESS_FIELDS = ['zipcode', 'street', 'streetNumber', 'complement', 'reference', 'neighborhood', 'city', 'state'] as const;

export const findCustomer = ({ company }: CompanyRequest, id: unknown) => findOrFail(company.customers, id, 'customerNotFound', 'customer');

/** Rules of the personal fields beyond their schema; checked before anything changes. */
function checkPersonalFields(fields: UpdateCustomerRequest, now: Date): void {
  if (fields.document !== undefined && !isValidCpfOrCnpj(fields.document)) throw new ApiError('validation', 'document must be a valid CPF or CNPJ');
  if (fields.birthdate !== undefined && !isPlausibleBirthdate(fields.birthdate, now)) {
    throw new ApiError('validation', 'birthdate must be a real date between 1900-01-01 and today');
  }
}

/** The address after applying `input`: merged into the current one, or, for a first address, complete. */
function nextAddress(current: CustomerAddress | undefined, input: CustomerAddressInput): CustomerAddress {
  if (current) return { ...current, ...input };
  const missing = ADDRESS_FIELDS.filter((field) => input[field] === undefined);
  if (missing.length)
    throw new ApiError('addressIncomplete', `the customer has no address yet: every address field is required (missing ${missing.join(', ')})`);
  return { statusId: 'APPROVED', ...(input as Required<CustomerAddressInput>) };
}

const LIST_START = Buffer.from('{"data":[');
const COMMA = Buffer.from(',');

/** Built from each customer's cached JSON bytes rather than serialising the page again. */
export function listCustomers({ company, query }: CompanyRequest): Reply {
  const paging = pageQuery(query);
  const parts: Buffer[] = [LIST_START];
  company.customers.page(paging.page, paging.limit).forEach((customer, i) => {
    if (i > 0) parts.push(COMMA);
    parts.push(company.customers.json(customer));
  });
  parts.push(Buffer.from(`],"meta":${JSON.stringify(pageMeta(company.customers.size, paging))},"message":"Customers listed"}`));
  return { body: Buffer.concat(parts) };
}

export const getCustomer = (request: CompanyRequest): Reply => single(findCustomer(request, request.params.customerId), 'Customer found');

export function updateCustomer(request: CompanyRequest): Reply {
  const customer = findCustomer(request, request.params.customerId);
  const { address, ...personal } = request.body as UpdateCustomerRequest;
  checkPersonalFields(personal, request.now);
  Object.assign(customer, personal, address && { address: nextAddress(customer.address, address) });
  request.company.customers.changed(customer);
  request.changes.customer(customer);
  return single(customer, 'Customer updated');
}

export function sandboxCreateCustomer({ company, body, now, changes }: CompanyRequest): Reply {
  const { address, ...personal } = body as CreateCustomerRequest;
  checkPersonalFields(personal, now);
  const customer: Customer = {
    id: randomUUID(),
    ...personal,
    ...(address && { address: nextAddress(undefined, address) }),
    statusId: 'APPROVED',
    createdAt: now.toISOString(),
  };
  company.customers.add(customer);
  changes.customer(customer);
  return single(customer, 'Customer created');
}
