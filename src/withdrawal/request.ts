import type { PixKeyType, WithdrawalMethod, WithdrawRequest } from '../api/types.js';
import { usageError } from '../errors.js';
import { parseBankAccountId, parsePixKey, parsePixKeyType, parseUrl, parseWithdrawalAmount } from '../validate.js';

/** The raw text of one withdrawal's fields, as a CSV row gives them. */
export interface WithdrawFields {
  amount?: string;
  bankAccount?: string;
  pixKeyType?: string;
  pixKey?: string;
  postbackUrl?: string;
}

export type WithdrawField = keyof WithdrawFields;

/** The fields a method needs; postbackUrl is optional everywhere. */
const requiredWithdrawFields = (method: WithdrawalMethod): WithdrawField[] =>
  method === 'pix' ? ['amount', 'bankAccount', 'pixKeyType', 'pixKey'] : ['amount', 'bankAccount'];

/** How a field is named in messages, e.g. `line 3: amount` for a CSV. */
export type FieldLabel = (field: WithdrawField) => string;

/** The fields that are given, each checked by its rule. */
interface GivenWithdrawFields {
  amount?: number;
  bankAccountId?: number;
  pixKeyType?: PixKeyType;
  pixKey?: string;
  postbackUrl?: string;
}

const isGiven = (fields: WithdrawFields, field: WithdrawField) => fields[field] !== undefined && fields[field]!.trim() !== '';

/**
 * Checks every given field by its rule (a usage error naming the field, through
 * `label`); missing fields are left out. Card and boleto withdrawals take no PIX fields.
 */
function parseGivenWithdrawFields(method: WithdrawalMethod, fields: WithdrawFields, label: FieldLabel): GivenWithdrawFields {
  const given = (field: WithdrawField) => isGiven(fields, field);
  if (method !== 'pix') {
    const stray = (['pixKeyType', 'pixKey'] as const).filter(given);
    if (stray.length > 0) throw usageError(`${stray.map(label).join(', ')}: only PIX withdrawals take a PIX key`);
  }
  const pixKeyType = given('pixKeyType') ? parsePixKeyType(label('pixKeyType'), fields.pixKeyType!) : undefined;
  return {
    amount: given('amount') ? parseWithdrawalAmount(label('amount'), fields.amount!) : undefined,
    bankAccountId: given('bankAccount') ? parseBankAccountId(label('bankAccount'), fields.bankAccount!) : undefined,
    pixKeyType,
    pixKey: pixKeyType && given('pixKey') ? parsePixKey(label('pixKey'), fields.pixKey!, pixKeyType) : undefined,
    postbackUrl: given('postbackUrl') ? parseUrl(label('postbackUrl'), fields.postbackUrl!.trim()) : undefined,
  };
}

/**
 * Validates one withdrawal's fields and builds the request body. Throws a usage
 * error naming the field (through `label`) and the rule; a missing required
 * field is named too.
 */
export function parseWithdrawRequest(method: WithdrawalMethod, fields: WithdrawFields, label: FieldLabel): WithdrawRequest {
  const missing = requiredWithdrawFields(method).filter((field) => !isGiven(fields, field));
  if (missing.length > 0) throw usageError(`missing ${missing.map(label).join(', ')}`);
  const { amount, bankAccountId, pixKeyType, pixKey, postbackUrl } = parseGivenWithdrawFields(method, fields, label);
  const common = { amount: amount!, bankAccountId: bankAccountId!, ...(postbackUrl ? { postbackUrl } : {}) };
  return method === 'pix' ? { withdrawalMethod: 'pix', ...common, pixKeyType: pixKeyType!, pixKey: pixKey! } : { withdrawalMethod: method, ...common };
}
