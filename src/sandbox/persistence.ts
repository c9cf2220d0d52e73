/**
 * The --data file: a snapshot (FILE) and a log of the changes made since
 * (FILE.log). Every change is appended to the log and fsynced before the
 * request that made it is answered, so an answered change survives kill -9 at
 * any moment; its cost is that of its own few hundred bytes, however large the
 * data. Writers that arrive while an fsync is under way share the next one
 * (group commit). Once the log outgrows the snapshot, a new snapshot is written
 * beside the old one, fsynced and renamed over it, and the log starts again:
 * each change is written a bounded number of times on average.
 *
 * Recovery: the snapshot, then the log's entries newer than the snapshot's
 * sequence number. A last line cut short by a kill was never answered: it is
 * dropped (and cut from the file). A leftover temporary snapshot is removed.
 */
import { closeSync, existsSync, fsyncSync, ftruncateSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { open, rename, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Change } from './changes.js';
import { SNAPSHOT_FORMAT, type StoreSnapshot } from './store.js';

/** A snapshot as saved: the store's, and the sequence number of the last change it includes. */
export interface SavedSnapshot extends StoreSnapshot {
  seq: number;
}

export interface LogEntry {
  seq: number;
  company: string;
  changes: Change[];
}

export interface LoadedData {
  snapshot: SavedSnapshot;
  /** log entries newer than the snapshot, oldest first */
  entries: LogEntry[];
}

/** The log is compacted once it is larger than this and than the snapshot (so compaction stays a fraction of the writing). */
export const DEFAULT_COMPACT_LOG_BYTES = 4 * 1024 * 1024;

const logPath = (path: string) => `${path}.log`;
const temporaryPath = (path: string) => join(dirname(path), `.${basename(path)}.snapshot.tmp`);

/** Fields that may be null in the API reference; an older data file also wrote null where a field had no value. */
const NULLABLE_FIELDS = new Set(['canceledAt', 'splitPercentage', 'splitAmount']);
/** The first data format wrote null for absent fields; its records are read with those fields left out. */
const FIRST_FORMAT = 'payctl-sandbox/1';

function dropNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(dropNulls);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key, field]) => field !== null || NULLABLE_FIELDS.has(key))
      .map(([key, field]) => [key, dropNulls(field)]),
  );
}

function readSnapshot(path: string): SavedSnapshot {
  const parsed = JSON.parse(readFileSync(path, 'utf8')) as SavedSnapshot | (StoreSnapshot & { format: typeof FIRST_FORMAT });
  if ((parsed.format as string) === FIRST_FORMAT) return { ...(dropNulls(parsed) as StoreSnapshot), format: SNAPSHOT_FORMAT, seq: 0 };
  if (parsed.format !== SNAPSHOT_FORMAT) throw new Error(`${path}: unsupported sandbox data format ${String(parsed.format)}`);
  return parsed as SavedSnapshot;
}

/** The log's entries; a torn last line (a write the kill cut short, never answered) is cut from the file. */
function readLog(path: string): LogEntry[] {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const entries: LogEntry[] = [];
  let start = 0;
  while (start < bytes.length) {
    const end = bytes.indexOf(0x0a, start);
    const line = bytes.subarray(start, end < 0 ? bytes.length : end).toString('utf8');
    let entry: LogEntry | undefined;
    try {
      entry = JSON.parse(line) as LogEntry;
    } catch {
      entry = undefined;
    }
    if (end < 0 || !entry) {
      if (end >= 0 && bytes.indexOf(0x0a, end + 1) >= 0) throw new Error(`${path}: line ${entries.length + 1} is not a log entry; the file is damaged`);
      const fd = openSync(path, 'r+');
      try {
        ftruncateSync(fd, start);
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      break;
    }
    entries.push(entry);
    start = end + 1;
  }
  return entries;
}

/** Removes temporary snapshots a kill left behind (this version's and the first format's). */
function removeLeftovers(path: string): void {
  const directory = dirname(path);
  const prefix = `.${basename(path)}.`;
  for (const name of readdirSync(directory)) if (name.startsWith(prefix) && name.endsWith('.tmp')) rmSync(join(directory, name), { force: true });
}

function fsyncDirectory(directory: string): void {
  const fd = openSync(directory, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Writes `text` to `path` so that a reader sees the old or the new file, never half of one. */
function writeAtomicallySync(path: string, text: string): void {
  const temporary = temporaryPath(path);
  const fd = openSync(temporary, 'w', 0o600);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temporary, path);
  fsyncDirectory(dirname(path));
}

export interface DataFileOptions {
  /** the last change already in the state (from load); undefined for a new data file, which gets its first snapshot */
  seq: number | undefined;
  /** the whole state, for a new snapshot */
  snapshot: () => StoreSnapshot;
  /** where a failed save is reported */
  report: (line: string) => void;
  compactLogBytes?: number;
}

interface Waiter {
  resolve(): void;
  reject(error: unknown): void;
}

export class DataFile {
  private readonly log: FileHandle;
  private logBytes: number;
  private lastSnapshotBytes: number;
  private seq: number;
  private durableSeq: number;
  private pending: string[] = [];
  private waiters: Waiter[] = [];
  private writing: Promise<void> | undefined;
  /** resolves once the latest append is durable */
  private latest: Promise<void> = Promise.resolve();

  private readonly snapshot: () => StoreSnapshot;
  private readonly report: (line: string) => void;
  private readonly compactLogBytes: number;

  private constructor(readonly path: string, log: FileHandle, logBytes: number, snapshotBytes: number, options: DataFileOptions) {
    this.log = log;
    this.logBytes = logBytes;
    this.lastSnapshotBytes = snapshotBytes;
    this.seq = this.durableSeq = options.seq ?? 0;
    this.snapshot = options.snapshot;
    this.report = options.report;
    this.compactLogBytes = options.compactLogBytes ?? DEFAULT_COMPACT_LOG_BYTES;
  }

  /**
   * The saved snapshot and the log entries after it, or undefined when there is
   * no snapshot yet. Leftover temporary files are removed; a log without its
   * snapshot is refused rather than replayed onto other data.
   */
  static load(path: string): LoadedData | undefined {
    removeLeftovers(path);
    if (!existsSync(path)) {
      if (existsSync(logPath(path))) throw new Error(`${logPath(path)} exists without ${path}: restore ${path} or remove the log to start afresh`);
      return undefined;
    }
    const snapshot = readSnapshot(path);
    return { snapshot, entries: readLog(logPath(path)).filter((entry) => entry.seq > snapshot.seq) };
  }

  /** Opens the data file for appending. */
  static async open(path: string, options: DataFileOptions): Promise<DataFile> {
    let snapshotBytes: number;
    if (options.seq === undefined) {
      const text = JSON.stringify({ ...options.snapshot(), seq: 0 });
      writeAtomicallySync(path, text);
      snapshotBytes = Buffer.byteLength(text);
    } else {
      snapshotBytes = readFileSync(path).length;
    }
    const log = await open(logPath(path), 'a', 0o600);
    const { size } = await log.stat();
    return new DataFile(path, log, size, snapshotBytes, options);
  }

  /**
   * Appends one request's changes; resolves once they are on disk. The record is
   * serialised now, so later changes to the same objects do not alter it.
   */
  append(company: string, changes: readonly Change[]): Promise<void> {
    const entry: LogEntry = { seq: ++this.seq, company, changes: [...changes] };
    this.pending.push(`${JSON.stringify(entry)}\n`);
    const durable = new Promise<void>((resolve, reject) => this.waiters.push({ resolve, reject }));
    this.latest = durable.catch(() => undefined);
    this.writing ??= this.drain();
    return durable;
  }

  /** Resolves once every change appended so far is durable; undefined when that is already so. */
  settled(): Promise<void> | undefined {
    return this.durableSeq === this.seq ? undefined : this.latest;
  }

  /** Waits for the writes under way, then closes the log. */
  async close(): Promise<void> {
    await this.writing;
    await this.log.close();
  }

  /** Writes the pending entries, a batch per fsync, until none are left. */
  private async drain(): Promise<void> {
    while (this.pending.length > 0) {
      const batch = this.pending.join('');
      const waiters = this.waiters;
      const batchSeq = this.seq;
      this.pending = [];
      this.waiters = [];
      try {
        if (this.logBytes > Math.max(this.compactLogBytes, this.lastSnapshotBytes)) await this.compact(batchSeq);
        else await this.appendBatch(batch);
        this.durableSeq = batchSeq;
        for (const waiter of waiters) waiter.resolve();
      } catch (error) {
        this.report(`could not save to ${this.path}: ${(error as Error).message}`);
        for (const waiter of waiters) waiter.reject(error);
      }
    }
    this.writing = undefined;
  }

  private async appendBatch(batch: string): Promise<void> {
    const bytes = Buffer.from(batch, 'utf8');
    try {
      await this.log.write(bytes);
      await this.log.datasync();
      this.logBytes += bytes.length;
    } catch (error) {
      // a partial line would make the rest of the log unreadable: cut it off
      await this.log.truncate(this.logBytes).catch(() => undefined);
      throw error;
    }
  }

  /**
   * A snapshot of the whole state, taken now (it includes every change up to
   * `seq`, those of the batch in hand too), replaces the old one; then the log
   * starts again. A kill at any point leaves either the old snapshot with the
   * whole log, or the new snapshot with a log whose entries it already has.
   */
  private async compact(seq: number): Promise<void> {
    const text = JSON.stringify({ ...this.snapshot(), seq });
    const temporary = temporaryPath(this.path);
    const handle = await open(temporary, 'w', 0o600);
    try {
      await handle.writeFile(text);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, this.path);
    fsyncDirectory(dirname(this.path));
    await this.log.truncate(0);
    await this.log.sync();
    this.logBytes = 0;
    this.lastSnapshotBytes = Buffer.byteLength(text);
  }
}
