import type { PixKeyType, WithdrawalMethod, WithdrawRequest } from '../api/types.js';
import { usageError } from '../errors.js';
import { parseBankAccountId, parsePixKeyFor, parsePixKeyType, parsePostbackUrl, parseWithdrawalAmount, type PixKeyFor } from '../validation/flags.js';

/**
 * The parser of each field of a withdrawal, whoever gives it: a flag of `withdraw
 * pix|card|boleto` (and so the answer to its prompt) or a cell of a batch's CSV.
 */
export const WITHDRAW_PARSERS = {
  amount: parseWithdrawalAmount,
  bankAccount: parseBankAccountId,
  pixKeyType: parsePixKeyType,
  pixKey: parsePixKeyFor,
  postbackUrl: parsePostbackUrl,
} as const;

export type WithdrawField = keyof typeof WITHDRAW_PARSERS;

/** The fields a method requires: PIX also the key and its type. */
export const requiredWithdrawFields = (method: WithdrawalMethod): readonly WithdrawField[] =>
  method === 'pix' ? ['amount', 'bankAccount', 'pixKeyType', 'pixKey'] : ['amount', 'bankAccount'];

/** The fields a method takes: those it requires, and a postback URL. */
export const withdrawFieldsOf = (method: WithdrawalMethod): readonly WithdrawField[] => [...requiredWithdrawFields(method), 'postbackUrl'];

/** One withdrawal, each field through its parser. */
export type WithdrawValues = { readonly amount: number; readonly bankAccount: number; readonly postbackUrl?: string | undefined } & (
  | { readonly method: 'pix'; readonly pixKeyType: PixKeyType; readonly pixKey: PixKeyFor }
  | { readonly method: Exclude<WithdrawalMethod, 'pix'> }
);

/**
 * The request body of one withdrawal, for the single command and every batch row
 * alike. The rule between fields is applied here: a PIX key must be valid for its
 * type (a usage error naming the flag or column that gave the key).
 */
export function withdrawRequestOf(values: WithdrawValues): WithdrawRequest {
  const common = { amount: values.amount, bankAccountId: values.bankAccount, ...(values.postbackUrl ? { postbackUrl: values.postbackUrl } : {}) };
  return values.method === 'pix'
    ? { withdrawalMethod: 'pix', ...common, pixKeyType: values.pixKeyType, pixKey: values.pixKey(values.pixKeyType) }
    : { withdrawalMethod: values.method, ...common };
}

/** The raw text of one withdrawal's fields, as a CSV row gives them. */
export type WithdrawFields = { readonly [F in WithdrawField]?: string };

/** How a field is named in messages, e.g. `pix_key` for a CSV column. */
export type FieldLabel = (field: WithdrawField) => string;

/**
 * One withdrawal's request from the text of its fields (those the method takes):
 * a missing or blank required field is named, then each is parsed by its parser,
 * a usage error naming the field (through `label`) and the rule.
 */
export function parseWithdrawRequest(method: WithdrawalMethod, fields: WithdrawFields, label: FieldLabel): WithdrawRequest {
  const given = (field: WithdrawField) => (fields[field]?.trim() ?? '') !== '';
  const missing = requiredWithdrawFields(method).filter((field) => !given(field));
  if (missing.length > 0) throw usageError(`missing ${missing.map(label).join(', ')}`);
  // Required fields are given (refused above when not); an absent one would read as blank, which its parser refuses.
  const text = (field: WithdrawField) => fields[field] ?? '';
  const common = {
    amount: WITHDRAW_PARSERS.amount(label('amount'), text('amount')),
    bankAccount: WITHDRAW_PARSERS.bankAccount(label('bankAccount'), text('bankAccount')),
    postbackUrl: given('postbackUrl') ? WITHDRAW_PARSERS.postbackUrl(label('postbackUrl'), text('postbackUrl')) : undefined,
  };
  if (method !== 'pix') return withdrawRequestOf({ method, ...common });
  return withdrawRequestOf({
    method,
    ...common,
    pixKeyType: WITHDRAW_PARSERS.pixKeyType(label('pixKeyType'), text('pixKeyType')),
    pixKey: WITHDRAW_PARSERS.pixKey(label('pixKey'), text('pixKey')),
  });
}
