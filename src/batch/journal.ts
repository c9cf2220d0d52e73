import fs from 'node:fs';
import path from 'node:path';
import { sharedFsync, syncFolder } from '../withdrawal/private-file.js';

/**
 * The journal of a batch: JSON lines appended one at a time. A row's intent is on
 * disk (fsync) before its request leaves, its outcome written after the answer, so
 * after a crash, a Ctrl-C or a lost connection every row is in exactly one state:
 * never tried (or never reached the API), done, failed (nothing moved), or unknown (an intent without an
 * outcome, or a request that got no answer). An outcome not yet on disk when the
 * machine stops leaves its row unknown, which --reconcile settles.
 *
 * Rows are keyed by their content (see rows.ts); journals of the first format,
 * keyed by line, are refused.
 */
export const JOURNAL_VERSION = 2;

export interface JournalHeader {
  type: 'batch';
  version: number;
  method: string;
  baseUrl: string;
  /** Account context of rows without their own sub-account: a sub-account id, or null for the main account. */
  account: string | null;
  at: string;
}

/** One run of payctl on the journal: a line cut by a crash is followed by the next run's record. */
export interface RunRecord {
  type: 'run';
  pid: number;
  host: string;
  at: string;
}

export interface RowIntent {
  type: 'intent';
  key: string;
  line: number;
  /** Sub-account the request runs in, or null for the main account. */
  account: string | null;
  amount: number;
  bankAccountId: number;
  pixKeyType?: string;
  pixKey?: string;
  postbackUrl?: string;
  reference?: string;
  occurrence: number;
  /** This machine's clock. */
  at: string;
  /** The API's clock, when an answer of this run had told it. */
  apiAt?: string;
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

/** The row's request never reached the API (connection refused, DNS): nothing moved, a rerun sends it. */
export interface NotSentRecord {
  type: 'not-sent';
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

export type JournalRecord = JournalHeader | RunRecord | RowIntent | DoneRecord | FailedRecord | NotSentRecord | UnknownRecord | AbsentRecord;

export type RowState =
  | { state: 'new' }
  /** `intent`: the row's, when this journal holds it (what a row no longer in the file paid). */
  | { state: 'done'; withdrawalId: string; status: string; intent?: RowIntent }
  | { state: 'failed'; error: string; exitCode: number }
  /**
   * Sent, or maybe sent, without a recorded answer. `intent` is missing when the
   * only trace is a line cut by a crash; `cutAfter` is then the time of the last
   * whole record before it, a bound on when that intent was made, and
   * `cutAfterApiAt` the same on the API's clock (the latest intent's), when known.
   */
  | { state: 'unknown'; intent?: RowIntent; cutAfter?: string; cutAfterApiAt?: string; error?: string };

export interface JournalContents {
  header?: JournalHeader;
  rows: Map<string, RowState>;
}

/** Records start with their type and key, so a line cut after the key still names its row. */
const CUT_RECORD = /^\{"type":"[a-z-]+","key":"([0-9a-f]{32})"/;

/**
 * Reads a journal. A line that is not JSON is a record cut by a crash (or a full
 * disk) when it is the last line, or when the next run's records follow it: its
 * row, when the cut left its key, becomes of unknown outcome (settled by
 * `--reconcile`). Anywhere else it is damage, and the journal is refused.
 */
export function readJournal(file: string): JournalContents {
  const contents: JournalContents = { rows: new Map() };
  if (!fs.existsSync(file)) return contents;
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  const records = lines.map(parseRecord);
  let lastAt: string | undefined;
  let lastApiAt: string | undefined;
  lines.forEach((text, index) => {
    if (text.trim() === '') return;
    const record = records[index];
    if (record) {
      apply(contents, record);
      lastAt = record.at;
      if (record.type === 'intent') lastApiAt = record.apiAt;
      return;
    }
    const nextIndex = lines.findIndex((rest, i) => i > index && rest.trim() !== '');
    // The next run writes its record (after the header, when the cut line was the header) right after the cut.
    if (nextIndex !== -1 && !['run', 'batch'].includes(records[nextIndex]?.type ?? '')) {
      throw new Error(
        `line ${index + 1} of the journal is not JSON, and it is not a line cut by a crash (those are last, or followed by the next run's records)`,
      );
    }
    const key = CUT_RECORD.exec(text)?.[1];
    const current = key ? contents.rows.get(key) : undefined;
    if (key && current?.state !== 'done') {
      contents.rows.set(key, {
        state: 'unknown',
        intent: current?.state === 'unknown' ? current.intent : undefined,
        cutAfter: lastAt ?? contents.header?.at,
        ...(lastApiAt ? { cutAfterApiAt: lastApiAt } : {}),
      });
    }
  });
  if (contents.header && contents.header.version !== JOURNAL_VERSION) {
    throw new Error('it was written by an earlier payctl, which keyed rows by their line; finish that batch with the payctl that started it');
  }
  return contents;
}

function parseRecord(text: string): JournalRecord | undefined {
  try {
    const record = JSON.parse(text) as JournalRecord;
    return record && typeof record === 'object' && typeof record.type === 'string' ? record : undefined;
  } catch {
    return undefined;
  }
}

function apply(contents: JournalContents, record: JournalRecord): void {
  switch (record.type) {
    case 'batch':
      contents.header ??= { ...record, version: record.version ?? 1 };
      return;
    case 'run':
      return;
    case 'intent':
      contents.rows.set(record.key, { state: 'unknown', intent: record });
      return;
    case 'done': {
      const current = contents.rows.get(record.key);
      const intent = current?.state === 'unknown' ? current.intent : undefined;
      contents.rows.set(record.key, { state: 'done', withdrawalId: record.withdrawalId, status: record.status, ...(intent ? { intent } : {}) });
      return;
    }
    case 'failed':
      contents.rows.set(record.key, { state: 'failed', error: record.error, exitCode: record.exitCode });
      return;
    case 'unknown': {
      const current = contents.rows.get(record.key);
      if (current?.state === 'unknown') contents.rows.set(record.key, { ...current, error: record.error });
      return;
    }
    case 'not-sent':
    case 'absent':
      contents.rows.set(record.key, { state: 'new' });
      return;
  }
}

/** Writing the journal failed (a full disk, most often): nothing more may be sent. */
export class JournalWriteError extends Error {
  constructor(
    readonly file: string,
    readonly code: string,
  ) {
    super(`the journal ${file} could not be written (${code})`);
    this.name = 'JournalWriteError';
  }
}

/**
 * Appends records, each written whole before `append` returns (so it outlives
 * payctl), and on disk once `flush` or `close` has run. After a failed write it
 * refuses every later one: a record written after a half-written one would be
 * lost in the same line.
 */
export class JournalWriter {
  private readonly fd: number;
  /** A line cut by a crash is ended first, so the next record starts on a line of its own. */
  private pending: string;
  private failed?: JournalWriteError;
  private readonly sync: () => Promise<void>;

  constructor(readonly file: string) {
    const existed = fs.existsSync(file);
    this.pending = existed && !/(^|\n)$/.test(fs.readFileSync(file, 'utf8')) ? '\n' : '';
    const { O_APPEND, O_CREAT, O_WRONLY, O_NOFOLLOW } = fs.constants;
    try {
      this.fd = fs.openSync(file, O_APPEND | O_CREAT | O_WRONLY | O_NOFOLLOW, 0o600);
      if (!existed) syncFolder(path.dirname(file));
    } catch (error) {
      throw new JournalWriteError(file, (error as NodeJS.ErrnoException).code ?? (error as Error).message);
    }
    this.sync = sharedFsync(this.fd);
  }

  append(record: JournalRecord): void {
    if (this.failed) throw this.failed;
    try {
      const bytes = Buffer.from(`${this.pending}${JSON.stringify(record)}\n`);
      for (let written = 0; written < bytes.length; ) written += fs.writeSync(this.fd, bytes, written);
      this.pending = '';
    } catch (error) {
      throw this.fail(error);
    }
  }

  /**
   * Every record appended so far on disk. The fsync runs off the event loop and is
   * shared by the rows that start at once: one per record, taken in turn, was most
   * of a batch's time.
   */
  async flush(): Promise<void> {
    if (this.failed) throw this.failed;
    try {
      await this.sync();
    } catch (error) {
      throw this.fail(error);
    }
  }

  /** The records not yet flushed on disk, then the file closed. */
  close(): void {
    try {
      if (!this.failed) fs.fsyncSync(this.fd);
    } catch (error) {
      throw this.fail(error);
    } finally {
      fs.closeSync(this.fd);
    }
  }

  private fail(error: unknown): JournalWriteError {
    this.failed ??= new JournalWriteError(this.file, (error as NodeJS.ErrnoException).code ?? (error as Error).message);
    return this.failed;
  }
}

