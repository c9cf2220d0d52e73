import type { ListedCustomer } from '../../api/customers.js';
import { usageError } from '../../errors.js';
import { foldForSearch, withoutCountryCode } from '../../validation/rules.js';
import { parseDocument, type Parser } from '../../validation/flags.js';

/**
 * What `customers find` compares: each flag's value is parsed into the form it is
 * matched in, and each customer's field is brought to the same form.
 */

/** Letters without accents or case, so "JOÃO" finds "João". */
const fold = (text: string) => foldForSearch(text).trim();
const digitsOnly = (text: string) => text.replace(/\D/g, '');
/** Brazilian phone digits without the +55 country code. */
const nationalPhone = (text: string) => withoutCountryCode(digitsOnly(text));

const notEmpty = (flag: string, folded: string) => {
  if (folded === '') throw usageError(`${flag} must not be empty`);
  return folded;
};

export const parseEmailSearch: Parser<string> = (flag, raw) => notEmpty(flag, fold(raw));

export const parseNameSearch: Parser<string> = (flag, raw) => notEmpty(flag, fold(raw).replace(/\s+/g, ' '));

/** A whole CPF or CNPJ, check digits included: a mistyped one would only match nothing. */
export const parseDocumentSearch: Parser<string> = parseDocument;

export const parsePhoneSearch: Parser<string> = (flag, raw) => {
  const wanted = nationalPhone(raw);
  if (!/^[\d\s()+\-.]+$/.test(raw) || wanted.length < 8) {
    throw usageError(`${flag} ${JSON.stringify(raw)} is invalid: give at least 8 digits, e.g. 11912345678 or "+55 11 91234-5678"`);
  }
  return wanted;
};

export interface CustomerSearch {
  email?: string;
  document?: string;
  name?: string;
  phone?: string;
}

/** A field as text to match: the API's text, or a number written where text was; anything else matches nothing. */
const textOf = (value: unknown) => (typeof value === 'string' || typeof value === 'number' ? String(value) : '');

/** Whether a customer matches every part of the search given. */
export function matchesSearch(customer: ListedCustomer, search: CustomerSearch): boolean {
  return (
    (search.email === undefined || fold(textOf(customer.email)) === search.email) &&
    (search.document === undefined || digitsOnly(textOf(customer.document)) === search.document) &&
    (search.name === undefined || fold(`${textOf(customer.firstName)} ${textOf(customer.lastName)}`).includes(search.name)) &&
    (search.phone === undefined || nationalPhone(textOf(customer.phoneNumber)).endsWith(search.phone))
  );
}
