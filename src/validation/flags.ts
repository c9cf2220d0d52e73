import { AMOUNT_FILTER, BRAZILIAN_STATES, PIX_KEY_TYPES, SPLIT_AMOUNT, SUBSCRIPTION_AMOUNT, WITHDRAWAL_AMOUNT, type PixKeyType } from '../api/types.js';
import { usageError } from '../errors.js';
import { formatCents } from '../money.js';
import { isCalendarDate, isEmail, isoDay, isPixKeyType, isPlausibleBirthdate, isUuid, isValidCnpj, isValidCpf, isValidCpfOrCnpj, isValidPixPhone, passesLuhn, withoutCountryCode } from './rules.js';
import { characterCount, clip } from '../text.js';

/**
 * Every check a flag or prompted value goes through before anything is sent.
 * Each parser takes the flag name (for the message) and the raw text, and
 * returns the typed value or throws a usage error naming the flag and the rule.
 * `check*` variants return the problem as text, for prompts.
 */
export type Parser<T> = (flag: string, raw: string) => T;

const fail = (flag: string, raw: string, rule: string) =>
  usageError(`${flag} ${JSON.stringify(clip(raw))} is invalid: ${rule}`);

/** Turns a parser into a prompt validator: undefined when fine, else the rule. */
export function asPromptCheck<T>(parse: Parser<T>, flag: string): (value: string) => string | undefined {
  return (value) => {
    try {
      parse(flag, value);
      return undefined;
    } catch (error) {
      return (error as Error).message.replace(/^.*? is invalid: /, '');
    }
  };
}

export const parseUuid: Parser<string> = (flag, raw) => {
  if (!isUuid(raw)) throw fail(flag, raw, 'must be a UUID such as 3f2b8c1e-0d4a-4b6e-9a7c-2e5d1f0a9b3c');
  return raw.toLowerCase();
};

export function parseInteger(flag: string, raw: string, min: number, max = Number.MAX_SAFE_INTEGER): number {
  if (!/^-?\d+$/.test(raw.trim())) throw fail(flag, raw, `must be a whole number from ${min}${max < Number.MAX_SAFE_INTEGER ? ` to ${max}` : ''}`);
  const value = Number(raw.trim());
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw fail(flag, raw, `must be a whole number from ${min}${max < Number.MAX_SAFE_INTEGER ? ` to ${max}` : ''}`);
  }
  return value;
}

export const parsePage: Parser<number> = (flag, raw) => parseInteger(flag, raw, 1);
export const parseLimit: Parser<number> = (flag, raw) => parseInteger(flag, raw, 1, 100);
export const parseBankAccountId: Parser<number> = (flag, raw) => parseInteger(flag, raw, 1);

/**
 * A bank account to read or delete, by the id the API showed: every digit kept, as
 * an id too big for a double is shown (a bigint then, as src/http/json.ts reads it).
 */
export const parseBankAccountRef: Parser<number | bigint> = (flag, raw) => {
  const text = raw.trim();
  if (!/^\d+$/.test(text) || /^0+$/.test(text)) throw fail(flag, raw, 'must be a whole number from 1');
  const value = Number(text);
  return Number.isSafeInteger(value) ? value : BigInt(text);
};

/**
 * Cents from reais as written in Brazil: `1.234,56`, `R$ 1.234,56`, `1234,56`, `12,5`, `12`
 * (dots only between groups of three digits, at most two decimals after the comma).
 * Undefined when the text is not such an amount. Exact: digits are joined as text and
 * read as an integer, never through a floating-point number.
 */
export function brlCents(raw: string): number | undefined {
  const [, whole, decimals = ''] = /^(?:R\$\s*)?(\d{1,3}(?:\.\d{3})+|\d+)(?:,(\d{1,2}))?$/i.exec(raw.trim()) ?? [];
  if (whole === undefined) return undefined;
  const cents = Number(`${whole.replace(/\./g, '')}${decimals.padEnd(2, '0')}`);
  return Number.isSafeInteger(cents) ? cents : undefined;
}

/**
 * What integer cents text that is not would be, read as reais: Brazil's way
 * (`1.234,56`, `R$ 12`), or a dot before one or two decimals (`12.34`). Undefined
 * for plain digits (already cents) and for text that is no amount at all.
 */
export function centsIfReais(raw: string): number | undefined {
  const text = raw.trim();
  if (/^\d+$/.test(text)) return undefined;
  const dotted = /^(\d+)\.(\d{1,2})$/.exec(text);
  return dotted ? brlCents(`${dotted[1]},${dotted[2]}`) : brlCents(text);
}

const minimumRule = (minimum: number) => (minimum ? `, at least ${minimum}` : '');

/**
 * Integer cents, as the API takes money, from `minimum` to `maximum`; `12.34` and `R$ 12`
 * are refused with the cents they would be.
 */
export function parseCents(flag: string, raw: string, minimum = 0, maximum = Number.MAX_SAFE_INTEGER): number {
  const text = raw.trim();
  const asReais = centsIfReais(text);
  if (asReais !== undefined) throw fail(flag, raw, `amounts are integer cents${minimumRule(minimum)}: as reais, ${text} is ${asReais} cents`);
  if (/[.,]|R\$/i.test(text)) throw fail(flag, raw, `amounts are integer cents${minimumRule(minimum)} (R$ 12,34 is 1234)`);
  if (!/^\d+$/.test(text)) throw fail(flag, raw, `must be integer cents${minimumRule(minimum)} (R$ 12,34 is 1234)`);
  const value = Number(text);
  if (!Number.isSafeInteger(value)) throw fail(flag, raw, 'is too large');
  if (value < minimum) throw fail(flag, raw, `must be at least ${minimum} cents (${formatCents(minimum)})`);
  if (value > maximum) throw fail(flag, raw, `must be at most ${maximum} cents (${formatCents(maximum)})`);
  return value;
}


/**
 * Reais as written in Brazil (`1.234,56`, `R$ 1.234,56`, `1234,56`), as integer cents
 * (brlCents); anything else is refused naming the forms taken.
 */
export function parseBrl(flag: string, raw: string, minimum = 0, maximum = Number.MAX_SAFE_INTEGER): number {
  const cents = brlCents(raw);
  if (cents === undefined) {
    throw fail(flag, raw, 'must be reais as written in Brazil, such as 1.234,56 or R$ 1.234,56 (a comma before at most two decimals, dots between thousands)');
  }
  if (cents < minimum) throw fail(flag, raw, `must be at least ${formatCents(minimum)}`);
  if (cents > maximum) throw fail(flag, raw, `must be at most ${formatCents(maximum)}`);
  return cents;
}

/** A withdrawal's amount in cents, within the API document's range for it. */
export const parseWithdrawalAmount: Parser<number> = (flag, raw) => parseCents(flag, raw, WITHDRAWAL_AMOUNT.minimum, WITHDRAWAL_AMOUNT.maximum);

/** A withdrawal's amount in reais as written in Brazil, within the same range. */
export const parseWithdrawalReais: Parser<number> = (flag, raw) => parseBrl(flag, raw, WITHDRAWAL_AMOUNT.minimum, WITHDRAWAL_AMOUNT.maximum);

/** A subscription's amount in cents, within the API document's range for it. */
export const parseSubscriptionAmount: Parser<number> = (flag, raw) => parseCents(flag, raw, SUBSCRIPTION_AMOUNT.minimum, SUBSCRIPTION_AMOUNT.maximum);

/** A fixed split's amount in cents, within the API document's range for it. */
export const parseSplitAmount: Parser<number> = (flag, raw) => parseCents(flag, raw, SPLIT_AMOUNT.minimum, SPLIT_AMOUNT.maximum);

/** An amount the subscription list filters by, within the API document's range for its query. */
export const parseAmountFilter: Parser<number> = (flag, raw) => parseCents(flag, raw, AMOUNT_FILTER.minimum, AMOUNT_FILTER.maximum);

export const parsePercentage: Parser<number> = (flag, raw) => {
  if (!/^\d{1,3}(\.\d{1,2})?$/.test(raw.trim())) throw fail(flag, raw, 'must be a number from 0.01 to 100 with at most 2 decimals');
  const value = Number(raw.trim());
  if (value <= 0 || value > 100) throw fail(flag, raw, 'must be a number from 0.01 to 100 with at most 2 decimals');
  return value;
};

/**
 * A timeout in seconds, more than 0 and at most an hour (`--timeout`, `PAYCTL_TIMEOUT`). The
 * message reads the same for the flag and the variable: `PAYCTL_TIMEOUT "soon" must be …`.
 */
export const parseTimeout: Parser<number> = (flag, raw) => {
  if (!/^\d+(\.\d+)?$/.test(raw) || Number(raw) <= 0 || Number(raw) > 3600) {
    throw usageError(`${flag} ${JSON.stringify(clip(raw))} must be a number of seconds greater than 0 and at most 3600`);
  }
  return Number(raw);
};

/** A share from 0 to 1, such as 0.25 (a quarter). */
export const parseShare: Parser<number> = (flag, raw) => {
  if (!/^(0(\.\d+)?|1(\.0+)?|\.\d+)$/.test(raw.trim())) throw fail(flag, raw, 'must be a share from 0 to 1, such as 0.25 for a quarter');
  return Number(raw.trim());
};

/** YYYY-MM-DD that exists on the calendar. */
export const parseDate: Parser<string> = (flag, raw) => {
  if (!isCalendarDate(raw)) throw fail(flag, raw, 'must be a date that exists, as YYYY-MM-DD');
  return raw;
};

export const parseEmail: Parser<string> = (flag, raw) => {
  if (characterCount(raw) > 254 || !isEmail(raw)) throw fail(flag, raw, 'must be an e-mail address such as ana@example.com');
  return raw;
};

/** The URL, when the text is one. */
function urlOf(raw: string): URL | undefined {
  try {
    return new URL(raw);
  } catch {
    return undefined;
  }
}

const isHttp = (url: URL | undefined): url is URL => url?.protocol === 'http:' || url?.protocol === 'https:';

export const parseUrl: Parser<string> = (flag, raw) => {
  if (!isHttp(urlOf(raw))) throw fail(flag, raw, 'must be an http(s) URL');
  return raw;
};

/**
 * The API's base URL (`--base-url`, `PAYCTL_BASE_URL`, a profile's), without its trailing
 * slashes. One that carries credentials is refused without being echoed.
 */
export const parseBaseUrl: Parser<string> = (flag, raw) => {
  const url = urlOf(raw);
  if (url?.username || url?.password) throw usageError(`${flag} is invalid: a base URL must not carry credentials (user:password@)`);
  if (!isHttp(url)) throw fail(flag, raw, 'must be an http or https URL, such as https://api.example.com');
  return url.toString().replace(/\/+$/, '');
};

/** An address the API calls on every status change (a withdrawal's postback); blanks around it are dropped. */
export const parsePostbackUrl: Parser<string> = (flag, raw) => parseUrl(flag, raw.trim());

const digitsOf = (raw: string) => raw.replace(/[.\-/\s]/g, '');

export const parseCpf: Parser<string> = (flag, raw) => {
  if (!isValidCpf(digitsOf(raw))) throw fail(flag, raw, 'must be a CPF with valid check digits (11 digits; dots and dash allowed)');
  return digitsOf(raw);
};

export const parseCnpj: Parser<string> = (flag, raw) => {
  if (!isValidCnpj(digitsOf(raw))) throw fail(flag, raw, 'must be a CNPJ with valid check digits (14 digits; dots, slash and dash allowed)');
  return digitsOf(raw);
};

export const parseDocument: Parser<string> = (flag, raw) => {
  const digits = digitsOf(raw);
  if (isValidCpfOrCnpj(digits)) return digits;
  throw fail(flag, raw, 'must be a CPF (11 digits) or CNPJ (14 digits) with valid check digits');
};

export const parseUf: Parser<string> = (flag, raw) => {
  const uf = raw.trim().toUpperCase();
  if (!(BRAZILIAN_STATES as readonly string[]).includes(uf)) throw fail(flag, raw, 'must be a Brazilian state as its two-letter UF, such as SP or RJ');
  return uf;
};

/** CEP: 8 digits, with or without the dash; the API takes it as an integer. */
export const parseCep: Parser<number> = (flag, raw) => {
  const digits = raw.trim().replace('-', '');
  if (!/^\d{8}$/.test(digits)) throw fail(flag, raw, 'must be a CEP of 8 digits, such as 01310-100');
  return Number(digits);
};

/** Brazilian phone: 10 or 11 digits with the area code, optionally +55. */
export const parsePhone: Parser<string> = (flag, raw) => {
  const digits = withoutCountryCode(raw.replace(/[\s()+\-.]/g, ''));
  if (!/^[1-9]{2}9?\d{8}$/.test(digits)) throw fail(flag, raw, 'must be a Brazilian phone with area code, such as +55 11 91234-5678');
  return digits;
};

export function parseNonEmpty(flag: string, raw: string, max = 200): string {
  if (raw.trim() === '') throw fail(flag, raw, 'must not be empty');
  return parseText(flag, raw, max);
}

/** Text of at most `max` characters, trimmed; empty is a value (the API takes an empty complement). */
export function parseText(flag: string, raw: string, max = 200): string {
  const text = raw.trim();
  // Counted as the API counts: code points (docs/decisions.md), so 60 🦄 fit where 60 are allowed.
  if (characterCount(text) > max) throw fail(flag, raw, `must be at most ${max} characters`);
  return text;
}

export function parseDigits(flag: string, raw: string, min: number, max: number, what = 'digits'): string {
  if (!new RegExp(`^\\d{${min},${max}}$`).test(raw)) throw fail(flag, raw, `must be ${min === max ? min : `${min} to ${max}`} ${what}`);
  return raw;
}

/** The value itself is never echoed: it is a secret. */
export const parseCardNumber: Parser<string> = (flag, raw) => {
  const digits = raw.replace(/[\s-]/g, '');
  if (!/^\d{13,16}$/.test(digits)) throw usageError(`${flag} is invalid: a card number is 13 to 16 digits`);
  if (!passesLuhn(digits)) throw usageError(`${flag} is invalid: the card number fails the Luhn check digit (a digit is mistyped)`);
  return digits;
};

/** A client secret or a token: anything but blank, never echoed. */
export const parseSecret: Parser<string> = (flag, raw) => {
  if (raw.trim() === '') throw usageError(`${flag} is invalid: must not be empty`);
  return raw;
};

export const parseSecurityCode: Parser<string> = (flag, raw) => {
  if (!/^\d{3,4}$/.test(raw.trim())) throw usageError(`${flag} is invalid: a security code is 3 or 4 digits`);
  return raw.trim();
};

export const parseExpirationMonth: Parser<string> = (flag, raw) => {
  if (!/^(0?[1-9]|1[0-2])$/.test(raw.trim())) throw fail(flag, raw, 'must be a month from 01 to 12');
  return raw.trim().padStart(2, '0');
};

export const parseExpirationYear: Parser<string> = (flag, raw) => {
  if (!/^\d{4}$/.test(raw.trim())) throw fail(flag, raw, 'must be a year of 4 digits, such as 2030');
  return raw.trim();
};

/** PIX key types: the API's names, and the short names operators type. */
export const PIX_KEY_TYPE_ALIASES: Record<string, string> = {
  cpf: 'DOCUMENT_CPF',
  cnpj: 'DOCUMENT_CNPJ',
  email: 'EMAIL',
  phone: 'PHONE',
  random: 'RANDOM',
};

export const parsePixKeyType: Parser<PixKeyType> = (flag, raw) => {
  const type = PIX_KEY_TYPE_ALIASES[raw.trim().toLowerCase()] ?? raw.trim().toUpperCase();
  if (!isPixKeyType(type)) throw fail(flag, raw, `must be one of ${PIX_KEY_TYPES.join(', ')} (or ${Object.keys(PIX_KEY_TYPE_ALIASES).join(', ')})`);
  return type;
};

/** A PIX key valid for its type, normalised the way the API stores it. */
export function parsePixKey(flag: string, raw: string, type: PixKeyType): string {
  const key = raw.trim();
  switch (type) {
    case 'DOCUMENT_CPF':
      if (!isValidCpf(digitsOf(key))) throw fail(flag, raw, 'a DOCUMENT_CPF key must be a CPF with valid check digits');
      return digitsOf(key);
    case 'DOCUMENT_CNPJ':
      if (!isValidCnpj(digitsOf(key))) throw fail(flag, raw, 'a DOCUMENT_CNPJ key must be a CNPJ with valid check digits');
      return digitsOf(key);
    case 'EMAIL':
      parseEmail(flag, key);
      return key.toLowerCase();
    case 'PHONE': {
      const phone = `+55${parsePhone(flag, key)}`;
      if (!isValidPixPhone(phone)) throw fail(flag, raw, 'a PHONE key is a mobile number: +55, an area code in use, then 9 and eight digits');
      return phone;
    }
    case 'RANDOM':
      if (!isUuid(key)) throw fail(flag, raw, 'a RANDOM key is the UUID the bank issued');
      return key.toLowerCase();
  }
}

/**
 * A PIX key as typed, waiting for its type: the key's rule depends on the type, which
 * may be given after it (another flag, column or answer), so the parser returns the
 * check bound to the flag that gave the key. Given the type, it returns the key as
 * parsePixKey does, or throws its usage error naming that flag.
 */
export type PixKeyFor = (type: PixKeyType) => string;

export const parsePixKeyFor: Parser<PixKeyFor> = (flag, raw) => (type) => parsePixKey(flag, raw, type);

/** A phone as the API stores it: +55 then area code and number. */
export const parseApiPhone: Parser<string> = (flag, raw) => `+55${parsePhone(flag, raw)}`;

/** A birthdate: a day that exists, not before 1900, not in the future. */
export const parseBirthdate: Parser<string> = (flag, raw) => {
  const date = parseDate(flag, raw.trim());
  if (!isPlausibleBirthdate(date, new Date())) throw fail(flag, raw, 'must be a birthdate from 1900-01-01 to today');
  return date;
};

/** A date from today on (expiration dates). */
export const parseFutureDate: Parser<string> = (flag, raw) => {
  const date = parseDate(flag, raw.trim());
  if (date < isoDay(new Date())) throw fail(flag, raw, 'must be today or later, as YYYY-MM-DD');
  return date;
};

/** Reais as a plain number (revenue, billing), at most 2 decimals; a dot separates the decimals. */
export const parseReaisNumber: Parser<number> = (flag, raw) => {
  const text = raw.trim();
  if (!/^\d{1,13}(\.\d{1,2})?$/.test(text)) throw fail(flag, raw, 'must be reais as a number with at most 2 decimals, such as 15000.50');
  return Number(text);
};

export const parseBankCode: Parser<string> = (flag, raw) => parseDigits(flag, raw.trim(), 3, 3, 'digits (the bank code, such as 001 or 341)');

export const parseAccountNumber: Parser<string> = (flag, raw) => {
  const text = raw.trim();
  if (!/^\d{1,20}(-[\dXx])?$/.test(text)) throw fail(flag, raw, 'must be up to 20 digits, optionally with a check digit after a dash, such as 123456-7');
  return text;
};

export const parseRoutingNumber: Parser<string> = (flag, raw) => {
  const text = raw.trim();
  if (!/^\d{1,8}(-[\dXx])?$/.test(text)) throw fail(flag, raw, 'must be the branch: up to 8 digits, optionally with a check digit after a dash, such as 0001');
  return text;
};

export const parseStreetNumber: Parser<number> = (flag, raw) => parseInteger(flag, raw, 0, 999999);

/** Days between charges, as the API takes it. */
export const parseFrequency: Parser<number> = (flag, raw) => parseInteger(flag, raw, 1, 365);

/** Milliseconds per unit of a span such as `24h`: s, m, h, d, w. */
export const SPAN_UNIT_MS: Readonly<Record<string, number>> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** A span written as a whole number and a unit (`30m`, `24h`, `7d`; s, m, h, d, w), in milliseconds, from `minMs` to `maxMs`. */
export function parseSpan(flag: string, raw: string, minMs: number, maxMs: number, bounds: string): number {
  const [, count, unit] = /^(\d+)\s*([smhdw])$/i.exec(raw.trim()) ?? [];
  const unitMs = unit === undefined ? undefined : SPAN_UNIT_MS[unit.toLowerCase()];
  const ms = unitMs === undefined ? NaN : Number(count) * unitMs;
  if (!(ms >= minMs && ms <= maxMs)) throw fail(flag, raw, `must be a span such as 30m, 24h or 7d (s, m, h, d, w), ${bounds}`);
  return ms;
}

/**
 * How far back a withdrawal looks for its twins on the platform (`profiles set
 * --duplicate-window`): at least a minute, and at most 30 days, a bound on how
 * much of the withdrawals list each withdrawal reads.
 */
export const parseDuplicateWindow: Parser<number> = (flag, raw) => parseSpan(flag, raw, 60_000, 30 * 86_400_000, 'from 1m to 30d');

/** Charge cycles of a subscription. */
export const parseDuration: Parser<number> = (flag, raw) => parseInteger(flag, raw, 1, 1200);

/** Picks one of a fixed set of values, ignoring case; the message lists them. */
export function parseChoice<T extends string>(flag: string, raw: string, choices: readonly T[]): T {
  const value = choices.find((choice) => choice.toLowerCase() === raw.trim().toLowerCase());
  if (!value) throw fail(flag, raw, `must be one of ${choices.join(', ')}`);
  return value;
}
