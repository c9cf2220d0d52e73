import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { lockJournal, openJournal, type JournalPlan, type JournalRun } from '../../src/batch/open-journal.js';
import { readJournal, type JournalRecord } from '../../src/batch/journal.js';
import { ExitCode, PayctlError } from '../../src/errors.js';

/** The journal a batch run holds, in-process: no command line, no sandbox (opening reads and writes only the file). */

const journalFile = () => path.join(mkdtempSync(path.join(tmpdir(), 'payctl-journal-')), 'batch.csv.journal');
const planFor = (file: string, method: JournalPlan['method'] = 'pix'): JournalPlan => ({ method, journalFile: file, journalFlag: '--journal' });

function runOn(baseUrl: string, { dryRun = false, subaccount }: { dryRun?: boolean; subaccount?: string } = {}): JournalRun {
  return { settings: () => ({ baseUrl, subaccount }), flags: { dryRun }, accountLabel: () => (subaccount ? `sub-account ${subaccount}` : 'main account') };
}

const DONE: JournalRecord = { type: 'done', key: 'a'.repeat(32), withdrawalId: 'w-1', status: 'PENDING', at: '2026-11-26T20:00:00.000Z' };

/** The usage error `act` throws (exit 2), as its message. */
function refusal(act: () => unknown): string {
  try {
    act();
  } catch (error) {
    expect(error).toBeInstanceOf(PayctlError);
    expect((error as PayctlError).exitCode).toBe(ExitCode.usage);
    return (error as Error).message;
  }
  throw new Error('not refused');
}

describe('opening a batch journal', () => {
  it('writes nothing until a record is appended; the first one comes after the batch header and this run', async () => {
    const file = journalFile();
    const journal = openJournal(runOn('http://127.0.0.1:9'), planFor(file));
    expect(journal.contents.rows.size).toBe(0);
    expect(existsSync(file)).toBe(false);
    journal.append(DONE);
    await journal.flush();
    journal.close();
    const contents = readJournal(file);
    expect(contents.header).toMatchObject({ type: 'batch', method: 'pix', baseUrl: 'http://127.0.0.1:9', account: null });
    expect(contents.rows.get(DONE.key)).toEqual({ state: 'done', withdrawalId: 'w-1', status: 'PENDING' });
  });

  it('under --dry-run, records are dropped and no file is made', async () => {
    const file = journalFile();
    const journal = openJournal(runOn('http://127.0.0.1:9', { dryRun: true }), planFor(file));
    journal.append(DONE);
    await journal.flush();
    journal.close();
    expect(existsSync(file)).toBe(false);
  });

  it("reopens its own batch, through another spelling of the same host; refuses another method's or account's, naming the flag", async () => {
    const file = journalFile();
    const first = openJournal(runOn('http://127.0.0.1:9'), planFor(file));
    first.append(DONE);
    first.close();
    expect(openJournal(runOn('http://localhost:9/'), planFor(file)).contents.rows.get(DONE.key)).toMatchObject({ state: 'done' });
    expect(refusal(() => openJournal(runOn('http://127.0.0.1:9'), planFor(file, 'card')))).toMatch(
      /^--journal .*batch\.csv\.journal belongs to a pix batch against http:\/\/127\.0\.0\.1:9 in the main account, not to this card batch .* in the main account$/,
    );
    expect(refusal(() => openJournal(runOn('http://127.0.0.1:9', { subaccount: 'sub-1' }), planFor(file)))).toMatch(/not to this pix batch .* in the sub-account sub-1$/);
  });

  it('refuses a journal damaged in the middle, naming the flag, and sends nothing', () => {
    const file = journalFile();
    writeFileSync(file, `${JSON.stringify(DONE)}\nnot json\n${JSON.stringify({ ...DONE, key: 'b'.repeat(32) })}\n`);
    expect(refusal(() => openJournal(runOn('http://127.0.0.1:9'), planFor(file)))).toMatch(/^--journal .*batch\.csv\.journal: .*; nothing was sent$/);
  });
});

describe('the journal lock', () => {
  it('one run at a time: a second is refused at once, naming the first; once released it can be taken again', async () => {
    const file = journalFile();
    const held = await lockJournal(file);
    try {
      await expect(lockJournal(file)).rejects.toThrow(new RegExp(`^the journal .* is in use by another payctl: .*pid ${process.pid}.*nothing was sent$`));
    } finally {
      await held.release();
    }
    await (await lockJournal(file)).release();
  });
});
