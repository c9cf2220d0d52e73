import { listCustomers } from '../../api/customers.js';
import type { Customer } from '../../api/types.js';
import type { Context } from '../../context.js';
import { usageError } from '../../errors.js';
import { customerView } from '../../output/views.js';
import { foldForSearch } from '../../rules.js';
import { optString, type CommandInput } from '../spec.js';
import { writeAllPages } from '../shared/list.js';

/** A field as text to match: the API's text, or a number written where text was; anything else matches nothing. */
const textOf = (value: unknown) => (typeof value === 'string' || typeof value === 'number' ? String(value) : '');
const fold = (text: string) => foldForSearch(text).trim();
const digitsOnly = (text: string) => text.replace(/\D/g, '');
/** Brazilian phone digits without the +55 country code. */
const nationalPhone = (text: string) => digitsOnly(text).replace(/^55(?=\d{10,11}$)/, '');

type Matcher = (customer: Customer) => boolean;

/** Each given flag narrows the search; every one must match. */
function buildMatchers(opts: Record<string, unknown>): Matcher[] {
  const matchers: Matcher[] = [];
  const email = optString(opts, 'email');
  const document = optString(opts, 'document');
  const name = optString(opts, 'name');
  const phone = optString(opts, 'phone');
  if (email !== undefined) {
    const wanted = fold(email);
    if (wanted === '') throw usageError('--email must not be empty');
    matchers.push((c) => fold(textOf(c.email)) === wanted);
  }
  if (document !== undefined) {
    if (!/^[\d.\-/\s]+$/.test(document) || digitsOnly(document) === '') {
      throw usageError(`--document ${JSON.stringify(document)} is invalid: must be CPF or CNPJ digits (dots, dash and slash are ignored)`);
    }
    const wanted = digitsOnly(document);
    matchers.push((c) => digitsOnly(textOf(c.document)) === wanted);
  }
  if (name !== undefined) {
    const wanted = fold(name).replace(/\s+/g, ' ');
    if (wanted === '') throw usageError('--name must not be empty');
    matchers.push((c) => fold(`${textOf(c.firstName)} ${textOf(c.lastName)}`).includes(wanted));
  }
  if (phone !== undefined) {
    const wanted = nationalPhone(phone);
    if (!/^[\d\s()+\-.]+$/.test(phone) || wanted.length < 8) {
      throw usageError(`--phone ${JSON.stringify(phone)} is invalid: give at least 8 digits, e.g. 11912345678 or "+55 11 91234-5678"`);
    }
    matchers.push((c) => nationalPhone(textOf(c.phoneNumber)).endsWith(wanted));
  }
  if (matchers.length === 0) throw usageError('give at least one of --email, --document, --name, --phone');
  return matchers;
}

export async function run(ctx: Context, { opts }: CommandInput): Promise<void> {
  const matchers = buildMatchers(opts);
  ctx.output.fieldsFor(customerView);
  const client = await ctx.api();
  await writeAllPages(ctx, customerView, (query) => listCustomers(client, query), 100, (customer) => matchers.every((match) => match(customer)));
}
