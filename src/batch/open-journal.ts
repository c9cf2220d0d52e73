import os from 'node:os';
import type { WithdrawalMethod } from '../api/types.js';
import type { Settings } from '../config/settings.js';
import { usageError } from '../errors.js';
import { describeHolder, LockBusy, platformAccount, takeLock, type HeldLock } from '../withdrawal/lock.js';
import type { BatchJournal } from './engine.js';
import { JournalWriter, readJournal, JOURNAL_VERSION, type JournalContents, type JournalHeader } from './journal.js';

/**
 * A batch's journal as one run holds it: locked against a second run, checked to
 * belong to this batch, and written from the first record on (never under --dry-run).
 */

/** Which journal, for which batch; `journalFlag` names it in messages. */
export interface JournalPlan {
  method: WithdrawalMethod;
  journalFile: string;
  journalFlag: string;
}

/** What opening a journal reads of the run: the platform and account it runs against, and whether it is a dry run. */
export interface JournalRun {
  settings(): Pick<Settings, 'baseUrl' | 'subaccount'>;
  readonly flags: { readonly dryRun: boolean };
  accountLabel(): string;
}

export interface OpenJournal extends BatchJournal {
  contents: JournalContents;
  close(): void;
}

/** One run per journal: a second one refuses at once, naming the first. */
export async function lockJournal(journalFile: string): Promise<HeldLock> {
  try {
    return await takeLock(`${journalFile}.lock`, 'journal lock', 0);
  } catch (error) {
    if (!(error instanceof LockBusy)) throw error;
    throw usageError(
      `the journal ${journalFile} is in use by another payctl${error.holder ? `: ${describeHolder(error.holder)}` : ''}; one batch at a time per journal, nothing was sent`,
      'wait for that run to finish, then run this again: rows it paid are skipped',
    );
  }
}

/**
 * The journal, checked to belong to this kind of batch; the file is written only
 * when something is recorded, and never under --dry-run (its records are dropped).
 */
export function openJournal(run: JournalRun, plan: JournalPlan): OpenJournal {
  let contents: JournalContents;
  try {
    contents = readJournal(plan.journalFile);
  } catch (error) {
    throw usageError(
      `${plan.journalFlag} ${plan.journalFile}: ${(error as Error).message}; nothing was sent`,
      'the journal records which rows were paid: do not delete it; restore it from a backup, or fix that line by hand',
    );
  }
  const settings = run.settings();
  const account = settings.subaccount ?? null;
  const header = contents.header;
  if (header && (header.method !== plan.method || accountOfHeader(header) !== platformAccount(settings.baseUrl, account ?? undefined))) {
    throw usageError(
      `${plan.journalFlag} ${plan.journalFile} belongs to a ${header.method} batch against ${header.baseUrl} in the ${header.account ? `sub-account ${header.account}` : 'main account'}, ` +
        `not to this ${plan.method} batch against ${settings.baseUrl} in the ${run.accountLabel()}`,
      `run it with the same profile, account and method, or give another ${plan.journalFlag}`,
    );
  }
  let writer: JournalWriter | undefined;
  return {
    contents,
    append: (record) => {
      if (run.flags.dryRun) return;
      if (!writer) {
        writer = new JournalWriter(plan.journalFile);
        const at = new Date().toISOString();
        if (!header) writer.append({ type: 'batch', version: JOURNAL_VERSION, method: plan.method, baseUrl: settings.baseUrl, account, at });
        writer.append({ type: 'run', pid: process.pid, host: os.hostname(), at });
      }
      writer.append(record);
    },
    flush: async () => writer?.flush(),
    close: () => writer?.close(),
  };
}

/**
 * The platform account a journal was written against, as the locks name it: a rerun through
 * `localhost` of a batch run through `127.0.0.1` (or with a trailing `/`) is the same batch.
 * A base URL that is not one (an edited journal) matches nothing.
 */
function accountOfHeader(header: JournalHeader): string {
  try {
    return platformAccount(header.baseUrl, header.account ?? undefined);
  } catch {
    return `unreadable ${header.baseUrl}`;
  }
}
