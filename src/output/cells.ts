import { formatCep, formatCnpj, formatCpf, formatDocument, formatPhone, formatPixKey } from './brazil.js';
import { formatCents, formatReais } from '../money.js';
import { visible } from './sanitize.js';
import { formatLocalTime } from './time.js';
import type { ColumnKind } from './views.js';

/** A value as text, the way json, csv and tsv carry it: objects and arrays as JSON, no value as nothing. */
export function rawText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** Applies a string formatter to strings only; anything else reads as its raw text. */
const ifString = (format: (text: string) => string) => (value: unknown) => (typeof value === 'string' ? format(value) : rawText(value));

const FORMATS: Readonly<Record<ColumnKind, (value: unknown) => string>> = {
  id: rawText,
  status: rawText,
  cents: (value) => (typeof value === 'number' ? formatCents(value) : rawText(value)),
  reais: (value) => (typeof value === 'number' ? formatReais(value) : rawText(value)),
  boolean: (value) => (typeof value === 'boolean' ? (value ? 'yes' : 'no') : rawText(value)),
  list: (value) => (Array.isArray(value) ? String(value.length) : rawText(value)),
  days: (value) => (typeof value === 'number' ? `${value} day${value === 1 ? '' : 's'}` : rawText(value)),
  time: ifString(formatLocalTime),
  cpf: ifString(formatCpf),
  cnpj: ifString(formatCnpj),
  document: ifString(formatDocument),
  phone: ifString(formatPhone),
  pixKey: ifString(formatPixKey),
  cep: (value) => (typeof value === 'number' || typeof value === 'string' ? formatCep(value) : rawText(value)),
};

/** A field of no known kind, by what it holds: yes or no, a time (`…T…Z`) in the local zone, else its text. */
function formatByValue(value: unknown): string {
  if (typeof value === 'boolean') return FORMATS.boolean(value);
  if (typeof value === 'string') return formatLocalTime(value);
  return rawText(value);
}

/**
 * A table cell as people read it: formatted by its kind, then with its server
 * text made visible, or undefined when the field has no value (a table shows `-`).
 */
export function cellText(value: unknown, kind: ColumnKind | undefined): string | undefined {
  if (value === null || value === undefined) return undefined;
  return visible((kind ? FORMATS[kind] : formatByValue)(value));
}

/** How a column is fitted to the terminal: ids are never cut; values of bounded width are kept whole; text is cut. */
export type Fit = 'id' | 'whole' | 'text';

const WHOLE: ReadonlySet<ColumnKind> = new Set(['cents', 'reais', 'status', 'boolean', 'list', 'days', 'time', 'cpf', 'cnpj', 'document', 'cep', 'phone']);

export function fitOf(kind: ColumnKind | undefined): Fit {
  if (kind === 'id') return 'id';
  return kind && WHOLE.has(kind) ? 'whole' : 'text';
}

/** Money lines up on its last digit. */
export const alignOf = (kind: ColumnKind | undefined): 'left' | 'right' => (kind === 'cents' || kind === 'reais' ? 'right' : 'left');
