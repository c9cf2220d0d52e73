/**
 * Brazilian identifiers as people write them, for tables only (json, ndjson, csv
 * and tsv keep the API's raw values). Each formatter gives back the text it was
 * given when that text is not what its name says, so a surprising value from a
 * server is shown as it came rather than misread.
 */

/** The characters people put between the digits of a document or a CEP. */
const PUNCTUATION = /[.\-/\s]/g;

const compact = (text: string) => text.replace(PUNCTUATION, '');

/** CPF: 11 digits as `123.456.789-09`. */
export function formatCpf(text: string): string {
  const digits = compact(text);
  return /^\d{11}$/.test(digits) ? `${digits.slice(0, 3)}.${digits.slice(3, 6)}.${digits.slice(6, 9)}-${digits.slice(9)}` : text;
}

/** CNPJ: 14 characters as `12.345.678/0001-95` (the alphanumeric CNPJ of 2026 too: 12 letters or digits, then 2 digits). */
export function formatCnpj(text: string): string {
  const chars = compact(text);
  return /^[0-9A-Z]{12}\d{2}$/.test(chars)
    ? `${chars.slice(0, 2)}.${chars.slice(2, 5)}.${chars.slice(5, 8)}/${chars.slice(8, 12)}-${chars.slice(12)}`
    : text;
}

/** A document that may be either: a CPF by its 11 digits, a CNPJ by its 14 characters. */
export function formatDocument(text: string): string {
  const length = compact(text).length;
  if (length === 11) return formatCpf(text);
  if (length === 14) return formatCnpj(text);
  return text;
}

/**
 * CEP as `01310-100`. The API gives it as an integer (or a string), which loses
 * its leading zeros: they are put back, up to 8 digits.
 */
export function formatCep(value: number | string): string {
  const digits = typeof value === 'number' ? (Number.isSafeInteger(value) && value >= 0 ? String(value) : '') : compact(value);
  if (!/^\d{1,8}$/.test(digits)) return String(value);
  const padded = digits.padStart(8, '0');
  return `${padded.slice(0, 5)}-${padded.slice(5)}`;
}

/**
 * A Brazilian phone as `+55 (11) 91234-5678` (mobile: 9 digits, starting with 9)
 * or `+55 (11) 3123-4567` (landline: 8 digits), from `+5511912345678`,
 * `(11) 91234-5678`, `11912345678` and the like. A number of another country is
 * left as it is.
 */
export function formatPhone(text: string): string {
  const [, plus, given] = /^(\+?)(\d+)$/.exec(text.replace(/[\s().-]/g, '')) ?? [];
  if (given === undefined) return text;
  let digits = given;
  // With a `+`, or longer than a national number, it starts with the country code.
  if (plus === '+' || digits.length > 11) {
    if (!digits.startsWith('55')) return text;
    digits = digits.slice(2);
  }
  // An area code (two digits, neither 0), then 8 or 9 digits.
  if (!/^[1-9]{2}\d{8,9}$/.test(digits)) return text;
  const area = digits.slice(0, 2);
  const local = digits.slice(2);
  if (local.length === 9 && !local.startsWith('9')) return text;
  const cut = local.length - 4;
  return `+55 (${area}) ${local.slice(0, cut)}-${local.slice(cut)}`;
}

/**
 * A PIX key as its type is written: a phone key (`+55…`), a CPF (11 digits) or a
 * CNPJ (14); e-mail and random keys, and anything else, as they are.
 */
export function formatPixKey(text: string): string {
  if (text.startsWith('+')) return formatPhone(text);
  if (/^\d{11}$/.test(text)) return formatCpf(text);
  if (/^\d{14}$/.test(text)) return formatCnpj(text);
  return text;
}
