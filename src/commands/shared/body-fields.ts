import {
  parseAccountNumber,
  parseApiPhone,
  parseBankCode,
  parseBirthdate,
  parseCep,
  parseChoice,
  parseCnpj,
  parseCpf,
  parseDocument,
  parseEmail,
  parseNonEmpty,
  parseReaisNumber,
  parseRoutingNumber,
  parseStreetNumber,
  parseText,
  parseUf,
  type Parser,
} from '../../validation/flags.js';
import { longFlag, textOption, valueOption, type ValueOption } from '../spec.js';

/**
 * Body fields given by flags, a JSON file or a wizard (`subaccounts create`,
 * `customers update`): each is an option of its command, parsed like any other;
 * the file's values and the wizard's answers go through the same parser
 * (body-input.ts).
 */
export type FieldKind =
  | 'text'
  /** text the API takes empty too (an address's complement and reference) */
  | 'textOrEmpty'
  | 'email'
  | 'cpf'
  | 'cnpj'
  | 'document'
  | 'birthdate'
  | 'phone'
  | 'cep'
  | 'uf'
  | 'streetNumber'
  | 'reais'
  | 'bankCode'
  | 'accountNumber'
  | 'routingNumber'
  | 'choice';

export interface BodyField {
  /** Dot path in the request body; a number is an array index (`addresses.0.zipcode`). */
  readonly path: string;
  /** The option's key: `partnerCpf` is `--partner-cpf`. */
  readonly key: string;
  /** What the wizard asks. */
  readonly label: string;
  readonly kind: FieldKind;
  readonly required?: boolean;
  readonly choices?: readonly string[];
  /** Value when neither a flag nor the file gives one. */
  readonly default?: string;
  /** Longest text accepted (the API's limit). */
  readonly max?: number;
  /** Wizard section the field is asked in. */
  readonly section: string;
}

const RULES: Record<FieldKind, string> = {
  text: '',
  textOrEmpty: '',
  email: 'e-mail',
  cpf: 'CPF, check digits verified',
  cnpj: 'CNPJ, check digits verified',
  document: 'CPF or CNPJ, check digits verified',
  birthdate: 'YYYY-MM-DD',
  phone: 'Brazilian phone with area code',
  cep: 'CEP, 8 digits',
  uf: 'two-letter UF, such as SP',
  streetNumber: 'number',
  reais: 'reais, up to 2 decimals',
  bankCode: '3 digits',
  accountNumber: 'digits, optional -check digit',
  routingNumber: 'branch digits, optional -check digit',
  choice: '',
};

export function parserOf(field: BodyField): Parser<unknown> {
  switch (field.kind) {
    case 'text':
      return (flag, raw) => parseNonEmpty(flag, raw, field.max);
    case 'textOrEmpty':
      return (flag, raw) => parseText(flag, raw, field.max);
    case 'email':
      return parseEmail;
    case 'cpf':
      return parseCpf;
    case 'cnpj':
      return parseCnpj;
    case 'document':
      return parseDocument;
    case 'birthdate':
      return parseBirthdate;
    case 'phone':
      return parseApiPhone;
    case 'cep':
      return parseCep;
    case 'uf':
      return parseUf;
    case 'streetNumber':
      return parseStreetNumber;
    case 'reais':
      return parseReaisNumber;
    case 'bankCode':
      return parseBankCode;
    case 'accountNumber':
      return parseAccountNumber;
    case 'routingNumber':
      return parseRoutingNumber;
    case 'choice':
      return (flag, raw) => parseChoice(flag, raw, field.choices ?? []);
  }
}

export const fieldFlag = (field: BodyField): string => longFlag(field.key);

/** The parts of a field's rule its label does not already say: `E-mail` needs no "(e-mail)", `CEP` only "(8 digits)". */
function ruleBeyondLabel(field: BodyField): string {
  if (field.choices) return field.choices.join('|');
  const label = field.label.toLowerCase();
  return RULES[field.kind]
    .split(', ')
    .filter((part) => part !== '' && !label.includes(part.toLowerCase()))
    .join(', ');
}

/** The options of body fields, by key. */
export function fieldOptions<const F extends readonly BodyField[]>(fields: F): { readonly [K in F[number]['key']]: ValueOption<unknown> } {
  const options: Record<string, ValueOption<unknown>> = {};
  for (const field of fields) {
    const notes = [ruleBeyondLabel(field), field.required ? 'required' : '', field.default ? `default ${field.default}` : ''].filter(Boolean).join('; ');
    options[field.key] = valueOption('value', `${field.label}${notes ? ` (${notes})` : ''}`, parserOf(field), { values: field.choices });
  }
  return options as { readonly [K in F[number]['key']]: ValueOption<unknown> };
}

export const FROM_FILE_OPTION = textOption('file', "whole request body as JSON in the API's shape ('-' reads stdin); flags override its values", {
  complete: 'files',
});
