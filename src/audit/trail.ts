import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { ExitCode } from '../errors.js';
import type { AuditHooks, AuditedWrite, WriteOutcome } from '../http/client.js';
import { auditIntent, ledgerOf, readyToSend, type LedgerRun } from '../ledger/index.js';
import type { RunConfig } from '../config/run.js';
import { userName, type Notices } from '../process-io.js';
import { maskSecrets, type SecretScrubber } from '../redact.js';
import { compareWithdrawal, createdAtOf, idOf, type WithdrawalFinding, type WithdrawalIdentity } from '../withdrawal/identity.js';
import { AuditLog, auditFiles, auditWriteError, notSentOutcome, readRecords, type AuditIntent, type SettledRecord } from './log.js';

/**
 * The audit hooks of one API client: the intent of a write is on disk before it
 * is sent (a failure to record it stops it: exit 2, nothing sent), its outcome
 * after. A failure to record the outcome is a warning: the write happened, and
 * the log then shows it as of unknown outcome.
 */
export function auditHooks(services: LedgerRun & { readonly secrets: SecretScrubber }, account: string | null): AuditHooks {
  const { log, outcomes } = runLog(services);
  const intentOf = intentMaker(services);
  return {
    async before(write): Promise<AuditedWrite> {
      // The team's copy first, with a withdrawal's claim: a ledger that refuses the claim or cannot keep
      // the intent stops the write (nothing sent) before the local log says it was meant to go. A batch
      // row claimed ahead keeps the intent made with its claim.
      const intent = await auditIntent(services, intentOf(account, write));
      // From here this hook records what becomes of the write, whether or not it leaves.
      const ahead = writtenAhead.get(intent);
      writtenAhead.delete(intent);
      const { id } = intent;
      const ledger = await ledgerOf(services);
      const notSent = (exitCode: number, error: string) => notSentOutcome(id, exitCode, error);
      // What else must be on disk before the write leaves (a batch row's journal intent): its fsync and the log's overlap.
      const ready = readyToSend();
      try {
        await (ahead ?? log.append(intent));
      } catch (error) {
        const failure = auditWriteError(log.file, error);
        await ledger.audit(notSent(failure.exitCode, failure.message), { behind: true });
        throw failure;
      }
      try {
        await ready;
      } catch (error) {
        // `payctl audit` then shows it `not sent`.
        const record = notSent(ExitCode.tookNoEffect, `not sent: ${(error as Error).message}`);
        await log.append(record).catch(() => {});
        await ledger.audit(record, { behind: true });
        throw error;
      }
      return {
        after: async (outcome: WriteOutcome) => {
          const record = {
            type: 'outcome' as const,
            id,
            at: new Date().toISOString(),
            status: outcome.status ?? null,
            resourceId: outcome.resourceId ?? null,
            exitCode: outcome.exitCode,
            ...(outcome.error ? { error: services.secrets.scrub(outcome.error) } : {}),
          };
          // Written at once, its fsync shared with the next records and awaited before the log closes, not by the write:
          // each batch row waited for its outcome's fsync before the next row started. A crash before that fsync leaves
          // the write of unknown outcome in the log, as a crash before the outcome was written does.
          const written = log.append(record).catch((error: unknown) => {
            services.warn(`cannot record the outcome of ${write.method} ${write.path} in the audit log ${log.file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
          });
          outcomes.add(written);
          void written.finally(() => outcomes.delete(written));
          await ledger.audit(record, { behind: true });
        },
      };
    },
  };
}

/** The run's audit log, one for all its API clients, so that their records share fsyncs. */
interface RunLog {
  log: AuditLog;
  /** Outcomes written, on disk before the log closes, not before their writes return (see auditHooks' after). */
  outcomes: Set<Promise<void>>;
}

const runLogs = new WeakMap<LedgerRun, RunLog>();

function runLog(services: LedgerRun): RunLog {
  let run = runLogs.get(services);
  if (!run) {
    const opened: RunLog = { log: new AuditLog(services.env), outcomes: new Set() };
    services.onEnd.push(async () => {
      await Promise.all(opened.outcomes);
      opened.log.close();
    });
    runLogs.set(services, opened);
    run = opened;
  }
  return run;
}

/**
 * Intents written to the local log ahead of their writes (writeIntentAhead), on disk once these resolve, until a
 * write's audit hook takes one (its outcome is then the hook's to record).
 */
const writtenAhead = new WeakMap<object, Promise<void>>();

/**
 * Writes a batch row's audit intent (made by intentMaker, kept by the row's send: auditIntent) to the local
 * log while the rows before it are in flight, so that its send finds it on disk instead of waiting for an fsync.
 */
export function writeIntentAhead(services: LedgerRun, intent: AuditIntent): void {
  const written = runLog(services).log.append(intent);
  // Awaited by the write that sends it, which fails (nothing sent) when this did; or the row is never sent.
  written.catch(() => {});
  writtenAhead.set(intent, written);
}

/**
 * An intent written ahead whose write never reached its audit hook (sending stopped before its row, its
 * claim was refused): `payctl audit` then shows it not sent, not of unknown outcome.
 */
export async function intentNotSent(
  services: LedgerRun & { readonly secrets: SecretScrubber },
  intent: AuditIntent,
  reason: string,
  exitCode: number = ExitCode.tookNoEffect,
): Promise<void> {
  const written = writtenAhead.get(intent);
  if (!written) return;
  writtenAhead.delete(intent);
  const record = notSentOutcome(intent.id, exitCode, services.secrets.scrub(reason));
  // The team's copy of the intent, committed with its claim ahead, gets its outcome when the claim is settled (claimsAhead's unsent).
  const { log, outcomes } = runLog(services);
  const recorded = written.then(() => log.append(record)).catch(() => {});
  outcomes.add(recorded);
  void recorded.finally(() => outcomes.delete(recorded));
  await recorded;
}

/**
 * Makes the audit intent of a write in an account (a sub-account id, or null): as the write is sent,
 * or ahead of it for a batch row claimed ahead (claimsAhead), the same in all but its id and time.
 */
export function intentMaker(services: RunConfig & { readonly secrets: SecretScrubber }): (account: string | null, write: AuditableWrite) => AuditIntent {
  const scrub = (value: unknown) => services.secrets.scrubDeep(maskSecrets(value));
  // Asked once: os.userInfo() reads the user database, and a batch writes an intent per row.
  const user = userName(services.env);
  return (account, write) => {
    const settings = services.settings();
    return {
      type: 'intent',
      id: randomUUID(),
      at: new Date().toISOString(),
      user,
      host: os.hostname(),
      pid: process.pid,
      profile: settings.profileName,
      env: settings.env,
      baseUrl: settings.baseUrl,
      account,
      method: write.method,
      path: services.secrets.scrub(write.path),
      ...(write.query && Object.keys(write.query).length > 0 ? { query: scrub(write.query) as Record<string, string> } : {}),
      ...(write.body === undefined ? {} : { body: scrub(write.body) }),
    };
  };
}

type AuditableWrite = Parameters<AuditHooks['before']>[0];

/** How long before its intent a withdrawal may seem to be created: this machine's clock and the API's may differ. */
const CLOCK_SLACK_MS = 5 * 60 * 1000;
const WITHDRAW_PATH = '/withdrawals/withdraw';

/**
 * Settles withdrawals of unknown outcome in the audit log from what a read found:
 * for each finding, the oldest unsettled intent of the same amount, method and
 * destination, in the same account of the same API, made no later than the
 * withdrawal found (with some slack for clocks). A withdrawal already named by
 * an outcome or a settlement settles nothing. A failure to write is a warning:
 * the log keeps showing the write as unknown.
 */
export async function settleWithdrawals(services: RunConfig & Notices, findings: readonly WithdrawalFinding[], by: string): Promise<void> {
  const files = auditFiles(services.env);
  if (findings.length === 0 || files.length === 0) return;
  const { baseUrl } = services.settings();
  const open = new Map<string, AuditIntent>();
  const claimed = new Set<string>();
  // The current file and the one before it: a write of unknown outcome is settled soon after, or by hand.
  for (const file of files.slice(-2)) {
    for (const record of readRecords(file).records) {
      if (record.type === 'intent' && record.method === 'POST' && record.path === WITHDRAW_PATH && record.baseUrl === baseUrl) open.set(record.id, record);
      else if (record.type === 'outcome' && record.exitCode !== ExitCode.unknownOutcome) {
        open.delete(record.id);
        if (record.resourceId) claimed.add(record.resourceId);
      } else if (record.type === 'settled') {
        open.delete(record.id);
        if (record.resourceId) claimed.add(record.resourceId);
      }
    }
  }
  const settlements: SettledRecord[] = [];
  for (const finding of findings) {
    if (finding.found && claimed.has(finding.found.id)) continue;
    const intent = [...open.values()].find((candidate) => matches(candidate, finding));
    if (!intent) continue;
    open.delete(intent.id);
    if (finding.found) claimed.add(finding.found.id);
    settlements.push({ type: 'settled', id: intent.id, at: new Date().toISOString(), by, resourceId: finding.found?.id ?? null, status: finding.found?.status ?? null });
  }
  const log = new AuditLog(services.env);
  try {
    for (const settlement of settlements) await log.append(settlement);
  } catch (error) {
    services.warn(`cannot record in the audit log ${log.file} what ${by} found: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  } finally {
    log.close();
  }
}

function matches(intent: AuditIntent, { identity, account, found }: WithdrawalFinding): boolean {
  if (intent.account !== account) return false;
  const body = intent.body && typeof intent.body === 'object' ? (intent.body as Record<string, unknown>) : {};
  const asSent = { ...body, withdrawalPaymentType: String(body.withdrawalMethod ?? '').toUpperCase(), id: 'intent' };
  if (compareWithdrawal(asSent, identity) !== 'same') return false;
  return found?.createdAt === undefined || found.createdAt >= Date.parse(intent.at) - CLOCK_SLACK_MS;
}

/** A withdrawal as the API answered it, as a finding; undefined when it lacks what a match needs. */
export function findingOf(item: unknown, account: string | null): WithdrawalFinding | undefined {
  const fields = item && typeof item === 'object' ? (item as Record<string, unknown>) : {};
  const id = idOf(item);
  const method = typeof fields.withdrawalPaymentType === 'string' ? fields.withdrawalPaymentType.toLowerCase() : undefined;
  if (!id || typeof fields.amount !== 'number' || typeof fields.bankAccountId !== 'number' || (method !== 'pix' && method !== 'card' && method !== 'boleto')) {
    return undefined;
  }
  const identity: WithdrawalIdentity = {
    method,
    amount: fields.amount,
    bankAccountId: fields.bankAccountId,
    ...(method === 'pix' && typeof fields.pixKey === 'string' ? { pixKey: fields.pixKey } : {}),
  };
  return { identity, account, found: { id, status: typeof fields.status === 'string' ? fields.status : 'unknown', createdAt: createdAtOf(item) } };
}
