import type { PixKeyType, WithdrawalMethod, WithdrawRequest } from '../../api/types.js';
import { usageError } from '../../errors.js';
import { parseBankAccountId, parsePixKey, parsePixKeyType, parseUrl, parseWithdrawalAmount } from '../../validate.js';

/** The raw text of one withdrawal's fields, as flags or a CSV row give them. */
export interface WithdrawFields {
  amount?: string;
  bankAccount?: string;
  pixKeyType?: string;
  pixKey?: string;
  postbackUrl?: string;
}

export type WithdrawField = keyof WithdrawFields;

export const WITHDRAW_FLAGS: Readonly<Record<WithdrawField, string>> = {
  amount: '--amount',
  bankAccount: '--bank-account',
  pixKeyType: '--pix-key-type',
  pixKey: '--pix-key',
  postbackUrl: '--postback-url',
};

/** The fields a method needs; postbackUrl is optional everywhere. */
export const requiredWithdrawFields = (method: WithdrawalMethod): WithdrawField[] =>
  method === 'pix' ? ['amount', 'bankAccount', 'pixKeyType', 'pixKey'] : ['amount', 'bankAccount'];

/** How a field is named in messages: its flag by default, e.g. `row 3 amount` for a CSV. */
export type FieldLabel = (field: WithdrawField) => string;
const byFlag: FieldLabel = (field) => WITHDRAW_FLAGS[field];

/**
 * Validates one withdrawal's fields and builds the request body. Throws a usage
 * error naming the field (through `label`) and the rule; a missing required
 * field is named too. Card and boleto withdrawals take no PIX fields.
 */
export function parseWithdrawRequest(method: WithdrawalMethod, fields: WithdrawFields, label: FieldLabel = byFlag): WithdrawRequest {
  const given = (field: WithdrawField) => fields[field] !== undefined && fields[field]!.trim() !== '';
  const missing = requiredWithdrawFields(method).filter((field) => !given(field));
  if (missing.length > 0) throw usageError(`missing ${missing.map(label).join(', ')}`);
  const amount = parseWithdrawalAmount(label('amount'), fields.amount!);
  const bankAccountId = parseBankAccountId(label('bankAccount'), fields.bankAccount!);
  const postbackUrl = given('postbackUrl') ? parseUrl(label('postbackUrl'), fields.postbackUrl!.trim()) : undefined;
  if (method !== 'pix') {
    const stray = (['pixKeyType', 'pixKey'] as const).filter(given);
    if (stray.length > 0) throw usageError(`${stray.map(label).join(', ')}: only PIX withdrawals take a PIX key`);
    return { withdrawalMethod: method, amount, bankAccountId, ...(postbackUrl ? { postbackUrl } : {}) };
  }
  const pixKeyType: PixKeyType = parsePixKeyType(label('pixKeyType'), fields.pixKeyType!);
  const pixKey = parsePixKey(label('pixKey'), fields.pixKey!, pixKeyType);
  return { withdrawalMethod: 'pix', amount, bankAccountId, pixKeyType, pixKey, ...(postbackUrl ? { postbackUrl } : {}) };
}
