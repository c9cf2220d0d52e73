/**
 * Why a run ended, each name mapped to the contract's exit code. Several causes
 * share a number (the contract's table has seven); the names keep them apart in
 * the code, so that `apiRefused` means only what it says.
 */
export const ExitCode = {
  ok: 0,
  /** The API answered with its error body (or a 4xx without one): the request was refused. */
  apiRefused: 1,
  /** The server answered with a redirect, which payctl never follows (the token must not travel). */
  redirected: 1,
  /** This machine failed: a journal or an output that cannot be written, a full disk. */
  localFailure: 1,
  /** A batch ended with rows refused or not sent. */
  rowsNotPaid: 1,
  /** `withdraw … --wait`: the withdrawal was made and then FAILED (its amount went back to the balance). */
  withdrawalFailed: 1,
  /** A bug in payctl: an error it did not expect. */
  internalError: 1,
  usage: 2,
  auth: 3,
  /** The network, TLS or a timeout failed before the request could have taken effect: retrying is safe. */
  network: 4,
  /** HTTP 429: the API turned the request away for now, without acting on it; retry after a wait. */
  rateLimited: 4,
  /** HTTP 408: the server gave up waiting for the request, so it did not act on it. */
  serverStoppedWaiting: 4,
  /** A 5xx answer to a GET: the server failed, and a read changes nothing (a write so answered is `unknownOutcome`). */
  serverFailedOnRead: 4,
  /** An answer to a GET that is not the API's (a proxy's page, cut JSON, the wrong shape); a write so answered is `unknownOutcome`. */
  notApiAnswerToRead: 4,
  /** A GET's answer over 32 MiB, more than payctl reads: nothing changed, and asked again it would be as large. */
  answerTooLargeToRead: 4,
  /**
   * What every exit 4 says, whatever its cause: the request took no effect, so
   * retrying is safe. For reading an exit code back (the audit log's outcomes);
   * a failure takes the name of its cause.
   */
  tookNoEffect: 4,
  /** A POST, PUT or DELETE was sent and its outcome is unknown (no answer, a 5xx, an answer not the API's): check before retrying. */
  unknownOutcome: 5,
  /** `withdraw … --wait`: the withdrawal was made but not settled in time; check it before doing anything again. */
  stillPending: 5,
  interrupted: 130,
} as const;
export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

export const EXIT_CODE_TABLE: ReadonlyArray<[number, string]> = [
  [0, 'done'],
  [1, 'the API refused the request (its error body is shown)'],
  [2, 'usage or validation error, or a confirmation refused: nothing was sent'],
  [3, 'authentication: no token, expired token, 401 or 403'],
  [4, 'network or TLS failure, or timeout, before the request could have taken effect: safe to retry'],
  [5, 'outcome unknown: a POST, PUT or DELETE was sent and no answer came, or a 5xx came back; check before retrying'],
  [130, 'interrupted'],
];

export interface ErrorDetails {
  hint?: string;
  returnCode?: number;
  status?: number;
  /** A 429's `Retry-After`, in milliseconds, for a caller that waits it out itself. */
  retryAfterMs?: number;
  /** The request never reached the server (connection refused, DNS, a proxy that would not connect): nothing took effect. */
  neverReachedServer?: boolean;
  /**
   * The lines the command wrote on stderr before failing, which its message calls
   * `(listed above)`: in json modes stderr holds only the JSON error, so its message lists them.
   */
  listed?: readonly string[];
}

/** The one error type commands throw; main() renders it and exits with its code. */
export class PayctlError extends Error {
  readonly hint?: string;
  readonly returnCode?: number;
  readonly status?: number;
  readonly retryAfterMs?: number;
  readonly listed?: readonly string[];
  readonly neverReachedServer: boolean;

  constructor(
    message: string,
    readonly exitCode: ExitCodeValue,
    details: ErrorDetails = {},
  ) {
    super(message);
    this.name = 'PayctlError';
    this.hint = details.hint;
    this.returnCode = details.returnCode;
    this.status = details.status;
    this.retryAfterMs = details.retryAfterMs;
    this.neverReachedServer = details.neverReachedServer ?? false;
    this.listed = details.listed;
  }
}

/** `error` with `lines` listed too (see ErrorDetails.listed); an error not payctl's stays as it is. */
export const alsoListing = (error: unknown, lines: readonly string[]): unknown =>
  error instanceof PayctlError
    ? new PayctlError(error.message, error.exitCode, {
        hint: error.hint,
        returnCode: error.returnCode,
        status: error.status,
        retryAfterMs: error.retryAfterMs,
        neverReachedServer: error.neverReachedServer,
        listed: [...(error.listed ?? []), ...lines],
      })
    : error;

/** What an error line adds after its message: `returnCode N, HTTP S`, each when known; '' when neither is. */
export const answerDetail = ({ returnCode, status }: Pick<PayctlError, 'returnCode' | 'status'>): string =>
  [returnCode !== undefined ? `returnCode ${returnCode}` : '', status ? `HTTP ${status}` : ''].filter(Boolean).join(', ');

export const usageError = (message: string, hint?: string, listed?: readonly string[]) => new PayctlError(message, ExitCode.usage, { hint, listed });

/** Where a message says `(listed above)`: a JSON error (`listedInMessage`) puts the lines there instead. */
export const LISTED_ABOVE = '(listed above)';

/** The message with the lines its `(listed above)` stands for, for the JSON error, which is all stderr holds. */
export const listedInMessage = ({ message, listed }: Pick<PayctlError, 'message' | 'listed'>): string => {
  if (!listed || listed.length === 0) return message;
  const lines = `(${listed.map((line) => line.trim()).join('; ')})`;
  return message.includes(LISTED_ABOVE) ? message.replace(LISTED_ABOVE, lines) : `${message} ${lines}`;
};
export const authError = (message: string, details: ErrorDetails = {}) => new PayctlError(message, ExitCode.auth, details);

/**
 * Whether a failed request may still have moved money: an answer that is not
 * the API's, no answer, or any 5xx (the server may have failed after acting on
 * it), even one that carries the API's error body.
 */
export const mayHaveMoved = (error: PayctlError): boolean => error.exitCode === ExitCode.unknownOutcome || (error.status !== undefined && error.status >= 500);
