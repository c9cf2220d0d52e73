import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ExitCode, PayctlError } from '../errors.js';
import { takeLock } from '../withdrawal/lock.js';
import { assertPrivate, sharedFsync, syncFolder } from '../withdrawal/private-file.js';

/**
 * The audit trail: every POST, PUT and DELETE payctl sends, recorded before it is
 * sent (`intent`) and again with its outcome (`outcome`), in
 * `$XDG_STATE_HOME/payctl/audit.ndjson` (`~/.local/state/payctl/`). A write whose
 * outcome was unknown is later settled (`settled`) by a read that finds it.
 *
 * Each record is one line, written with a single write on a descriptor opened
 * O_APPEND (so lines of processes appending at once never interleave) and
 * flushed with fsync, shared by the records written meanwhile (a batch's rows in
 * flight). The file is rotated by size: under a lock it is renamed
 * aside (`audit-<time>-<pid>.ndjson`) and a new one begun; a process that opened
 * the old file just before writes its line there, so no line is lost, and every
 * file is read back. The folder is 0700 and the files 0600.
 */

export interface AuditIntent {
  type: 'intent';
  id: string;
  at: string;
  user: string;
  host: string;
  pid: number;
  profile: string;
  env: string;
  baseUrl: string;
  /** The sub-account the write ran in; null for the main account. */
  account: string | null;
  method: string;
  path: string;
  query?: Record<string, string>;
  /** With secrets masked. */
  body?: unknown;
}

export interface OutcomeRecord {
  type: 'outcome';
  id: string;
  at: string;
  /** HTTP status; null when no answer came. */
  status: number | null;
  /** The `id` of what the answer created or changed, when it has one. */
  resourceId: string | null;
  exitCode: number;
  error?: string;
}

/** The outcome of a write that never left: `payctl audit` shows it `not sent` (exit 4) or `refused`, with why. */
export function notSentOutcome(id: string, exitCode: number, error: string): OutcomeRecord {
  return { type: 'outcome', id, at: new Date().toISOString(), status: null, resourceId: null, exitCode, error };
}

export interface SettledRecord {
  type: 'settled';
  id: string;
  at: string;
  /** The command whose read settled it. */
  by: string;
  /** The withdrawal found, or null: none was made. */
  resourceId: string | null;
  /** Its status when found. */
  status: string | null;
}

export type AuditRecord = AuditIntent | OutcomeRecord | SettledRecord;

const DEFAULT_MAX_BYTES = 5 * 1024 * 1024;
const LOCK_WAIT_MS = 10_000;
const CURRENT = 'audit.ndjson';
const ROTATED = /^audit-[0-9TZ-]+-\d+\.ndjson$/;

/** The audit folder, from the run's environment: XDG_STATE_HOME when absolute (the spec ignores a relative one), else ~/.local/state. */
export function auditDir(env: NodeJS.ProcessEnv): string {
  const state = env.XDG_STATE_HOME && path.isAbsolute(env.XDG_STATE_HOME) ? env.XDG_STATE_HOME : path.join(env.HOME || os.homedir(), '.local', 'state');
  return path.join(state, 'payctl');
}

export const auditFile = (env: NodeJS.ProcessEnv): string => path.join(auditDir(env), CURRENT);

/** Size at which the file is rotated; PAYCTL_AUDIT_MAX_BYTES sets another (at least 1024). */
function maxBytesOf(env: NodeJS.ProcessEnv): number {
  const given = Number(env.PAYCTL_AUDIT_MAX_BYTES);
  return Number.isSafeInteger(given) && given >= 1024 ? given : DEFAULT_MAX_BYTES;
}

/** The audit file could not be written: the write it was to record is not sent (exit 2). A file payctl does not trust says so itself. */
export function auditWriteError(file: string, error: unknown): PayctlError {
  if (error instanceof PayctlError) return error;
  const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
  return new PayctlError(`cannot write the audit log ${file} (${reason}): nothing was sent`, ExitCode.usage, {
    hint: `payctl records every change before sending it; make ${path.dirname(file)} yours and writable, or set XDG_STATE_HOME to another folder`,
  });
}

export class AuditLog {
  readonly file: string;
  private readonly maxBytes: number;

  constructor(env: NodeJS.ProcessEnv) {
    this.file = auditFile(env);
    this.maxBytes = maxBytesOf(env);
  }

  /** The current file's descriptor, kept open across records so that their fsyncs are shared, until close. */
  private open?: { fd: number; ino: number; sync: () => Promise<void> };
  private readonly opened: number[] = [];

  /** Appends one record, on disk when this returns; throws what stopped it. */
  async append(record: AuditRecord): Promise<void> {
    let current = statOf(this.file);
    if ((current?.size ?? 0) >= this.maxBytes) {
      await this.rotate();
      current = statOf(this.file);
    }
    const { fd, sync } = this.descriptor(current?.ino);
    const line = Buffer.from(`${JSON.stringify(record)}\n`);
    const written = fs.writeSync(fd, line);
    if (written !== line.length) throw Object.assign(new Error(`wrote ${written} of ${line.length} bytes`), { code: 'ENOSPC' });
    await sync();
  }

  /**
   * The descriptor of the current file, opened again when the file is another (rotated aside, by this
   * process or another). One left behind stays open until close: one per rotation, rare.
   */
  private descriptor(ino: number | undefined): { fd: number; sync: () => Promise<void> } {
    if (this.open && this.open.ino === ino) return this.open;
    const dir = path.dirname(this.file);
    const made = fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    if (made) syncFolder(path.dirname(dir));
    assertPrivate(this.file, 'audit log', 'file');
    const fd = fs.openSync(this.file, fs.constants.O_WRONLY | fs.constants.O_APPEND | fs.constants.O_CREAT | fs.constants.O_NOFOLLOW, 0o600);
    if (ino === undefined) syncFolder(dir);
    this.opened.push(fd);
    this.open = { fd, ino: fs.fstatSync(fd).ino, sync: sharedFsync(fd) };
    return this.open;
  }

  /** Closes the descriptors, once every append has returned. */
  close(): void {
    for (const fd of this.opened.splice(0)) fs.closeSync(fd);
    this.open = undefined;
  }

  /** Renames the full file aside, under a lock and only if it is still full then (another process may have just done it). */
  private async rotate(): Promise<void> {
    const lock = await takeLock(`${this.file}.lock`, 'audit lock', LOCK_WAIT_MS);
    try {
      if (fileSize(this.file) < this.maxBytes) return;
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      fs.renameSync(this.file, path.join(path.dirname(this.file), `audit-${stamp}-${process.pid}.ndjson`));
      syncFolder(path.dirname(this.file));
    } finally {
      await lock.release();
    }
  }
}

function statOf(file: string): fs.Stats | undefined {
  try {
    return fs.statSync(file);
  } catch {
    return undefined;
  }
}

const fileSize = (file: string): number => statOf(file)?.size ?? 0;


/** The audit files, oldest first: rotated ones by their names (which sort by time), then the current one. */
export function auditFiles(env: NodeJS.ProcessEnv): string[] {
  const dir = auditDir(env);
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  const rotated = names.filter((name) => ROTATED.test(name)).sort();
  return [...rotated, ...(names.includes(CURRENT) ? [CURRENT] : [])].map((name) => path.join(dir, name));
}

/** The records of one file; lines that are not a record (a crash mid-line, an edit) are counted, not returned. */
export function readRecords(file: string): { records: AuditRecord[]; damaged: number } {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return { records: [], damaged: 0 };
  }
  const records: AuditRecord[] = [];
  let damaged = 0;
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const record = parseRecord(line);
    if (record) records.push(record);
    else damaged++;
  }
  return { records, damaged };
}

function parseRecord(line: string): AuditRecord | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (!value || typeof value !== 'object') return undefined;
  const record = value as Partial<AuditRecord>;
  if (typeof record.id !== 'string' || typeof record.at !== 'string') return undefined;
  if (record.type === 'intent') return typeof record.method === 'string' && typeof record.path === 'string' ? (record as AuditIntent) : undefined;
  if (record.type === 'outcome') return typeof record.exitCode === 'number' ? (record as OutcomeRecord) : undefined;
  if (record.type === 'settled') return record as SettledRecord;
  return undefined;
}
