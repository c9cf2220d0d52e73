import { describe, expect, it } from 'vitest';
import { sendRows, throwForOutcome, type BatchClient, type BatchEnd, type SendInput, type SendResult } from '../../src/batch/engine.js';
import { JournalWriteError, type JournalRecord } from '../../src/batch/journal.js';
import { reportRow, type ReportRow, type RowOutcome } from '../../src/batch/report.js';
import { parseBatch, type BatchRow } from '../../src/batch/rows.js';
import { ExitCode, PayctlError } from '../../src/errors.js';

/**
 * The batch engine in-process, against a fake client whose sends stall until the
 * test answers them, in any order: no timer anywhere, every step waits for an
 * observed event (a send started, the engine's promise settled).
 */

function rowsOf(count: number): BatchRow[] {
  const lines = Array.from({ length: count }, (_, i) => `${1000 + i},${i + 1}`);
  const { rows, problems } = parseBatch(['amount,bank_account_id', ...lines].join('\n'), 'card', null, { separator: ',', allowDuplicateRows: false });
  expect(problems).toEqual([]);
  return rows;
}

interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
  reject(error: unknown): void;
}

function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  return { promise, resolve, reject };
}

interface Send {
  row: BatchRow;
  /** The journal as it stood on disk (flushed) when the send started. */
  journalBefore: JournalRecord[];
  answer: Deferred<{ id: string; status: string }>;
  ended: boolean;
}

/** A journal kept in memory; `failOn` makes one record's write fail as a full disk would. */
function memoryJournal(failOn?: (record: JournalRecord) => boolean) {
  const records: JournalRecord[] = [];
  const journal = {
    records,
    /** How many records a flush has put on disk. */
    flushed: 0,
    append(record: JournalRecord) {
      if (failOn?.(record)) throw new JournalWriteError('batch.csv.journal', 'ENOSPC');
      records.push(record);
    },
    flush() {
      journal.flushed = records.length;
      return Promise.resolve();
    },
  };
  return journal;
}

/** A client whose every send stalls until the test answers it; counts the sends in flight. */
function stallingClient(journal: { records: JournalRecord[]; flushed: number }) {
  const sends: Send[] = [];
  const waiters: Array<{ count: number; resolve(): void }> = [];
  let inFlight = 0;
  let mostInFlight = 0;
  /** The rows set aside unsent after their intents were written, by line, with why. */
  const notSent: Array<[number, string]> = [];
  const client: BatchClient = {
    clockOffset: () => Promise.resolve(undefined),
    notSent: async (row, reason) => {
      notSent.push([row.line, reason]);
    },
    send(row) {
      inFlight++;
      mostInFlight = Math.max(mostInFlight, inFlight);
      const send: Send = { row, journalBefore: journal.records.slice(0, journal.flushed), answer: deferred(), ended: false };
      sends.push(send);
      for (const waiter of waiters.filter((w) => sends.length >= w.count)) waiter.resolve();
      return send.answer.promise.finally(() => {
        inFlight--;
        send.ended = true;
      });
    },
  };
  return {
    client,
    sends,
    notSent,
    get mostInFlight() {
      return mostInFlight;
    },
    /** Resolves once `count` sends have started. */
    started(count: number): Promise<void> {
      if (sends.length >= count) return Promise.resolve();
      return new Promise((resolve) => waiters.push({ count, resolve }));
    },
  };
}

/** Starts sending `count` rows through a stalling client into a journal in memory. */
function startBatch(count: number, concurrency: number, options: Partial<Pick<SendInput, 'signal' | 'lockLost'>> & { failOn?: (record: JournalRecord) => boolean } = {}) {
  const rows = rowsOf(count);
  const journal = memoryJournal(options.failOn);
  const fake = stallingClient(journal);
  const { signal = new AbortController().signal, lockLost = () => false } = options;
  const run = sendRows({ rows, journal, client: fake.client, signal, concurrency, lockLost });
  return { rows, journal, fake, run };
}

const created = (row: BatchRow) => ({ id: `w-${row.line}`, status: 'PENDING' });
const outcomeOf = (result: SendResult, row: BatchRow) => result.outcomes.get(row.key)!;
const typesOf = (records: JournalRecord[], row: BatchRow) => records.filter((r) => 'key' in r && r.key === row.key).map((r) => r.type);

describe('the batch engine', () => {
  it('never has more rows in flight than its concurrency, and takes answers in any order', async () => {
    const { rows, fake, run } = startBatch(7, 3);
    // Answer the newest send first, each time a new one may start: the rows end out of their order.
    for (let answered = 0; answered < rows.length; answered++) {
      await fake.started(Math.min(answered + 3, rows.length));
      const newest = fake.sends.filter((send) => !send.ended).at(-1)!;
      newest.answer.resolve(created(newest.row));
    }
    const result = await run;
    expect(fake.mostInFlight).toBe(3);
    expect(fake.sends.map((send) => send.row.line)).toEqual(rows.map((row) => row.line));
    for (const row of rows) expect(outcomeOf(result, row)).toMatchObject({ outcome: 'sent', withdrawalId: `w-${row.line}`, status: 'PENDING' });
    expect(result.stopped).toBeUndefined();
    expect(exitOf(result)).toBe(ExitCode.ok);
  });

  it("writes each row's intent before its send, the next row's while it is in flight, and its outcome after the answer", async () => {
    const { rows, journal, fake, run } = startBatch(3, 1);
    for (let i = 0; i < rows.length; i++) {
      await fake.started(i + 1);
      const send = fake.sends[i]!;
      expect(send.journalBefore.filter((r) => r.type === 'intent' && r.key === send.row.key)).toHaveLength(1);
      send.answer.resolve(created(send.row));
    }
    await run;
    // With one row in flight, one more row's intent is written ahead of it: on disk long before its send.
    expect(journal.records.map((r) => `${r.type} ${'line' in r ? r.line : (r as { withdrawalId?: string }).withdrawalId}`)).toEqual([
      'intent 2', 'intent 3', 'done w-2', 'intent 4', 'done w-3', 'done w-4',
    ]);
  });

  it("has each row's intent on disk before the rows ahead of it are answered, up to its concurrency ahead, sent in the file's order", async () => {
    const { rows, journal, fake, run } = startBatch(9, 3);
    await fake.started(3);
    // One turn of the event loop: the intents being written are written.
    await new Promise((resolve) => setImmediate(resolve));
    expect(journal.flushed).toBe(6);
    // Rows 4-6 are written ahead while rows 1-3 are in flight; row 7 waits for a row to end.
    expect(journal.records.filter((r) => r.type === 'intent').map((r) => (r as { line: number }).line)).toEqual(rows.slice(0, 6).map((row) => row.line));
    for (let answered = 0; answered < rows.length; answered++) {
      await fake.started(Math.min(answered + 3, rows.length));
      const oldest = fake.sends.find((send) => !send.ended)!;
      oldest.answer.resolve(created(oldest.row));
    }
    await run;
    expect(fake.sends.map((send) => send.row.line)).toEqual(rows.map((row) => row.line));
    expect(fake.mostInFlight).toBe(3);
  });

  it('stops starting rows when its signal is aborted, lets those in flight finish, and names the rows not sent', async () => {
    const stop = new AbortController();
    const { rows, journal, fake, run } = startBatch(5, 2, { signal: stop.signal });
    await fake.started(2);
    stop.abort();
    fake.sends[1]!.answer.resolve(created(fake.sends[1]!.row));
    fake.sends[0]!.answer.resolve(created(fake.sends[0]!.row));
    const result = await run;
    expect(fake.sends).toHaveLength(2);
    expect(result.stopped).toBe('interrupted');
    expect(rows.map((row) => outcomeOf(result, row).outcome)).toEqual(['sent', 'sent', 'not-sent', 'not-sent', 'not-sent']);
    expect(outcomeOf(result, rows[2]!).error).toBe('not sent: interrupted');
    // The rows written ahead are set aside as not sent, for the client too (their audit intents); a rerun sends them.
    expect(rows.slice(2).map((row) => typesOf(journal.records, row))).toEqual([['intent', 'not-sent'], ['intent', 'not-sent'], []]);
    expect(fake.notSent).toEqual([[rows[2]!.line, 'not sent: interrupted'], [rows[3]!.line, 'not sent: interrupted']]);
    expect(exitOf(result)).toBe(ExitCode.interrupted);
  });

  it('records a row whose answer never came, or came as a 5xx, as unknown, and a refused row as failed', async () => {
    const { rows, journal, fake, run } = startBatch(4, 4);
    await fake.started(4);
    fake.sends[0]!.answer.reject(new PayctlError('no answer from the API', ExitCode.unknownOutcome));
    fake.sends[1]!.answer.reject(new PayctlError('internal error', ExitCode.apiRefused, { status: 502 }));
    fake.sends[2]!.answer.reject(new PayctlError('insufficient balance', ExitCode.apiRefused, { status: 422, returnCode: 3 }));
    fake.sends[3]!.answer.reject(new TypeError('socket hang up'));
    const result = await run;
    expect(rows.map((row) => outcomeOf(result, row).outcome)).toEqual(['unknown', 'unknown', 'failed', 'unknown']);
    expect(rows.map((row) => typesOf(journal.records, row))).toEqual([
      ['intent', 'unknown'],
      ['intent', 'unknown'],
      ['intent', 'failed'],
      ['intent', 'unknown'],
    ]);
    expect(journal.records.find((r) => r.type === 'failed')).toMatchObject({ exitCode: ExitCode.apiRefused, error: 'insufficient balance (returnCode 3, HTTP 422)' });
    expect(result.stopped).toBeUndefined();
    // The worst outcome decides: unknown over failed.
    expect(exitOf(result)).toBe(ExitCode.unknownOutcome);
  });

  it('stops after an authentication failure: the rows after it are not sent, exit 3', async () => {
    const { rows, fake, run } = startBatch(3, 1);
    await fake.started(1);
    fake.sends[0]!.answer.reject(new PayctlError('token expired', ExitCode.auth, { status: 401 }));
    const result = await run;
    expect(fake.sends).toHaveLength(1);
    expect(result.stopped).toBe('auth');
    expect(rows.map((row) => outcomeOf(result, row).outcome)).toEqual(['failed', 'not-sent', 'not-sent']);
    expect(exitOf(result)).toBe(ExitCode.auth);
  });

  it('stops when a request never reached the API: that row and the rows after it are not sent, and the journal says so for the rerun', async () => {
    const { rows, journal, fake, run } = startBatch(4, 2);
    await fake.started(2);
    fake.sends[0]!.answer.resolve(created(rows[0]!));
    await fake.started(3);
    fake.sends[1]!.answer.reject(new PayctlError('connection refused', ExitCode.network, { neverReachedServer: true }));
    fake.sends[2]!.answer.resolve(created(rows[2]!));
    // Were the last row started, it is answered, so that the run ends and the count below fails.
    void fake.started(4).then(() => fake.sends[3]!.answer.resolve(created(rows[3]!)));
    const result = await run;
    expect(fake.sends).toHaveLength(3);
    expect(result.stopped).toBe('unreachable');
    expect(rows.map((row) => outcomeOf(result, row).outcome)).toEqual(['sent', 'not-sent', 'sent', 'not-sent']);
    expect(typesOf(journal.records, rows[1]!)).toEqual(['intent', 'not-sent']);
    expect(exitOf(result)).toBe(ExitCode.network);
  });

  it('a network failure after the request reached the server is not taken for one that never left', async () => {
    const { rows, fake, run } = startBatch(2, 2);
    await fake.started(2);
    fake.sends[0]!.answer.reject(new PayctlError('the connection was reset', ExitCode.network));
    fake.sends[1]!.answer.resolve(created(rows[1]!));
    const result = await run;
    expect(result.stopped).toBeUndefined();
    expect(rows.map((row) => outcomeOf(result, row).outcome)).toEqual(['failed', 'sent']);
  });

  it('stops when the journal cannot be written: a row answered but not recorded makes the exit 5', async () => {
    const { rows, fake, run } = startBatch(3, 1, { failOn: (record) => record.type === 'done' });
    await fake.started(1);
    fake.sends[0]!.answer.resolve(created(rows[0]!));
    const result = await run;
    expect(fake.sends).toHaveLength(1);
    expect(result.stopped).toBe('journal');
    expect(result.unrecorded).toEqual([rows[0]]);
    expect(outcomeOf(result, rows[0]!).error).toContain('not recorded: the journal batch.csv.journal could not be written (ENOSPC)');
    expect(exitOf(result)).toBe(ExitCode.unknownOutcome);
  });

  it('sends nothing for a row whose intent cannot be written', async () => {
    const { rows, fake, run } = startBatch(2, 2, { failOn: (record) => record.type === 'intent' });
    const result = await run;
    expect(fake.sends).toHaveLength(0);
    expect(result.stopped).toBe('journal');
    expect(rows.map((row) => outcomeOf(result, row).outcome)).toEqual(['not-sent', 'not-sent']);
    expect(exitOf(result)).toBe(ExitCode.localFailure);
  });

  it("stops starting rows once the journal's lock is lost", async () => {
    let lost = false;
    const { rows, fake, run } = startBatch(3, 1, { lockLost: () => lost });
    await fake.started(1);
    lost = true;
    fake.sends[0]!.answer.resolve(created(rows[0]!));
    const result = await run;
    expect(fake.sends).toHaveLength(1);
    expect(result.stopped).toBe('lock-lost');
    expect(outcomeOf(result, rows[1]!).error).toBe("not sent: the journal's lock was taken over by another process");
    expect(exitOf(result)).toBe(ExitCode.unknownOutcome);
  });

  it("writes nothing for a row written ahead once the journal's lock is lost: the journal is the new holder's, whose outcome for the row a not-sent record would undo", async () => {
    let lost = false;
    const { rows, journal, fake, run } = startBatch(3, 1, { lockLost: () => lost });
    await fake.started(1);
    // Row 2's intent was written ahead; the run that took the lock over reads it, then pays row 2 itself.
    expect(typesOf(journal.records, rows[1]!)).toEqual(['intent']);
    lost = true;
    journal.records.push({ type: 'done', key: rows[1]!.key, withdrawalId: 'w-by-the-new-holder', status: 'PENDING', at: new Date().toISOString() });
    fake.sends[0]!.answer.resolve(created(rows[0]!));
    const result = await run;
    expect(fake.sends).toHaveLength(1);
    expect(typesOf(journal.records, rows[1]!)).toEqual(['intent', 'done']);
    // Its audit intent is still told it was not sent: this run never sent it.
    expect(fake.notSent).toEqual([[rows[1]!.line, "not sent: the journal's lock was taken over by another process"]]);
    expect(exitOf(result)).toBe(ExitCode.unknownOutcome);
  });

  it("writes no outcome for a row in flight once the journal's lock is lost: a refusal after the new holder paid the row would undo its done", async () => {
    let lost = false;
    const { rows, journal, fake, run } = startBatch(3, 1, { lockLost: () => lost });
    await fake.started(1);
    // The run that took the lock over settles row 1 from the platform and pays it; this run's request for it is then refused.
    lost = true;
    journal.records.push({ type: 'done', key: rows[0]!.key, withdrawalId: 'w-by-the-new-holder', status: 'PENDING', at: new Date().toISOString() });
    fake.sends[0]!.answer.reject(new PayctlError('insufficient balance', ExitCode.apiRefused, { status: 422 }));
    const result = await run;
    expect(typesOf(journal.records, rows[0]!)).toEqual(['intent', 'done']);
    expect(outcomeOf(result, rows[0]!)).toMatchObject({ outcome: 'failed', error: expect.stringMatching(/not recorded: the journal's lock was taken over/) });
    expect(exitOf(result)).toBe(ExitCode.unknownOutcome);
  });

  it('counts rows the ledger held (exit 2 when they are all that is unpaid)', async () => {
    const { rows, fake, run } = startBatch(2, 2);
    await fake.started(2);
    fake.sends[1]!.answer.resolve(created(rows[1]!));
    fake.sends[0]!.answer.reject(new PayctlError('claimed by another operator', ExitCode.usage));
    const result = await run;
    expect(result.held).toBe(1);
    expect(exitOf(result)).toBe(ExitCode.usage);
  });
});

describe('the exit of a batch, by its worst outcome', () => {
  const [row] = rowsOf(1);
  const report = (...outcomes: RowOutcome[]) => outcomes.map((outcome) => reportRow(row!, outcome));

  it.each([
    [['sent', 'already-done', 'reconciled'], {}, 0, ExitCode.ok],
    [['planned', 'already-done'], {}, 0, ExitCode.ok],
    [['sent', 'failed'], {}, 0, ExitCode.rowsNotPaid],
    [['failed', 'unknown', 'not-sent'], { stopped: 'interrupted' }, 0, ExitCode.unknownOutcome],
    [['sent'], {}, 1, ExitCode.unknownOutcome],
    [['failed', 'not-sent'], { stopped: 'auth' }, 0, ExitCode.auth],
    [['failed', 'not-sent'], { stopped: 'interrupted' }, 0, ExitCode.interrupted],
    [['failed', 'not-sent'], { stopped: 'ledger' }, 0, ExitCode.network],
  ] as const)('%j stopped by %j with %i orphans: exit %i', (outcomes, sending, orphans, code) => {
    expect(exitFor(report(...outcomes), { unrecorded: [], held: 0, ...sending }, orphans)).toBe(code);
  });
});

/** The exit code throwForOutcome gives, 0 when it does not throw. */
function exitFor(report: ReportRow[], sending: BatchEnd['sending'], orphans = 0): number {
  try {
    throwForOutcome(report, { orphans, sending, reconcileCommand: 'payctl withdraw batch f.csv --method card --reconcile' });
    return ExitCode.ok;
  } catch (error) {
    return (error as PayctlError).exitCode;
  }
}

const exitOf = (result: SendResult) => exitFor([...result.outcomes.values()], result);
