/**
 * Every error the sandbox answers, with its return code and HTTP status. The
 * reference fixes -7508, -7100 and -7404; the contract fixes 401/403; the rest
 * is the sandbox's own (see docs/sandbox.md, whose table lists exactly these).
 */
export const RETURN_CODES = {
  internal: { returnCode: -7000, status: 500, meaning: 'unexpected server error' },
  validation: { returnCode: -7001, status: 400, meaning: 'request body invalid (schema or field rule)' },
  invalidQuery: { returnCode: -7002, status: 400, meaning: 'query parameter invalid, unknown or repeated' },
  malformedJson: { returnCode: -7003, status: 400, meaning: 'body is not well-formed UTF-8 JSON' },
  bodyTooLarge: { returnCode: -7004, status: 413, meaning: 'body larger than 1 MiB' },
  unsupportedMediaType: { returnCode: -7005, status: 415, meaning: 'body sent without Content-Type application/json' },
  invalidId: { returnCode: -7006, status: 400, meaning: 'path identifier of the wrong shape' },
  invalidSubaccountHeader: { returnCode: -7007, status: 400, meaning: 'x-subaccount-id is not a UUID' },
  routeNotFound: { returnCode: -7008, status: 404, meaning: 'no such route' },
  methodNotAllowed: { returnCode: -7009, status: 405, meaning: 'route exists, method does not' },
  rateLimited: { returnCode: -7010, status: 429, meaning: 'rate limit exceeded (sandbox started with a rate limit): retry after Retry-After seconds' },
  injectedFailure: { returnCode: -7011, status: 503, meaning: 'service unavailable: a failure the sandbox was started to inject' },
  unauthorized: { returnCode: -7401, status: 401, meaning: 'bearer token missing, malformed, forged or expired' },
  invalidCredentials: { returnCode: -7402, status: 401, meaning: 'wrong clientId or clientSecret' },
  foreignSubaccount: { returnCode: -7403, status: 403, meaning: 'x-subaccount-id names a sub-account the company does not own' },
  listCustomersFailed: { returnCode: -7404, status: 400, meaning: 'customers could not be listed: invalid page/limit' },
  customerNotFound: { returnCode: -7501, status: 404, meaning: 'customer absent or another company’s' },
  addressIncomplete: { returnCode: -7502, status: 400, meaning: 'first address of a customer lacks fields' },
  cardNotFound: { returnCode: -7508, status: 400, meaning: 'tokenized card absent or another company’s' },
  cardNumberInvalid: { returnCode: -7509, status: 400, meaning: 'card number fails the Luhn check' },
  cardExpired: { returnCode: -7510, status: 400, meaning: 'card expiration month is in the past' },
  cardNotOfCustomer: { returnCode: -7511, status: 400, meaning: 'card token belongs to another customer' },
  subscriptionNotFound: { returnCode: -7601, status: 404, meaning: 'subscription absent or another company’s' },
  subscriptionCancelled: { returnCode: -7602, status: 409, meaning: 'subscription is DELETED: it cannot change again' },
  splitNotFound: { returnCode: -7603, status: 404, meaning: 'split absent from that subscription' },
  splitSumExceeded: { returnCode: -7604, status: 422, meaning: 'splits would exceed the amount left after the subscription fee' },
  subaccountNotFound: { returnCode: -7701, status: 404, meaning: 'sub-account absent or another company’s' },
  subaccountNotApproved: { returnCode: -7702, status: 422, meaning: 'sub-account is not APPROVED: it cannot receive splits' },
  bankAccountNotFound: { returnCode: -7100, status: 404, meaning: 'bank account absent or not in the context’s account' },
  withdrawalNotFound: { returnCode: -7101, status: 404, meaning: 'withdrawal absent or not in the context’s account' },
  insufficientBalance: { returnCode: -7102, status: 422, meaning: 'available balance of the method is short' },
  belowMinimum: { returnCode: -7103, status: 400, meaning: 'withdrawal amount below 100 cents' },
  withdrawalSettled: { returnCode: -7104, status: 409, meaning: 'withdrawal is no longer PENDING' },
  invalidPixKey: { returnCode: -7105, status: 400, meaning: 'PIX key not valid for its pixKeyType' },
  bankAccountInUse: { returnCode: -7106, status: 409, meaning: 'bank account has PENDING withdrawals' },
  balanceLimit: { returnCode: -7107, status: 422, meaning: 'credit would take a balance over the sandbox maximum' },
} as const;

export type ErrorKind = keyof typeof RETURN_CODES;

/** Thrown by handlers and the request pipeline; answered with the reference's error shape. */
export class ApiError extends Error {
  readonly status: number;
  readonly returnCode: number;

  constructor(
    readonly kind: ErrorKind,
    message: string = RETURN_CODES[kind].meaning,
    returnCode: number = RETURN_CODES[kind].returnCode,
    /** extra response headers, e.g. Allow or WWW-Authenticate */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = RETURN_CODES[kind].status;
    this.returnCode = returnCode;
  }

  toBody() {
    return { data: { message: this.message, returnCode: this.returnCode } };
  }
}

/** The error kind whose return code is `returnCode` (for codes carried by the OpenAPI document). */
export function errorKindOfReturnCode(returnCode: number): ErrorKind | undefined {
  return (Object.keys(RETURN_CODES) as ErrorKind[]).find((kind) => RETURN_CODES[kind].returnCode === returnCode);
}
