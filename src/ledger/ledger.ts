import type { RunConfig } from '../config/run.js';
import { ExitCode, PayctlError } from '../errors.js';
import type { Notices } from '../process-io.js';

/**
 * The ledger a profile shares with its team, shaped as Terraform's state
 * backends: the local files by default (the batch journal and the locks in the
 * config folder, as they are), or a PostgreSQL database named by the profile
 * (`profiles set NAME --ledger postgres://…`) or PAYCTL_LEDGER.
 */
export interface Ledger {
  /** `local`, or the database's URL (which never holds a password). */
  readonly name: string;
  /**
   * Claims withdrawals before they are sent, in one transaction with the day's total of their
   * accounts. Each is made, or refused (an exit 2 error in its place, the holder named) when another
   * claim holds it or the day's total would pass the limit; rejects (exit 4) when the ledger does not
   * answer. `intent`: the audit record of the write that sends it, kept in the claims' commit (and only
   * if its claim is made), in place of a commit of its own.
   */
  claimAll(entries: ReadonlyArray<{ request: ClaimRequest; intent?: object }>): Promise<Array<Claim | PayctlError>>;
  /**
   * Settles as never sent the claims in flight (not `unknown`) that runs of this user on this host left,
   * having ended, for rows of `file` among `keys`, which the caller knows were never sent.
   */
  settleUnsent(file: string, keys: readonly ClaimKey[]): Promise<void>;
  /** Throws (exit 4) once the ledger was seen failing: a query failed, or the server closed a connection. */
  assertAnswers(): void;
  /** Settles the claims of rows left in flight by a run that has ended, as a reconcile decided them. */
  settleLeftOver(account: string, identity: string, outcome: ClaimOutcome): Promise<void>;
  /**
   * Keeps an audit record for the team; a ledger that cannot is exit 4 before the write is sent.
   * `behind` (an outcome): handed over, committed by `flush` at the latest.
   */
  audit(record: object, options?: { behind?: boolean }): Promise<void>;
  /** Commits every settlement and audit record handed over so far; rejects when the ledger cannot. */
  flush(): Promise<void>;
  /** Commits what was handed over, as far as it can, and lets the ledger go: at the run's end. */
  close(): Promise<void>;
  /**
   * The claims behind withdrawals already on the platform, for naming twins: those settled done
   * with one of `withdrawalIds`, and those of `identities` whose outcome is not recorded yet.
   */
  claimsOf(account: string, withdrawalIds: readonly string[], identities: readonly string[]): Promise<KnownClaim[]>;
}

/** A claim as a twin's refusal names it. */
export interface KnownClaim {
  identity: string;
  withdrawalId: string | null;
  user: string;
  host: string;
  file: string | null;
}

/** Who made a claim, as payctl names an operator: `USER@HOST (file F)`. */
export const makerOf = (claim: Pick<KnownClaim, 'user' | 'host' | 'file'>): string => `${claim.user}@${claim.host}${claim.file ? ` (file ${claim.file})` : ''}`;

/** Where a claim lives: the account money leaves and what makes it the same payment. */
export type ClaimKey = Pick<ClaimRequest, 'account' | 'identity'>;

export type ClaimOutcome = { state: 'done'; withdrawalId: string } | { state: 'refused' } | { state: 'unknown' } | { state: 'absent' };

export interface ClaimRequest {
  /** The account money leaves, as the locks name it (platformAccount). */
  account: string;
  /** What makes it the same payment: a batch row's key, or a single withdrawal's identity. */
  identity: string;
  amount: number;
  /**
   * The payment, whatever made it (a single withdrawal, a row of any file): method, amount, bank account and
   * key, as a twin on the platform is found. Another run's claim of it refuses this one as a claim of its
   * identity does: of two operators sending one payment at the same moment from files that differ (a
   * reference, a postback URL), or as a row and a single withdrawal, one pays.
   */
  payment: string;
  /** Withdrawals of this payment that a batch's own journal holds for its rows: its own, not twins. */
  ownPaid: readonly string[];
  /**
   * The identities of a batch's rows of this payment (other references, or --allow-duplicate-rows): their claims,
   * whatever run made them and in whatever state a crash left them, are its own rows, not twins.
   */
  ownRows: readonly string[];
  /** The file a batch row comes from, shown to whoever finds the claim held. */
  file: string | null;
  /** A claim settled done within the window refuses this one, unless allowed (--allow-duplicate). */
  allowDone: boolean;
  /** The profile's --max-daily-total, in cents. */
  maxDailyTotal: number | undefined;
}

export interface Claim {
  /**
   * Hands the outcome over, committed by the ledger's `flush` at the latest; never throws (the send
   * happened): a ledger that failed stops the next claim instead.
   */
  settle(outcome: ClaimOutcome): Promise<void>;
}

/** What the ledger takes of a run: its configuration, where to warn, and what closes when the run ends. */
export interface LedgerRun extends RunConfig, Notices {
  readonly onEnd: Array<() => Promise<void>>;
}

/** A ledger that does not answer: nothing is sent (exit 4), and never a fallback to the local files. */
export class LedgerUnavailable extends PayctlError {
  constructor(name: string, why: string) {
    super(`the ledger ${name} does not answer (${why}): nothing was sent`, ExitCode.network, {
      hint: 'money moves only with the ledger: check the database, then run the same command again (payctl ledger status)',
    });
  }
}
