/**
 * What every generated answer check (src/api/validators.ts, written by
 * scripts/gen-validators.mjs) calls: a type mask per field, so that each check is
 * one short call.
 */

/** What makes an answer not the API's: a needed field (a path inside `data`; `data` itself; '' for the whole body), the type it should have, and what came. */
export interface AnswerFault {
  field: string;
  expected: string;
  found: unknown;
}

export const STRING = 1;
export const INTEGER = 2;
export const NUMBER = 4;
export const BOOLEAN = 8;
export const OBJECT = 16;
export const ARRAY = 32;
export const NULL = 64;
/** The field may be absent; when present it is checked. */
export const OPTIONAL = 128;
const TYPE_NAMES: ReadonlyArray<[number, string]> = [
  [STRING, 'a string'],
  [INTEGER, 'an integer'],
  [NUMBER, 'a number'],
  [BOOLEAN, 'a boolean'],
  [OBJECT, 'an object'],
  [ARRAY, 'an array'],
  [NULL, 'null'],
];

export type Check = AnswerFault | undefined;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The types a JSON value is of: an integer is a number too, and so is an id too big
 * for a double, which is read as a bigint (src/http/json.ts).
 */
function typeBits(value: unknown): number {
  if (value === null) return NULL;
  if (Array.isArray(value)) return ARRAY;
  if (typeof value === 'number') return Number.isInteger(value) ? INTEGER | NUMBER : NUMBER;
  if (typeof value === 'bigint') return INTEGER | NUMBER;
  return typeof value === 'string' ? STRING : typeof value === 'boolean' ? BOOLEAN : typeof value === 'object' ? OBJECT : 0;
}

/** undefined when the field is of a type the mask allows (or absent, when OPTIONAL); else the fault. */
export function check(value: unknown, mask: number, field: string): Check {
  if (value === undefined ? mask & OPTIONAL : typeBits(value) & mask) return undefined;
  return { field, expected: TYPE_NAMES.filter(([bit]) => mask & bit).map(([, name]) => name).join(' or '), found: value };
}

/** A field checked, then, when it is an object, the fields inside it. */
export const fields = (value: unknown, mask: number, field: string, inner: (object: Record<string, unknown>) => Check): Check =>
  check(value, mask, field) ?? (isObject(value) ? inner(value) : undefined);

/**
 * A field checked, then, when it is a list, each item; an item's fault is named
 * by the item's place (the item's own checks name fields from it, as '.id'), so a
 * long list costs no name until one is wrong.
 */
export function items(value: unknown, mask: number, field: string, inner: (item: unknown) => Check): Check {
  const fault = check(value, mask, field);
  if (fault || !Array.isArray(value)) return fault;
  for (let index = 0; index < value.length; index++) {
    const itemFault = inner(value[index]);
    if (itemFault) return { ...itemFault, field: field + '[' + index + ']' + itemFault.field };
  }
  return undefined;
}

/** The body must be an object; its data is read by inner. */
export const envelope = (body: unknown, inner: (data: unknown) => Check): Check =>
  isObject(body) ? inner(body.data) : { field: '', expected: 'an object', found: body };
