import { closeSync, existsSync, fsyncSync, openSync, readFileSync, writeSync } from 'node:fs';

/**
 * The journal of a batch: JSON lines appended and flushed to disk (fsync) one at
 * a time. A row's intent is on disk before its request leaves, its outcome after
 * the answer, so after a crash, a Ctrl-C or a lost connection every row is in
 * exactly one state: never tried, done, failed (nothing moved), or unknown (an
 * intent without an outcome, or a request that got no answer).
 */
export interface JournalHeader {
  type: 'batch';
  method: string;
  baseUrl: string;
  /** Account context of rows without their own sub-account: a sub-account id, or null for the main account. */
  account: string | null;
  at: string;
}

export interface IntentRecord {
  type: 'intent';
  key: string;
  line: number;
  /** Sub-account the request runs in, or null for the main account. */
  account: string | null;
  amount: number;
  bankAccountId: number;
  pixKey?: string;
  at: string;
}

export interface DoneRecord {
  type: 'done';
  key: string;
  withdrawalId: string;
  status: string;
  at: string;
  /** Set when `--reconcile` found the withdrawal rather than the request's answer. */
  reconciled?: boolean;
}

export interface FailedRecord {
  type: 'failed';
  key: string;
  error: string;
  exitCode: number;
  at: string;
}

export interface UnknownRecord {
  type: 'unknown';
  key: string;
  error: string;
  at: string;
}

/** `--reconcile` found no withdrawal for an unknown row: nothing moved, the row may be sent again. */
export interface AbsentRecord {
  type: 'absent';
  key: string;
  at: string;
}

export type JournalRecord = JournalHeader | IntentRecord | DoneRecord | FailedRecord | UnknownRecord | AbsentRecord;

export type RowState =
  | { state: 'new' }
  | { state: 'done'; withdrawalId: string; status: string }
  | { state: 'failed'; error: string; exitCode: number }
  | { state: 'unknown'; intent: IntentRecord; error?: string };

export interface JournalContents {
  header?: JournalHeader;
  rows: Map<string, RowState>;
}

/** Reads a journal; a last line cut by a crash is ignored (its request was never sent: intents are flushed before sending). */
export function readJournal(file: string): JournalContents {
  const contents: JournalContents = { rows: new Map() };
  if (!existsSync(file)) return contents;
  const lines = readFileSync(file, 'utf8').split('\n');
  lines.forEach((text, index) => {
    if (text.trim() === '') return;
    let record: JournalRecord;
    try {
      record = JSON.parse(text) as JournalRecord;
    } catch {
      if (index >= lines.length - 2) return;
      throw new Error(`line ${index + 1} of the journal is not JSON`);
    }
    apply(contents, record);
  });
  return contents;
}

function apply(contents: JournalContents, record: JournalRecord): void {
  switch (record.type) {
    case 'batch':
      contents.header ??= record;
      return;
    case 'intent':
      contents.rows.set(record.key, { state: 'unknown', intent: record });
      return;
    case 'done':
      contents.rows.set(record.key, { state: 'done', withdrawalId: record.withdrawalId, status: record.status });
      return;
    case 'failed':
      contents.rows.set(record.key, { state: 'failed', error: record.error, exitCode: record.exitCode });
      return;
    case 'unknown': {
      const current = contents.rows.get(record.key);
      if (current?.state === 'unknown') contents.rows.set(record.key, { ...current, error: record.error });
      return;
    }
    case 'absent':
      contents.rows.set(record.key, { state: 'new' });
      return;
  }
}

/** Appends records, each flushed to disk before `append` returns. */
export class JournalWriter {
  private readonly fd: number;

  constructor(readonly file: string) {
    const cutShort = existsSync(file) && !/(^|\n)$/.test(readFileSync(file, 'utf8'));
    this.fd = openSync(file, 'a', 0o600);
    // A line cut by a crash is ended so the next record starts on a line of its own.
    if (cutShort) writeSync(this.fd, '\n');
  }

  append(record: JournalRecord): void {
    writeSync(this.fd, `${JSON.stringify(record)}\n`);
    fsyncSync(this.fd);
  }

  close(): void {
    closeSync(this.fd);
  }
}
