import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseBatch } from '../../src/batch/rows.js';
import { startSandboxSession, type SandboxSession } from '../helpers/sandbox.js';
import { batchStoppedByCtrlC } from '../team/helpers.js';
import { csvFile, expectPaidOnce, fundedMainAccount, PIX_HEADER, pixKeys, pixRows, sandboxWithdrawals, shim, startProxy, withdrawalCount } from './helpers.js';

/** The journal: flushed before every request, readable after any crash, trusted only when it is yours alone. */
let s: SandboxSession;
let bank: string;

beforeAll(async () => {
  s = await startSandboxSession('acme', { latencyMs: 10 });
  bank = await fundedMainAccount(s);
});
afterAll(() => s?.close());

// A NODE_OPTIONS shim acts only in a new process; other runs are in-process.
const batch = (file: string, extra: string[] = [], env: Record<string, string> = {}) =>
  (env.NODE_OPTIONS ? s.runProcess : s.run)(['withdraw', 'batch', file, '--method', 'pix', '--yes', '--main-account', ...extra], { env });

/** What the journal-trace shim saw: writes, fsyncs and closes of the journal and the audit log, and POSTs, in order. */
interface TraceEvent {
  event: string;
  text?: string;
  body?: string;
  id?: number;
  fd?: number;
}

/** The events a run with the journal-trace shim wrote to `trace`, and a question about them. */
function readTrace(trace: string) {
  const events = readFileSync(trace, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as TraceEvent);
  /** Whether an fsync (`audit-` ones: of the log's descriptor `fd`) begun after event `after` had ended before event `before`. */
  const flushedBetween = (after: number, before: number, prefix = '', fd?: number) =>
    events.some(
      (e, i) =>
        e.event === `${prefix}fsync-start` && (fd === undefined || e.fd === fd) && i > after &&
        events.findIndex((end, j) => j > i && j < before && end.event === `${prefix}fsync` && end.id === e.id) >= 0,
    );
  return { events, flushedBetween };
}

/** The environment of a run traced into `trace` (`env` may add to NODE_OPTIONS). */
const tracing = (trace: string, env: Record<string, string> = {}) => ({ ...env, NODE_OPTIONS: [env.NODE_OPTIONS, shim('journal-trace')].filter(Boolean).join(' '), PAYCTL_TEST_TRACE: trace });

/** A batch run with the journal-trace shim: its result and events. */
async function tracedBatch(file: string, extra: string[], env: Record<string, string> = {}) {
  const trace = path.join(path.dirname(file), 'trace.ndjson');
  const result = await batch(file, extra, tracing(trace, env));
  return { result, ...readTrace(trace) };
}

/** In a traced run: each POST left after its audit intent was on disk, and every write's outcome was on disk before the log closed. */
function expectAuditOnDisk({ events, flushedBetween }: ReturnType<typeof readTrace>, run: string): void {
  const posts = events.filter((e) => e.event === 'post');
  expect(posts.length, run).toBeGreaterThan(0);
  for (const post of posts) {
    const key = (JSON.parse(post.body!) as { pixKey: string }).pixKey;
    const intent = events.findIndex((e) => e.event === 'audit-write' && e.text!.includes('"type":"intent"') && e.text!.includes(`"${key}"`));
    expect(intent, `audit intent of ${key}`).toBeGreaterThanOrEqual(0);
    expect(flushedBetween(intent, events.indexOf(post), 'audit-', events[intent]!.fd), `audit intent of ${key} on disk before its POST`).toBe(true);
  }
  const intents = events.filter((e) => e.event === 'audit-write' && e.text!.includes('"type":"intent"'));
  const outcomes = events.flatMap((e, i) => (e.event === 'audit-write' && e.text!.includes('"type":"outcome"') ? [i] : []));
  // Every write recorded has its outcome (sent, refused, or not sent), each on disk before its descriptor closed.
  expect(outcomes, run).toHaveLength(intents.length);
  for (const outcome of outcomes) {
    const { fd, text } = events[outcome]!;
    const closed = events.findIndex((e, j) => j > outcome && e.event === 'audit-close' && e.fd === fd);
    expect(closed, `${run}: the log closed after ${text}`).toBeGreaterThan(outcome);
    expect(flushedBetween(outcome, closed, 'audit-', fd), `${run}: ${text} on disk before the log closed`).toBe(true);
  }
}

describe('every record is on disk before the request it describes leaves', () => {
  it('each POST leaves after its intent was written and an fsync begun after that write has ended; the last write is flushed too', async () => {
    const file = csvFile('traced.csv', [PIX_HEADER, ...pixRows('traced', 20, bank)]);
    const { result, events, flushedBetween } = await tracedBatch(file, ['--concurrency', '4']);
    expect(result.code, result.stderr).toBe(0);
    const writes = events.filter((e) => e.event === 'write');
    const posts = events.filter((e) => e.event === 'post');
    // header, this run's record, then an intent and an outcome per row
    expect(writes).toHaveLength(2 + 2 * 20);
    expect(posts).toHaveLength(20);
    for (const post of posts) {
      const key = (JSON.parse(post.body!) as { pixKey: string }).pixKey;
      const intent = events.findIndex((e) => e.event === 'write' && e.text!.includes('"type":"intent"') && e.text!.includes(`"${key}"`));
      expect(intent, `intent of ${key}`).toBeGreaterThanOrEqual(0);
      expect(flushedBetween(intent, events.indexOf(post)), `intent of ${key} on disk before its POST`).toBe(true);
    }
    expect(flushedBetween(events.lastIndexOf(writes.at(-1)!), events.length), 'the last record on disk at the end').toBe(true);
  });

  it("the audit log too: each POST leaves after its audit intent is on disk, and every outcome is on disk before the log closes, whether the batch pays all, has a row refused, rotates the log, or stops as its journal's fsync fails", async () => {
    const state = mkdtempSync(path.join(tmpdir(), 'payctl-state-'));
    const runs: Array<{ prefix: string; env: Record<string, string>; codes: number[]; rows?: string[] }> = [
      { prefix: 'audited', env: {}, codes: [0] },
      // Bank account 1 is not the account's: the API refuses that row, the others are paid.
      { prefix: 'audited-refused', env: {}, codes: [1], rows: [...pixRows('audited-refused', 3, bank), ...pixRows('audited-refused-x', 1, 1)] },
      // Rotated aside at almost every record: an outcome's write then waits for the rotation's lock, after its request has returned.
      { prefix: 'audited-rotated', env: { PAYCTL_AUDIT_MAX_BYTES: '1024' }, codes: [0] },
      // 5 when rows were in flight as the journal failed (their outcomes cannot be journaled), else 4. The third fsync
      // fails while rows are still to be sent: eight rows (four sent, four written ahead) are written before an answer
      // comes, in at most two fsyncs when nothing is slow, and the rows after them need fsyncs of their own.
      { prefix: 'audited-eio', env: { NODE_OPTIONS: shim('enospc'), PAYCTL_TEST_JOURNAL_WRITES: String(Number.MAX_SAFE_INTEGER), PAYCTL_TEST_JOURNAL_FSYNCS: '2' }, codes: [4, 5] },
    ];
    for (const run of runs) {
      const file = csvFile(`${run.prefix}.csv`, [PIX_HEADER, ...(run.rows ?? pixRows(run.prefix, 12, bank))]);
      const { result, ...trace } = await tracedBatch(file, ['--concurrency', '4'], { ...run.env, XDG_STATE_HOME: state });
      expect(run.codes, `${run.prefix}: ${result.stderr}`).toContain(result.code);
      expectAuditOnDisk(trace, run.prefix);
    }
  });
});

describe('Ctrl-C in a batch', () => {
  it('lets the rows in flight finish: their audit outcomes are on disk before the log closes (exit 130), and a rerun pays every row once', async () => {
    const file = csvFile('ctrl-c.csv', [PIX_HEADER, ...pixRows('ctrl-c', 12, bank)]);
    const trace = path.join(path.dirname(file), 'trace.ndjson');
    const proxy = await startProxy(s.sandbox.url);
    try {
      const env = tracing(trace, { ...s.env, PAYCTL_BASE_URL: proxy.url, XDG_STATE_HOME: mkdtempSync(path.join(tmpdir(), 'payctl-state-')) });
      // The first four rows are made; their answers wait until Ctrl-C has been heard.
      const stopped = await batchStoppedByCtrlC(proxy, 'holdAnswers', ['withdraw', 'batch', file, '--method', 'pix', '--yes', '--main-account', '--concurrency', '4'], env, 4);
      expect(stopped.code, stopped.stderr).toBe(130);
      const traced = readTrace(trace);
      expectAuditOnDisk(traced, 'ctrl-c');
      // The four rows written ahead of those in flight are set aside, never sent: not sent in the journal and in the
      // audit log, so that the rerun sends them without --reconcile.
      const setAside = readFileSync(`${file}.journal`, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { type: string; error?: string }).filter((r) => r.type === 'not-sent');
      expect(setAside.map((r) => r.error)).toEqual(Array(4).fill('not sent: interrupted'));
      expect(traced.events.filter((e) => e.event === 'audit-write' && e.text!.includes('"type":"outcome"') && e.text!.includes('not sent: interrupted'))).toHaveLength(4);
      expect(proxy.posts).toHaveLength(4);
      const rerun = await batch(file, [], { PAYCTL_BASE_URL: proxy.url });
      expect(rerun.code, rerun.stderr).toBe(0);
    } finally {
      await proxy.close();
    }
    await expectPaidOnce(s, 'ctrl-c-', pixKeys('ctrl-c', 12));
  });
});

describe('a journal cut by a crash', () => {
  /** A finished batch of 6 rows sent one at a time: its last line is the last row's outcome. */
  async function finishedBatch(prefix: string) {
    const file = csvFile(`${prefix}.csv`, [PIX_HEADER, ...pixRows(prefix, 6, bank)]);
    const first = await batch(file, ['--concurrency', '1']);
    expect(first.code, first.stderr).toBe(0);
    const journal = `${file}.journal`;
    return { file, journal, text: readFileSync(journal, 'utf8') };
  }

  it('in its last line, at any point: the row is of unknown outcome, --reconcile settles it, and nothing is paid twice', async () => {
    const { file, journal, text } = await finishedBatch('cut');
    const lines = text.trimEnd().split('\n');
    const last = lines.at(-1)!;
    expect(last).toMatch(/^\{"type":"done"/);
    for (const cut of [1, 14, 40, 60, last.length - 1]) {
      writeFileSync(journal, `${lines.slice(0, -1).join('\n')}\n${last.slice(0, cut)}`);
      const rerun = await batch(file);
      expect(rerun.code, `cut at ${cut}: ${rerun.stderr}`).toBe(5);
      expect(rerun.stderr).toMatch(/unknown\s+line 7/);
      expect(rerun.stderr).toContain('--reconcile');
      const settled = await batch(file, ['--reconcile', '-o', 'json']);
      expect(settled.code, `cut at ${cut}: ${settled.stderr}`).toBe(0);
      expect((JSON.parse(settled.stdout) as Array<{ outcome: string }>).at(-1)!.outcome).toBe('reconciled');
      // The cut line stays, followed by the later runs' records: it never blocks again.
      const again = await batch(file);
      expect(again.code, again.stderr).toBe(0);
      await expectPaidOnce(s, 'cut-', pixKeys('cut', 6));
    }
  });

  it('inside its header, before any row: nothing was sent, so the batch starts afresh', async () => {
    const file = csvFile('header.csv', [PIX_HEADER, ...pixRows('header', 3, bank)]);
    writeFileSync(`${file}.journal`, '{"type":"batch","version":2,"meth', { mode: 0o600 });
    const result = await batch(file);
    expect(result.code, result.stderr).toBe(0);
    await expectPaidOnce(s, 'header-', pixKeys('header', 3));
    const again = await batch(file);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain('3 done (0 now, 3 before');
  });

  it('damaged in the middle: refused, naming the line, with no advice to move it (that would pay every row again)', async () => {
    const { file, journal, text } = await finishedBatch('middle');
    const lines = text.trimEnd().split('\n');
    lines[4] = lines[4]!.slice(0, 20);
    writeFileSync(journal, `${lines.join('\n')}\n`);
    const before = await withdrawalCount(s);
    const result = await batch(file);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('line 5 of the journal is not JSON');
    expect(result.stderr).not.toMatch(/\bmove\b/);
    expect(result.stderr).toContain('do not delete it');
    expect(await withdrawalCount(s)).toBe(before);
  });

  it('written by the earlier payctl that keyed rows by line: refused, nothing sent', async () => {
    const file = csvFile('v1.csv', [PIX_HEADER, ...pixRows('v1', 2, bank)]);
    writeFileSync(
      `${file}.journal`,
      `${JSON.stringify({ type: 'batch', method: 'pix', baseUrl: s.sandbox.url, account: null, at: new Date().toISOString() })}\n`,
      { mode: 0o600 },
    );
    const before = await withdrawalCount(s);
    const result = await batch(file);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('earlier payctl');
    expect(await withdrawalCount(s)).toBe(before);
  });
});

/** A tmpfs of 64 KiB (this machine's root may mount one), else undefined. */
function smallDisk(): { dir: string; fill(leave: number): void; free(): void; unmount(): void } | undefined {
  const dir = mkdtempSync(path.join(tmpdir(), 'payctl-disk-'));
  if (spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', dir]).status !== 0) return undefined;
  const filler = path.join(dir, 'filler');
  return {
    dir,
    fill: (leave) => writeFileSync(filler, Buffer.alloc(64 * 1024 - leave)),
    free: () => rmSync(filler),
    unmount: () => spawnSync('umount', [dir]),
  };
}

describe('a journal whose fsync fails', () => {
  it('sends no row whose intent is not on disk: reported not sent, its audit intent settled not sent; --reconcile then pays each row once', async () => {
    const file = csvFile('eio.csv', [PIX_HEADER, ...pixRows('eio', 30, bank)]);
    const state = mkdtempSync(path.join(tmpdir(), 'payctl-state-'));
    const env = { NODE_OPTIONS: shim('enospc'), PAYCTL_TEST_JOURNAL_WRITES: String(Number.MAX_SAFE_INTEGER), PAYCTL_TEST_JOURNAL_FSYNCS: '5', XDG_STATE_HOME: state };
    const failed = await batch(file, ['--concurrency', '4', '-o', 'ndjson'], env);
    expect(failed.stderr).toMatch(/the journal .*eio\.csv\.journal could not be written \(EIO\)/);
    expect(failed.stderr).not.toContain('a bug in payctl');
    const paid = new Set((await sandboxWithdrawals(s)).flatMap((w) => (w.pixKey?.startsWith('eio-') ? [w.pixKey] : [])));
    const notSent = failed.stdout.trim().split('\n').map((line) => JSON.parse(line) as { outcome: string; pixKey: string }).filter((row) => row.outcome === 'not-sent');
    expect(notSent.length).toBeGreaterThan(0);
    expect(notSent.filter((row) => paid.has(row.pixKey))).toEqual([]);
    // The rows whose request was on its way when their intent's fsync failed: their audit intents say they were not sent.
    const records = readFileSync(path.join(state, 'payctl', 'audit.ndjson'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { type: string; id: string; body?: { pixKey?: string } });
    const stopped = records.filter((r) => r.type === 'intent' && r.body?.pixKey?.startsWith('eio-') && !paid.has(r.body.pixKey));
    expect(stopped.length).toBeGreaterThan(0);
    for (const intent of stopped) expect(records.find((r) => r.type === 'outcome' && r.id === intent.id)).toMatchObject({ exitCode: 4, error: expect.stringMatching(/^not sent: the journal .* could not be written \(EIO\)/) });

    const settled = await batch(file, ['--reconcile']);
    expect(settled.code, settled.stderr).toBe(0);
    await expectPaidOnce(s, 'eio-', pixKeys('eio', 30));
  });
});

describe('a full disk', () => {
  it('stops sending, exits 5 naming the rows in flight; after room is made, --reconcile settles them and nothing is paid twice', async () => {
    const file = csvFile('full.csv', [PIX_HEADER, ...pixRows('full', 30, bank)]);
    const disk = smallDisk();
    // Where no tmpfs can be mounted, the same failure is injected: the journal's writes fail with ENOSPC.
    const journal = path.join(disk ? disk.dir : path.dirname(file), 'full.journal');
    const env: Record<string, string> = disk ? {} : { NODE_OPTIONS: shim('enospc'), PAYCTL_TEST_JOURNAL_WRITES: '20' };
    try {
      disk?.fill(8 * 1024);
      const full = await batch(file, ['--journal', journal, '--concurrency', '4'], env);
      expect(full.code, full.stderr).toBe(5);
      expect(full.stderr).toMatch(/the journal .*full\.journal could not be written \(ENOSPC\): sending stopped; lines [\d, ]+ were in flight/);
      expect(full.stderr).toContain('--reconcile');
      expect(full.stderr).not.toContain('a bug in payctl');
      const sent = (await sandboxWithdrawals(s)).filter((w) => w.pixKey?.startsWith('full-')).length;
      expect(sent).toBeGreaterThan(0);
      expect(sent).toBeLessThan(30);

      disk?.free();
      const settled = await batch(file, ['--journal', journal, '--reconcile']);
      expect(settled.code, settled.stderr).toBe(0);
      await expectPaidOnce(s, 'full-', pixKeys('full', 30));
    } finally {
      disk?.unmount();
    }
  });
});

describe('a journal or lock anyone else could write is refused', () => {
  it('a journal of mode 0666, of another owner, or a link, with forged "done" records: exit 2 naming the file and the rule, nothing sent', async () => {
    const lines = [PIX_HEADER, ...pixRows('forged', 3, bank)];
    const file = csvFile('forged.csv', lines);
    // The keys payctl gives these rows, as a forger would work them out.
    const keys = parseBatch(lines.join('\n'), 'pix', null, { allowDuplicateRows: false }).rows.map((row) => row.key);
    expect(keys).toHaveLength(3);
    const journal = `${file}.journal`;
    const forged = [
      { type: 'batch', version: 2, method: 'pix', baseUrl: s.sandbox.url, account: null, at: new Date().toISOString() },
      ...keys.map((key) => ({ type: 'done', key, withdrawalId: '00000000-0000-4000-8000-000000000000', status: 'COMPLETED', at: new Date().toISOString() })),
    ];
    writeFileSync(journal, `${forged.map((r) => JSON.stringify(r)).join('\n')}\n`);
    const before = await withdrawalCount(s);

    chmodSync(journal, 0o666);
    const writable = await batch(file);
    expect(writable.code).toBe(2);
    expect(writable.stderr).toContain(`journal ${journal} can be written by group and others (mode 0666)`);

    chmodSync(journal, 0o644);
    // Another user's file: as root, give it to nobody; otherwise one of root's own.
    const foreign = process.getuid?.() === 0 ? (chownSync(journal, 65534, 65534), journal) : '/etc/passwd';
    const owned = await batch(file, ['--journal', foreign]);
    expect(owned.code).toBe(2);
    expect(owned.stderr).toMatch(new RegExp(`journal ${foreign} belongs to user \\d+, not to you`));

    const link = `${file}.link`;
    symlinkSync(journal, link);
    const linked = await batch(file, ['--journal', link]);
    expect(linked.code).toBe(2);
    expect(linked.stderr).toContain('is a symbolic link');
    expect(await withdrawalCount(s)).toBe(before);
  });

  it('a lock folder others can write: refused, nothing sent; the journal made by payctl is 0600', async () => {
    const file = csvFile('lockmode.csv', [PIX_HEADER, ...pixRows('lockmode', 2, bank)]);
    const lock = `${file}.journal.lock`;
    mkdirSync(lock);
    chmodSync(lock, 0o777);
    const before = await withdrawalCount(s);
    const result = await batch(file);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`journal lock ${lock} can be written by group and others (mode 0777)`);
    expect(await withdrawalCount(s)).toBe(before);

    rmSync(lock, { recursive: true });
    const paid = await batch(file);
    expect(paid.code, paid.stderr).toBe(0);
    expect(statSync(`${file}.journal`).mode & 0o777).toBe(0o600);
  });
});
