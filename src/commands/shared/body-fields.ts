import type { OptionSpec } from '../spec.js';

/**
 * Body fields given by flags, a JSON file or a wizard (`subaccounts create`,
 * `customers update`). This module is plain data, loaded with the command
 * tree for `--help`; parsing and prompting live in body-input.ts.
 */
export type FieldKind =
  | 'text'
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
  path: string;
  flag: string;
  /** What the wizard asks. */
  label: string;
  kind: FieldKind;
  required?: boolean;
  choices?: readonly string[];
  /** Value when neither a flag nor the file gives one. */
  default?: string;
  /** Longest text accepted (the API's limit). */
  max?: number;
  /** Wizard section the field is asked in. */
  section: string;
}

const RULES: Record<FieldKind, string> = {
  text: '',
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

/** The commander key of a flag: `--partner-cpf` → `partnerCpf`. */
export const optionKey = (flag: string) => flag.replace(/^--/, '').replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());

export function fieldOptions(fields: readonly BodyField[]): OptionSpec[] {
  return fields.map((field) => {
    const rule = field.choices ? field.choices.join('|') : RULES[field.kind];
    const notes = [rule, field.required ? 'required' : '', field.default ? `default ${field.default}` : ''].filter(Boolean).join('; ');
    return { flags: `${field.flag} <value>`, description: `${field.label}${notes ? ` (${notes})` : ''}`, values: field.choices };
  });
}

export const FROM_FILE_OPTION: OptionSpec = {
  flags: '--from-file <file>',
  description: "whole request body as JSON in the API's shape ('-' reads stdin); flags override its values",
  complete: 'files',
};
