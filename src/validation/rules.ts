/** Rules of Brazilian documents, cards, PIX keys and dates: one definition for payctl's validators and the sandbox. */
import { PIX_KEY_TYPES, type PixKeyType } from '../api/types.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// Deliberately simple: one @, no spaces, a dot in the domain.
const EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Area codes (DDD) in use in Brazil. */
export const BRAZILIAN_AREA_CODES: readonly string[] = (
  '11 12 13 14 15 16 17 18 19 21 22 24 27 28 31 32 33 34 35 37 38 41 42 43 44 45 46 47 48 49 51 53 54 55 ' +
  '61 62 63 64 65 66 67 68 69 71 73 74 75 77 79 81 82 83 84 85 86 87 88 89 91 92 93 94 95 96 97 98 99'
).split(' ');
const AREA_CODES = new Set(BRAZILIAN_AREA_CODES);

export const isUuid = (text: string) => UUID.test(text);
export const isEmail = (text: string) => EMAIL.test(text);

/** Check digit of the mod-11 scheme shared by CPF and CNPJ. */
function mod11Digit(digits: string, weights: readonly number[]): number {
  let sum = 0;
  for (const [i, weight] of weights.entries()) sum += Number(digits[i]) * weight;
  const rest = sum % 11;
  return rest < 2 ? 0 : 11 - rest;
}

const CPF_WEIGHTS_1 = [10, 9, 8, 7, 6, 5, 4, 3, 2];
const CPF_WEIGHTS_2 = [11, 10, 9, 8, 7, 6, 5, 4, 3, 2];
const CNPJ_WEIGHTS_1 = [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
const CNPJ_WEIGHTS_2 = [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];

/** A CPF from its first 9 digits. */
export function completeCpf(base9: string): string {
  const first = base9 + mod11Digit(base9, CPF_WEIGHTS_1);
  return first + mod11Digit(first, CPF_WEIGHTS_2);
}

/** A CNPJ from its first 12 digits. */
export function completeCnpj(base12: string): string {
  const first = base12 + mod11Digit(base12, CNPJ_WEIGHTS_1);
  return first + mod11Digit(first, CNPJ_WEIGHTS_2);
}

const allSameDigit = (digits: string) => /^(\d)\1*$/.test(digits);

export const isValidCpf = (text: string) => /^\d{11}$/.test(text) && !allSameDigit(text) && completeCpf(text.slice(0, 9)) === text;
export const isValidCnpj = (text: string) => /^\d{14}$/.test(text) && !allSameDigit(text) && completeCnpj(text.slice(0, 12)) === text;
export const isValidCpfOrCnpj = (text: string) => isValidCpf(text) || isValidCnpj(text);

/** A Brazilian phone's digits without the 55 country code, when they carry it before 10 or 11 digits. */
export const withoutCountryCode = (digits: string) => digits.replace(/^55(?=\d{10,11}$)/, '');

/** Mobile number as PIX uses it: +55, a DDD in use, then 9 and eight digits. */
export function isValidPixPhone(text: string): boolean {
  const areaCode = /^\+55(\d{2})9\d{8}$/.exec(text)?.[1];
  return areaCode !== undefined && AREA_CODES.has(areaCode);
}

/** Whether `value` names one of the API's PIX key types (as the API spells it). */
export function isPixKeyType(value: string): value is PixKeyType {
  return (PIX_KEY_TYPES as readonly string[]).includes(value);
}

/** Whether `key` is a valid PIX key of `type` (e-mail keys are limited to 77 characters by the PIX rules). */
export function isValidPixKey(type: PixKeyType, key: string): boolean {
  switch (type) {
    case 'DOCUMENT_CPF':
      return isValidCpf(key);
    case 'DOCUMENT_CNPJ':
      return isValidCnpj(key);
    case 'EMAIL':
      return key.length <= 77 && isEmail(key);
    case 'PHONE':
      return isValidPixPhone(key);
    case 'RANDOM':
      return isUuid(key);
  }
}

export function passesLuhn(cardNumber: string): boolean {
  let sum = 0;
  for (let i = 0; i < cardNumber.length; i++) {
    let digit = Number(cardNumber[cardNumber.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/** Card networks by number prefix; the first matching row wins (Elo and Hipercard overlap Visa/Discover ranges). */
const BRAND_PREFIXES: ReadonlyArray<[string, RegExp]> = [
  ['Elo', /^(4011|4312|4389|4514|4576|5041|5066|5067|509|6277|6362|6363|650|6516|6550)/],
  ['Hipercard', /^(606282|3841)/],
  ['Amex', /^3[47]/],
  ['Diners', /^(30[0-5]|36|38)/],
  ['JCB', /^35/],
  ['Discover', /^(6011|65)/],
  ['Mastercard', /^(5[1-5]|2(2[2-9]|[3-6]\d|7[01]|720))/],
  ['Visa', /^4/],
];

export function cardBrand(cardNumber: string): string {
  return BRAND_PREFIXES.find(([, prefix]) => prefix.test(cardNumber))?.[0] ?? 'Unknown';
}

/** A card is usable through the end of its expiration month (UTC). */
export function isCardExpired(month: string, year: string, now: Date): boolean {
  const currentMonthIndex = now.getUTCFullYear() * 12 + now.getUTCMonth();
  return Number(year) * 12 + (Number(month) - 1) < currentMonthIndex;
}

/** Whether a YYYY-MM-DD string names a real calendar day (the schema checks the shape only loosely). */
export function isCalendarDate(text: string): boolean {
  const match = ISO_DATE.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

export const isoDay = (date: Date) => date.toISOString().slice(0, 10);

/** A birthdate a person can have: a real day, not before 1900, not after today. */
export const isPlausibleBirthdate = (text: string, now: Date) => isCalendarDate(text) && text >= '1900-01-01' && text <= isoDay(now);

/** Text as searches compare it: without accents (NFD, combining marks removed) or case, so "CAFE" finds "Café". */
export const foldForSearch = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
