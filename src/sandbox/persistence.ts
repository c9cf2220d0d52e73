/**
 * The --data file: loaded at start, saved atomically after changes. Saves are
 * coalesced: while one is being written, further changes only mark the state
 * dirty, and one more save follows; so a burst of 200 writes costs a few full
 * serialisations, the last change is never lost, and flush() waits for it.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { StoreSnapshot } from './store.js';

/** Delay that lets a burst of changes land in one save. */
const COALESCE_MS = 25;

export class DataFile {
  private dirty = false;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private lastError: unknown;

  constructor(
    readonly path: string,
    private readonly snapshot: () => StoreSnapshot,
    private readonly log: (line: string) => void,
  ) {}

  /** The saved snapshot, or undefined when the file does not exist yet. */
  static load(path: string): StoreSnapshot | undefined {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    return JSON.parse(text) as StoreSnapshot;
  }

  /** Notes a change; the save happens shortly, off the request path. */
  changed(): void {
    this.dirty = true;
    if (this.running || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.run();
    }, COALESCE_MS);
  }

  /** Resolves once every change so far is on disk; rejects if the last save failed. */
  async flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    await this.run();
    if (this.lastError) throw this.lastError;
  }

  /** The save in progress, or a new one; there is never more than one. */
  private run(): Promise<void> {
    this.running ??= this.saveWhileDirty().finally(() => (this.running = undefined));
    return this.running;
  }

  private async saveWhileDirty(): Promise<void> {
    while (this.dirty) {
      this.dirty = false;
      try {
        await this.writeAtomically(JSON.stringify(this.snapshot()));
        this.lastError = undefined;
      } catch (error) {
        // Kept dirty: the next change (or flush) tries again.
        this.dirty = true;
        this.lastError = error;
        this.log(`could not save ${this.path}: ${(error as Error).message}`);
        return;
      }
    }
  }

  /** Temp file in the same directory, fsync, rename: a reader sees the old or the new file, never half of one. */
  private async writeAtomically(json: string): Promise<void> {
    const temporary = join(dirname(this.path), `.${basename(this.path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
    const handle = await open(temporary, 'w', 0o600);
    try {
      await handle.writeFile(json);
      await handle.sync();
    } finally {
      await handle.close();
    }
    try {
      await rename(temporary, this.path);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
  }
}
