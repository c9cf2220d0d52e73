import { AsyncLocalStorage } from 'node:async_hooks';
import path from 'node:path';
import type { WithdrawalMethod } from '../api/types.js';
import type { BatchRow } from '../batch/rows.js';
import type { Settlement } from '../batch/reconcile.js';
import type { RowState } from '../batch/journal.js';
import { mayHaveMoved, PayctlError, usageError } from '../errors.js';
import type { RunConfig } from '../config/run.js';
import { identityOf, idOf, type WithdrawalFinding, type WithdrawalIdentity } from '../withdrawal/identity.js';
import { makerOf, type Claim, type ClaimKey, type ClaimRequest, type KnownClaim, type Ledger, type LedgerRun } from './ledger.js';
import { LOCAL_LEDGER, parseLedgerUrl } from './url.js';
import { platformAccount } from '../withdrawal/lock.js';

// The ledger's contract, which its backends (postgres.ts) implement, is ledger.ts's; payctl takes it from here.
export { LedgerUnavailable, type LedgerRun } from './ledger.js';

const LOCAL: Ledger = {
  name: LOCAL_LEDGER,
  claimAll: async (entries) => entries.map(() => ({ settle: async () => {} })),
  settleLeftOver: async () => {},
  settleUnsent: async () => {},
  assertAnswers: () => {},
  audit: async () => {},
  flush: async () => {},
  close: async () => {},
  claimsOf: async () => [],
};

/**
 * The ledger's URL in effect: PAYCTL_LEDGER, else the profile's; `local` when neither names one. The profile's
 * is checked as `profiles set` checks it: a config file edited by hand may hold a password, never to be shown.
 */
export function ledgerUrlOf(services: RunConfig): string {
  const fromEnv = services.env.PAYCTL_LEDGER;
  if (fromEnv !== undefined && fromEnv !== '') return parseLedgerUrl('PAYCTL_LEDGER', fromEnv);
  const { profile, profileName } = services.settings();
  return profile?.ledger === undefined ? LOCAL_LEDGER : parseLedgerUrl(`the ledger of profile "${profileName}" in the config file`, profile.ledger);
}

const opened = new WeakMap<LedgerRun, Promise<Ledger>>();

/**
 * The run's ledger, opened once. node-postgres is loaded only here, by runs whose
 * profile names a database: every other run never pays for it.
 */
export function ledgerOf(services: LedgerRun): Promise<Ledger> {
  let ledger = opened.get(services);
  if (!ledger) {
    const url = ledgerUrlOf(services);
    const opening = url === LOCAL_LEDGER ? Promise.resolve(LOCAL) : import('./postgres.js').then(({ openPostgresLedger }) => openPostgresLedger(services, url));
    // Closed when the run ends, even while it is still opening (a batch opens it beside its check, which may refuse first).
    services.onEnd.push(async () => (await opening.catch(() => undefined))?.close());
    ledger = opening;
    opened.set(services, ledger);
  }
  return ledger;
}

/** Whether the ledger in effect is a team's (a database), not the local files. */
export const hasTeamLedger = (services: RunConfig): boolean => ledgerUrlOf(services) !== LOCAL_LEDGER;

/** Runs that claim nothing: dry runs, and profiles whose ledger is the local files. */
const noTeamLedger = (services: LedgerRun): boolean => services.flags.dryRun || !hasTeamLedger(services);

/**
 * The withdrawal sendClaimed is sending: `claimWith`, its claim, made by the first audit intent of its
 * send (auditIntent), so that claim and intent are one commit on the row's way (resolves to the intent
 * kept with it, once committed; undefined once made); `ready`, what else is on disk before it leaves.
 */
const claimOnWrite = new AsyncLocalStorage<{ claimWith: <T extends object>(intent: T) => Promise<T> | undefined; ready?: Promise<void>; intent?: object }>();

/**
 * Keeps a write's audit intent in the team's ledger before it is sent: in the claim's commit for the
 * write of a claimed withdrawal, else in one of its own. Throws (nothing sent) when the claim is
 * refused or the ledger does not answer. Returns the intent kept: for a row claimed ahead, the one
 * made with its claim (its id and time), which the local log and the outcome then use.
 */
export async function auditIntent<T extends object>(services: LedgerRun, made: T): Promise<T> {
  const store = claimOnWrite.getStore();
  // A batch row's intent, made ahead of its send (sendClaimed's `intent`), is the one kept.
  const intent = store?.intent && sameWrite(store.intent, made) ? (store.intent as T) : made;
  const claimed = store?.claimWith(intent);
  if (claimed) return claimed;
  await (await ledgerOf(services)).audit(intent);
  return intent;
}

/**
 * What must be on disk besides its audit intent before the write being sent leaves: a batch row's
 * journal intent (sendClaimed's `ready`). The audit hook awaits it beside the local log's fsync.
 */
export const readyToSend = (): Promise<void> => claimOnWrite.getStore()?.ready ?? Promise.resolve();

/** A claim made ahead of its send, with the audit intent committed beside it (claimsAhead); `used` once its send's write took it. */
export interface ClaimedAhead {
  readonly intent: { readonly id: string };
  readonly claim: Promise<Claim>;
  used?: boolean;
}

/** Whether an intent made ahead is the one of the write sent: the same in all but its id and time. */
const sameWrite = (ahead: object, intent: object) => JSON.stringify({ ...ahead, id: '', at: '' }) === JSON.stringify({ ...intent, id: '', at: '' });

/**
 * Claims the withdrawal in the profile's ledger, sends it, and settles the claim
 * with what came of it: done with the withdrawal's id, refused when the API
 * refused it, unknown when no answer says (then --reconcile or `withdrawals get`
 * settles it). Under --dry-run nothing is claimed. The settlement is committed before this returns,
 * or, `behind` (a batch's rows), by the ledger's flush before the batch reports (ledgerWritten).
 * `ready`: on disk before the request leaves (readyToSend); when it fails, nothing is sent and the claim is settled absent.
 * `intent`: the write's audit intent made ahead (a batch row's), kept instead of one made as it is sent.
 */
export async function sendClaimed<T extends { id: string } | undefined>(
  ctx: { readonly services: LedgerRun },
  request: Omit<ClaimRequest, 'maxDailyTotal'>,
  send: () => Promise<T>,
  { behind = false, ahead, ready, intent }: { behind?: boolean; ahead?: ClaimedAhead; ready?: Promise<void>; intent?: object } = {},
): Promise<T> {
  if (ctx.services.flags.dryRun) return send();
  const ledger = await ledgerOf(ctx.services);
  // Every write of a run that is not --dry-run records its intent (auditIntent) before it is sent, so
  // the POST never leaves before this claim is committed; a send that wrote nothing claimed nothing.
  let claiming: Promise<Claim> | undefined;
  const claimWith = <I extends object>(intent: I): Promise<I> | undefined => {
    if (claiming) return undefined;
    if (!ahead) {
      const made = claimOne(ledger, { ...request, maxDailyTotal: maxDailyTotalOf(ctx.services) }, intent);
      claiming = made;
      return made.then(() => intent);
    }
    ahead.used = true;
    // Claimed before the ledger was seen failing: nothing more is sent once it has.
    claiming = ahead.claim.then((claim) => (ledger.assertAnswers(), claim));
    // A write other than the one claimed ahead (never so for a batch row) keeps its own intent beside.
    return claiming.then(async () => (sameWrite(ahead.intent, intent) ? (ahead.intent as I) : (await ledger.audit(intent), intent)));
  };
  let created: T;
  try {
    created = await claimOnWrite.run({ claimWith, ready, intent }, send);
  } catch (error) {
    const claim = await claiming?.catch(() => undefined);
    if (!claim) throw error;
    const known = error instanceof PayctlError ? error : undefined;
    const mayHaveMovedMoney = !known || mayHaveMoved(known);
    // The audit hook throws what `ready` failed with, before the request leaves.
    const neverSent = ready !== undefined && error === (await ready.then(() => undefined, (failure: unknown) => failure));
    await claim.settle(neverSent ? { state: 'absent' } : mayHaveMovedMoney ? { state: 'unknown' } : { state: 'refused' });
    if (!behind) await ledger.flush().catch(() => {});
    throw error;
  }
  const claim = await claiming;
  await claim?.settle(created ? { state: 'done', withdrawalId: created.id } : { state: 'unknown' });
  if (!behind) await ledger.flush().catch(() => {});
  return created;
}

const maxDailyTotalOf = (services: RunConfig) => services.settings().profile?.maxDailyTotal;

/** One claim, by itself: its refusal thrown. */
async function claimOne(ledger: Ledger, request: ClaimRequest, intent?: object): Promise<Claim> {
  return claimOf(await ledger.claimAll([{ request, intent }]), 0);
}

/** The `i`th claim of a group's answer, its refusal thrown. */
function claimOf(answer: ReadonlyArray<Claim | PayctlError>, i: number): Claim {
  const made = answer[i];
  if (made === undefined) throw new Error('the ledger answered a group of claims with fewer claims than rows');
  if (made instanceof PayctlError) throw made;
  return made;
}

/**
 * A batch's claims made ahead of its rows, a group at a time in one transaction: as a row starts, the
 * rows after it are claimed once fewer than `concurrency` are, up to twice that ahead, so a row's claim
 * is committed while the rows before it are sent, and rows in flight share commits (one a row kept
 * each row's POST waiting for a commit, 7-10 ms under load). `intentOf`: the audit intent of the write
 * that sends a row, kept in its claim's commit. Without a team ledger, or under --dry-run, nothing is claimed ahead.
 * `unsent` settles the claims no write took (sending stopped before their rows, or a send failed before its POST) as absent,
 * and gives their audit intents, committed with them, the outcome `notSent` makes: the team's trail shows them not sent.
 */
export function claimsAhead(
  services: LedgerRun,
  rows: readonly BatchRow[],
  { concurrency, ...howClaimed }: RowClaims & { concurrency: number },
  intentOf: (row: BatchRow) => { readonly id: string },
): { claimOf(row: BatchRow): ClaimedAhead | undefined; unsent(notSent: (intent: { readonly id: string }) => object): Promise<void> } | undefined {
  if (noTeamLedger(services)) return undefined;
  const position = new Map(rows.map((row, i) => [row.key, i]));
  const made = new Map<string, ClaimedAhead>();
  let next = 0;
  const claimUpTo = (end: number) => {
    const group = rows.slice(next, end);
    next = end;
    const entries = group.map((row) => ({
      key: row.key,
      request: { ...rowClaim(services, row, howClaimed), maxDailyTotal: maxDailyTotalOf(services) },
      intent: intentOf(row),
    }));
    const claims = ledgerOf(services).then((ledger) => ledger.claimAll(entries));
    entries.forEach(({ key, intent }, i) => {
      const claim = claims.then((all) => claimOf(all, i));
      // Awaited by the row's send, if it starts: a row never sent is no unhandled failure.
      claim.catch(() => {});
      made.set(key, { intent, claim });
    });
  };
  return {
    claimOf(row) {
      const at = position.get(row.key);
      if (at === undefined) return undefined;
      if (next - at - 1 < concurrency && next < rows.length) claimUpTo(Math.min(rows.length, Math.max(next, at + 1 + 2 * concurrency)));
      return made.get(row.key);
    },
    async unsent(notSent) {
      const left = [...made.values()].filter((ahead) => !ahead.used);
      const claims = await Promise.all(left.map(async ({ intent, claim }) => ({ intent, claim: await claim.catch(() => undefined) })));
      const ledger = await ledgerOf(services);
      for (const { intent, claim } of claims) {
        if (!claim) continue;
        await claim.settle({ state: 'absent' });
        await ledger.audit(notSent(intent), { behind: true });
      }
    },
  };
}

/**
 * What a batch handed its ledger behind its rows (settlements, audit outcomes), committed before it
 * reports. A ledger that cannot is a warning: the rows were sent and the journal has them; their claims
 * stay in flight (`ledger status`) until --reconcile settles them.
 */
export async function ledgerWritten(services: LedgerRun, reconcileCommand: string): Promise<void> {
  if (noTeamLedger(services)) return;
  try {
    await (await ledgerOf(services)).flush();
  } catch (error) {
    services.warn(`${(error as Error).message.replace(/: nothing was sent$/, '')}: the outcomes of rows sent are in the journal, not in the team's ledger; record them there with: ${reconcileCommand}`);
  }
}

/** A single withdrawal's claim: by what it pays (method, amount, destination) in its account. */
export function singleClaim(services: RunConfig, identity: WithdrawalIdentity, allowDuplicate: boolean): Omit<ClaimRequest, 'maxDailyTotal'> {
  const payment = paymentOf(identity);
  return { ...singleClaimKey(services, identity), payment, ownPaid: [], ownRows: [], amount: identity.amount, file: null, allowDone: allowDuplicate };
}

export function singleClaimKey(services: RunConfig, identity: WithdrawalIdentity): ClaimKey {
  const { baseUrl, subaccount } = services.settings();
  return { account: platformAccount(baseUrl, subaccount ?? undefined), identity: singleIdentity(identity) };
}

/** A payment as the ledger knows it, however made: what a twin on the platform shares (ClaimRequest's `payment`). */
const paymentOf = (identity: WithdrawalIdentity) => JSON.stringify([identity.method, identity.amount, identity.bankAccountId, identity.pixKey ?? null]);
const singleIdentity = (identity: WithdrawalIdentity) => `single ${paymentOf(identity)}`;
const rowIdentity = (key: string) => `row ${key}`;

/**
 * `withdrawals get`: a single withdrawal's claim left in flight by a run that ended
 * is settled done by the withdrawal found. Best effort: the read itself succeeded,
 * so a ledger that does not answer is a warning.
 */
export async function settleLeftOverSingle(services: LedgerRun, finding: WithdrawalFinding): Promise<void> {
  if (!finding.found || ledgerUrlOf(services) === LOCAL_LEDGER) return;
  try {
    const ledger = await ledgerOf(services);
    await ledger.settleLeftOver(platformAccount(services.settings().baseUrl, finding.account ?? undefined), singleIdentity(finding.identity), { state: 'done', withdrawalId: finding.found.id });
  } catch (error) {
    services.warn(`cannot record in the team's ledger what withdrawals get found: ${(error as Error).message}`);
  }
}

/**
 * `api` writing to the withdrawal route, claimed in the team's ledger as a single withdrawal of what its body
 * pays: it counts towards --max-daily-total and is refused while the same payment is claimed in flight. `api`
 * has no twin check (nor --allow-duplicate), so a paid claim does not refuse it. Without a team ledger, or
 * under --dry-run, nothing is claimed (undefined). A body whose amount is not a number could pay any sum:
 * refused, as the profile's limits refuse it; so is one below a cent, which would lower the day's total.
 * `dataFlag` names where the body comes from (--data).
 */
export function apiWithdrawalClaim(services: LedgerRun, body: unknown, dataFlag: string): Omit<ClaimRequest, 'maxDailyTotal'> | undefined {
  if (noTeamLedger(services)) return undefined;
  const fields = (body !== null && typeof body === 'object' && !Array.isArray(body) ? body : {}) as Record<string, unknown>;
  if (typeof fields.amount !== 'number' || !Number.isSafeInteger(fields.amount) || fields.amount < 1) {
    const given = body === undefined ? `no body was given (${dataFlag})` : `${dataFlag}'s amount is ${JSON.stringify(fields.amount) ?? 'missing'}`;
    throw usageError(
      `a withdrawal's amount must be a positive whole number of cents to be claimed in the team's ledger ${ledgerUrlOf(services)}, and ${given}: nothing was sent`,
      `give the body with ${dataFlag}, its amount as integer cents, e.g. {"amount": 1234, …}`,
    );
  }
  const identity = {
    method: String(fields.withdrawalMethod ?? '').toLowerCase(),
    amount: fields.amount,
    bankAccountId: fields.bankAccountId,
    ...(fields.pixKey === undefined ? {} : { pixKey: fields.pixKey }),
  } as WithdrawalIdentity;
  return singleClaim(services, identity, true);
}

/** How a batch claims its rows: its file, whether --allow-duplicate was given, and its own rows by payment. */
export interface RowClaims {
  file: string;
  allowDuplicate: boolean;
  /** Each payment's rows in the file and the withdrawals its journal holds for it (ownRowsByPayment). */
  own: ReadonlyMap<string, OwnRows>;
}

/** A payment's rows in a batch's file (their claims' identities), and the withdrawals its journal holds for it. */
interface OwnRows {
  identities: string[];
  paid: string[];
}

/**
 * A batch row's claim: by its content identity (the journal's key), whatever the file's name, path or order,
 * and by its payment, so that another file's row paying the same (another reference, a postback URL) is a twin.
 */
export function rowClaim(services: RunConfig, row: BatchRow, { file, allowDuplicate, own }: RowClaims): Omit<ClaimRequest, 'maxDailyTotal'> {
  const payment = paymentOf(identityOf(row.request));
  const { identities, paid } = own.get(payment) ?? { identities: [], paid: [] };
  const { amount } = row.request;
  return { ...rowClaimKey(services, row), payment, ownPaid: paid, ownRows: identities, amount, file: path.resolve(file), allowDone: allowDuplicate };
}

/**
 * A batch's rows by payment, with the withdrawals its journal holds for each, a row since removed from the file
 * included (its intent says what it paid): rows of one payment (two references) are not each other's twins, nor
 * are their claims that a run killed before it settled them left in flight.
 */
export function ownRowsByPayment(method: WithdrawalMethod, rows: readonly BatchRow[], states: ReadonlyMap<string, RowState>): Map<string, OwnRows> {
  const own = new Map<string, OwnRows>();
  const ofPayment = (payment: string): OwnRows => {
    let found = own.get(payment);
    if (!found) own.set(payment, (found = { identities: [], paid: [] }));
    return found;
  };
  const inFile = new Map(rows.map((row) => [row.key, row]));
  for (const row of rows) ofPayment(paymentOf(identityOf(row.request))).identities.push(rowIdentity(row.key));
  for (const [key, state] of states) {
    if (state.state !== 'done') continue;
    const row = inFile.get(key);
    const { intent } = state;
    const paid = row ? identityOf(row.request) : intent && { method, amount: intent.amount, bankAccountId: intent.bankAccountId, pixKey: intent.pixKey };
    if (paid) ofPayment(paymentOf(paid)).paid.push(state.withdrawalId);
  }
  return own;
}

export const rowClaimKey = (services: RunConfig, row: BatchRow): ClaimKey => ({
  account: platformAccount(services.settings().baseUrl, row.account ?? undefined),
  identity: rowIdentity(row.key),
});

/**
 * Who made each of the twins found for a withdrawal, where the team's ledger knows it: the
 * operator and file of the claim settled with the twin's id, else of a claim of the same payment
 * whose outcome is not recorded yet (said so). One read per account; without a ledger, or under
 * --dry-run (which opens none), nothing is known.
 */
export async function makersOfTwins(
  services: LedgerRun,
  found: ReadonlyArray<{ key: ClaimKey; twins: readonly unknown[] }>,
): Promise<Array<Array<string | undefined>>> {
  const unknown = found.map(({ twins }) => twins.map(() => undefined));
  if (noTeamLedger(services)) return unknown;
  const ledger = await ledgerOf(services);
  const claims = new Map<string, KnownClaim[]>();
  for (const account of new Set(found.map(({ key }) => key.account))) {
    const here = found.filter(({ key }) => key.account === account);
    const ids = here.flatMap(({ twins }) => twins.flatMap((twin) => idOf(twin) ?? []));
    claims.set(account, await ledger.claimsOf(account, ids, here.map(({ key }) => key.identity)));
  }
  return found.map(({ key, twins }) =>
    twins.map((twin) => {
      const known = claims.get(key.account)!;
      const paid = known.find((claim) => claim.withdrawalId !== null && claim.withdrawalId === idOf(twin));
      if (paid) return `by ${makerOf(paid)}`;
      const pending = known.find((claim) => claim.withdrawalId === null && claim.identity === key.identity);
      return pending && `claimed by ${makerOf(pending)}, outcome not recorded yet`;
    }),
  );
}

/** Records in the ledger what `--reconcile` decided of rows a run left in flight; rows it could not decide stay claimed. */
export async function settleLeftOverRows(
  services: LedgerRun,
  rows: ReadonlyArray<{ key: string; account: string | null; settlement: Settlement }>,
): Promise<void> {
  const ledger = await ledgerOf(services);
  const { baseUrl } = services.settings();
  for (const { key, account, settlement } of rows) {
    if (settlement.kind === 'undecided') continue;
    await ledger.settleLeftOver(
      platformAccount(baseUrl, account ?? undefined),
      rowIdentity(key),
      settlement.kind === 'paid' ? { state: 'done', withdrawalId: settlement.withdrawalId } : { state: 'absent' },
    );
  }
}

/**
 * Before a batch sends: the claims a run of this file, by this user on this host, left in flight
 * having ended (killed, or stopped by a ledger gone away) for the `unsent` rows, those its journal
 * shows never sent (no record, or failed: a row's journal intent is on disk before its POST), are
 * settled as never sent.
 * They are the rows it claimed ahead (claimsAhead); a claim whose row may have been sent is not touched.
 */
export async function settleUnsentClaims(services: LedgerRun, unsent: readonly BatchRow[], file: string): Promise<void> {
  if (noTeamLedger(services) || unsent.length === 0) return;
  await (await ledgerOf(services)).settleUnsent(path.resolve(file), unsent.map((row) => rowClaimKey(services, row)));
}

/**
 * `--reconcile`: a row the journal has paid whose claim a run left in flight (the ledger went away
 * between the send and its settlement) is settled done with the journal's withdrawal. A rerun
 * without it skips the row and leaves the claim, which `ledger status` lists.
 */
export async function settleJournalPaidRows(services: LedgerRun, rows: readonly BatchRow[], states: ReadonlyMap<string, RowState>): Promise<void> {
  if (noTeamLedger(services)) return;
  await settleLeftOverRows(
    services,
    rows.flatMap((row) => {
      const state = states.get(row.key);
      return state?.state === 'done' ? [{ key: row.key, account: row.account, settlement: { kind: 'paid' as const, withdrawalId: state.withdrawalId, status: state.status } }] : [];
    }),
  );
}
