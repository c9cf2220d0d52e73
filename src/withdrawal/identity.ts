import { parseApiTime } from '../api/time.js';
import type { WithdrawalMethod, WithdrawRequest } from '../api/types.js';
import { parsePixKey } from '../validation/flags.js';
import { isPixKeyType } from '../validation/rules.js';

/**
 * What makes two withdrawals the same payment: method, amount, bank account and,
 * for PIX, the key and its type. The duplicate guard of a single withdrawal and
 * the reconcile of a batch both match by it.
 */
export interface WithdrawalIdentity {
  method: WithdrawalMethod;
  amount: number;
  bankAccountId: number;
  pixKey?: string;
  /** Compared when known (a journal of an older payctl may lack it). */
  pixKeyType?: string;
  /**
   * Compared when given: --reconcile gives a row's, as a withdrawal notifying elsewhere is not the row's;
   * the twin check none, as a twin is the same payment whatever address hears of it.
   */
  postbackUrl?: string;
}

export const identityOf = (request: WithdrawRequest): WithdrawalIdentity => ({
  method: request.withdrawalMethod,
  amount: request.amount,
  bankAccountId: request.bankAccountId,
  ...(request.withdrawalMethod === 'pix' ? { pixKey: request.pixKey, pixKeyType: request.pixKeyType } : {}),
});

/**
 * How an item of the withdrawals list compares with a withdrawal payctl would make.
 * The list's shape is not trusted: an item missing a field the comparison needs (or
 * holding one of the wrong type) is `unsure`, never `different`, so that nothing is
 * sent again on the strength of an answer payctl could not read.
 */
export type Likeness = 'same' | 'different' | 'unsure';

export function compareWithdrawal(item: unknown, identity: WithdrawalIdentity): Likeness {
  if (!item || typeof item !== 'object') return 'unsure';
  const fields = item as Record<string, unknown>;
  // Every field the withdrawal has: two rows differing in any one of them are two payments.
  const wanted: Array<[string, unknown]> = [
    ['amount', identity.amount],
    ['withdrawalPaymentType', identity.method.toUpperCase()],
    ['bankAccountId', identity.bankAccountId],
  ];
  if (identity.method === 'pix') wanted.push(['pixKey', identity.pixKey]);
  // A key type is a name of a kind: its case says nothing.
  if (identity.pixKeyType !== undefined) wanted.push(['pixKeyType', identity.pixKeyType.toUpperCase()]);
  if (identity.postbackUrl !== undefined) wanted.push(['postbackUrl', addressOf(identity.postbackUrl)]);
  let unsure = typeof fields.id !== 'string';
  for (const [name, value] of wanted) {
    const raw = fields[name];
    const actual =
      typeof raw !== 'string'
        ? raw
        : name === 'pixKeyType'
          ? raw.toUpperCase()
          : name === 'pixKey'
            ? keyAsPayctlSends(raw, fields.pixKeyType ?? identity.pixKeyType)
            : name === 'postbackUrl'
              ? addressOf(raw)
              : raw;
    if (typeof actual !== typeof value) unsure = true;
    else if (actual !== value) return 'different';
  }
  return unsure ? 'unsure' : 'same';
}

/**
 * A listed PIX key as payctl would have sent it: another tool may have sent it as typed (`Ana@Example.COM`,
 * a CPF with dots), and it is still the same key. As listed when its type is unknown or it is not valid.
 */
function keyAsPayctlSends(key: string, type: unknown): string {
  const kind = typeof type === 'string' ? type.toUpperCase() : '';
  if (!isPixKeyType(kind)) return key;
  try {
    return parsePixKey('pixKey', key, kind);
  } catch {
    return key;
  }
}

/** A postback URL however spelled (`HTTP://Host:80/a` is `http://host/a`); as given when it is not a URL. */
function addressOf(url: string): string {
  try {
    return new URL(url).href;
  } catch {
    return url;
  }
}

/** An item's `createdAt` in milliseconds (UTC when it has no zone), or undefined when it is missing or not a date-time. */
export function createdAtOf(item: unknown): number | undefined {
  const text = item && typeof item === 'object' ? (item as Record<string, unknown>).createdAt : undefined;
  return typeof text === 'string' ? parseApiTime(text) : undefined;
}

export const idOf = (item: unknown): string | undefined => {
  const id = item && typeof item === 'object' ? (item as Record<string, unknown>).id : undefined;
  return typeof id === 'string' ? id : undefined;
};

/** What a read learnt about a withdrawal that may be one of unknown outcome: found (with its id and status), or known not made. */
export interface WithdrawalFinding {
  identity: WithdrawalIdentity;
  /** The sub-account; null for the main account. */
  account: string | null;
  found?: { id: string; status: string; createdAt?: number };
}
