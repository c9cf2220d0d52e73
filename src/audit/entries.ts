import { ExitCode } from '../errors.js';
import { auditFiles, readRecords, type AuditRecord, type AuditIntent, type OutcomeRecord, type SettledRecord } from './log.js';

/** One write as `payctl audit` shows it: its intent joined with its outcome and settlement. */
export interface AuditEntry extends Omit<AuditIntent, 'type' | 'pid' | 'query' | 'body'> {
  query: Record<string, string> | null;
  body: unknown;
  /** done, refused, not sent, unknown, settled: paid, settled: not made. */
  outcome: string;
  status: number | null;
  resourceId: string | null;
  exitCode: number | null;
  error: string | null;
  settledAt: string | null;
  settledBy: string | null;
  /** The withdrawal's status when a read settled it. */
  settledStatus: string | null;
}

/** What became of a write, in words: an outcome of exit 5, or none at all, is unknown until a read settles it. */
function outcomeOf(outcome: OutcomeRecord | undefined, settled: SettledRecord | undefined): string {
  if (settled) return settled.resourceId ? 'settled: paid' : 'settled: not made';
  if (!outcome || outcome.exitCode === ExitCode.unknownOutcome) return 'unknown';
  if (outcome.exitCode === ExitCode.ok) return 'done';
  return outcome.exitCode === ExitCode.tookNoEffect ? 'not sent' : 'refused';
}

function entryOf(intent: AuditIntent, outcome: OutcomeRecord | undefined, settled: SettledRecord | undefined): AuditEntry {
  return {
    at: intent.at,
    user: intent.user,
    host: intent.host,
    profile: intent.profile,
    env: intent.env,
    baseUrl: intent.baseUrl,
    account: intent.account,
    method: intent.method,
    path: intent.path,
    query: intent.query ?? null,
    body: intent.body ?? null,
    outcome: outcomeOf(outcome, settled),
    status: outcome?.status ?? null,
    resourceId: settled?.resourceId ?? outcome?.resourceId ?? null,
    exitCode: outcome?.exitCode ?? null,
    error: outcome?.error ?? null,
    settledAt: settled?.at ?? null,
    settledBy: settled?.by ?? null,
    settledStatus: settled?.status ?? null,
    id: intent.id,
  };
}

export interface AuditSelection {
  /** Only entries at or after this time (ms). */
  since?: number;
  /** At most this many, the newest; undefined for all. */
  last?: number;
}

/**
 * The entries of the audit log, oldest first. Files are read newest first, and
 * reading stops once `last` entries since `since` are known: an outcome or a
 * settlement is always later than its intent, so it has been read by then.
 */
export function readAuditEntries(env: NodeJS.ProcessEnv, { since, last }: AuditSelection): { entries: AuditEntry[]; more: boolean; damaged: number } {
  const outcomes = new Map<string, OutcomeRecord>();
  const settlements = new Map<string, SettledRecord>();
  const intents: AuditIntent[] = [];
  let damaged = 0;
  let more = false;
  for (const file of auditFiles(env).reverse()) {
    const read = readRecords(file);
    damaged += read.damaged;
    const fileIntents: AuditIntent[] = [];
    let older = false;
    for (const record of read.records as AuditRecord[]) {
      if (record.type === 'outcome') outcomes.set(record.id, record);
      else if (record.type === 'settled') settlements.set(record.id, record);
      else if (since === undefined || Date.parse(record.at) >= since) fileIntents.push(record);
      else older = true;
    }
    intents.unshift(...fileIntents);
    if (older || (last !== undefined && intents.length > last)) break;
  }
  if (last !== undefined && intents.length > last) {
    more = true;
    intents.splice(0, intents.length - last);
  }
  return { entries: intents.map((intent) => entryOf(intent, outcomes.get(intent.id), settlements.get(intent.id))), more, damaged };
}

/** The entries of records read from elsewhere (the team's ledger), oldest first. */
export function entriesOfRecords(records: readonly AuditRecord[], { since, last }: AuditSelection): { entries: AuditEntry[]; more: boolean } {
  const outcomes = new Map(records.flatMap((record) => (record.type === 'outcome' ? [[record.id, record] as const] : [])));
  const settlements = new Map(records.flatMap((record) => (record.type === 'settled' ? [[record.id, record] as const] : [])));
  const intents = records.filter((record): record is AuditIntent => record.type === 'intent' && (since === undefined || Date.parse(record.at) >= since));
  const shown = last === undefined ? intents : intents.slice(-last);
  return { entries: shown.map((intent) => entryOf(intent, outcomes.get(intent.id), settlements.get(intent.id))), more: shown.length < intents.length };
}
