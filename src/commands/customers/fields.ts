import type { BodyField } from '../shared/body-fields.js';

export const CUSTOMER_ADDRESS_FIELDS: BodyField[] = [
  { path: 'address.zipcode', flag: '--address-zipcode', label: 'CEP', kind: 'cep', section: 'Address' },
  { path: 'address.street', flag: '--address-street', label: 'Street', kind: 'text', max: 120, section: 'Address' },
  { path: 'address.streetNumber', flag: '--address-street-number', label: 'Number', kind: 'streetNumber', section: 'Address' },
  { path: 'address.complement', flag: '--address-complement', label: 'Complement', kind: 'text', max: 120, section: 'Address' },
  { path: 'address.reference', flag: '--address-reference', label: 'Reference', kind: 'text', max: 120, section: 'Address' },
  { path: 'address.neighborhood', flag: '--address-neighborhood', label: 'Neighbourhood (bairro)', kind: 'text', max: 80, section: 'Address' },
  { path: 'address.city', flag: '--address-city', label: 'City', kind: 'text', max: 80, section: 'Address' },
  { path: 'address.state', flag: '--address-state', label: 'State (UF)', kind: 'uf', section: 'Address' },
];

/** Every body field of `customers update`: all optional, as the API takes them. */
export const CUSTOMER_FIELDS: BodyField[] = [
  { path: 'firstName', flag: '--first-name', label: 'First name', kind: 'text', max: 60, section: 'Customer' },
  { path: 'lastName', flag: '--last-name', label: 'Last name', kind: 'text', max: 60, section: 'Customer' },
  { path: 'email', flag: '--email', label: 'E-mail', kind: 'email', section: 'Customer' },
  { path: 'phoneNumber', flag: '--phone-number', label: 'Phone', kind: 'phone', section: 'Customer' },
  { path: 'document', flag: '--document', label: 'CPF or CNPJ', kind: 'document', section: 'Customer' },
  { path: 'birthdate', flag: '--birthdate', label: 'Birthdate (YYYY-MM-DD)', kind: 'birthdate', section: 'Customer' },
  ...CUSTOMER_ADDRESS_FIELDS,
];
