import type { BodyField } from '../shared/body-fields.js';

export const CUSTOMER_ADDRESS_FIELDS = [
  { path: 'address.zipcode', key: 'addressZipcode', label: 'CEP', kind: 'cep', section: 'Address' },
  { path: 'address.street', key: 'addressStreet', label: 'Street', kind: 'text', max: 120, section: 'Address' },
  { path: 'address.streetNumber', key: 'addressStreetNumber', label: 'Number', kind: 'streetNumber', section: 'Address' },
  { path: 'address.complement', key: 'addressComplement', label: 'Complement', kind: 'textOrEmpty', max: 120, section: 'Address' },
  { path: 'address.reference', key: 'addressReference', label: 'Reference', kind: 'textOrEmpty', max: 120, section: 'Address' },
  { path: 'address.neighborhood', key: 'addressNeighborhood', label: 'Neighbourhood (bairro)', kind: 'text', max: 80, section: 'Address' },
  { path: 'address.city', key: 'addressCity', label: 'City', kind: 'text', max: 80, section: 'Address' },
  { path: 'address.state', key: 'addressState', label: 'State (UF)', kind: 'uf', section: 'Address' },
] as const satisfies readonly BodyField[];

/** Every body field of `customers update`: all optional, as the API takes them. */
export const CUSTOMER_FIELDS = [
  { path: 'firstName', key: 'firstName', label: 'First name', kind: 'text', max: 60, section: 'Customer' },
  { path: 'lastName', key: 'lastName', label: 'Last name', kind: 'text', max: 60, section: 'Customer' },
  { path: 'email', key: 'email', label: 'E-mail', kind: 'email', section: 'Customer' },
  { path: 'phoneNumber', key: 'phoneNumber', label: 'Phone', kind: 'phone', section: 'Customer' },
  { path: 'document', key: 'document', label: 'CPF or CNPJ', kind: 'document', section: 'Customer' },
  { path: 'birthdate', key: 'birthdate', label: 'Birthdate (YYYY-MM-DD)', kind: 'birthdate', section: 'Customer' },
  ...CUSTOMER_ADDRESS_FIELDS,
] as const satisfies readonly BodyField[];
