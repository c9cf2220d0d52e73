import { spawn } from 'node:child_process';
import type http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, cleanEnv, runCli, RUN_DEADLINE_MS, tempConfigDir } from '../helpers/cli.js';
import { fakeJwt, sendJson, startFakeApi, type FakeApi } from '../helpers/fake-api.js';
import { runInProcess } from '../helpers/in-process.js';
import { startSandboxSession } from '../helpers/sandbox.js';
import { parsed } from './helpers.js';

/**
 * customers find's scan: many pages in flight, every 429 waited out (its
 * Retry-After honoured) and none a failure, matches printed as soon as they are
 * found, in the list's order. Against a fake directory of customers that answers
 * as each test needs, and a rate-limited sandbox.
 */

interface Customer {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
}

const customerAt = (i: number): Customer => ({
  id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
  firstName: 'Cliente',
  lastName: `Número ${i}`,
  email: `c${i}@example.com`,
});

interface Directory {
  fake: FakeApi;
  env: Record<string, string>;
  /** Every page request, in arrival order, with its time and answer. */
  log: Array<{ page: number; at: number; status: number }>;
  /** The most page requests answered at once. */
  mostInFlight: () => number;
  /** Pages whose request was closed by payctl before it was answered. */
  givenUp: Set<number>;
}

type Answer = (page: number, attempt: number, respond: (status?: number, headers?: http.OutgoingHttpHeaders) => void) => void;

let open: FakeApi | undefined;
afterEach(async () => {
  await open?.close();
  open = undefined;
});

/** A customer directory of `count` customers; `answer` decides each page request's fate (default: at once, 200). */
async function directory(count: number, answer: Answer = (_page, _attempt, respond) => respond()): Promise<Directory> {
  const fake = await startFakeApi();
  open = fake;
  const log: Directory['log'] = [];
  const attempts = new Map<number, number>();
  let inFlight = 0;
  let most = 0;
  const givenUp = new Set<number>();
  fake.handle((request, response) => {
    const url = new URL(request.url, 'http://fake');
    const page = Number(url.searchParams.get('page') ?? 1);
    const limit = Number(url.searchParams.get('limit') ?? 20);
    const attempt = (attempts.get(page) ?? 0) + 1;
    attempts.set(page, attempt);
    response.on('close', () => response.writableFinished || givenUp.add(page));
    inFlight++;
    most = Math.max(most, inFlight);
    answer(page, attempt, (status = 200, headers = {}) => {
      inFlight--;
      log.push({ page, at: Date.now(), status });
      if (status !== 200) return sendJson(response, status, { data: { message: `answered ${status}`, returnCode: -1 } }, headers);
      const data = Array.from({ length: Math.max(0, Math.min(limit, count - (page - 1) * limit)) }, (_, i) => customerAt((page - 1) * limit + i));
      sendJson(response, 200, { data, meta: { total: count, page, limit, totalPages: Math.ceil(count / limit) }, message: 'ok' });
    });
  });
  const env = { PAYCTL_CONFIG_DIR: tempConfigDir(), PAYCTL_BASE_URL: fake.url, PAYCTL_TOKEN: fakeJwt(Math.floor(Date.now() / 1000) + 3600) };
  return { fake, env, log, mostInFlight: () => most, givenUp };
}

describe('customers find', () => {
  it('waits out every 429, honouring Retry-After, even many in a row on one page, and fails none', async () => {
    const target = 850;
    // Page 5 is refused four times running (more than a GET's own two retries); every third page once.
    const { env, log } = await directory(1200, (page, attempt, respond) =>
      (page === 5 && attempt <= 4) || (page % 3 === 0 && attempt === 1) ? respond(429, { 'retry-after': '1' }) : respond(),
    );
    const found = await runInProcess(['customers', 'find', '--email', `C${target}@EXAMPLE.COM`, '--json'], { env });
    expect(parsed<Customer[]>(found)).toEqual([customerAt(target)]);
    const refused = log.filter((entry) => entry.status === 429);
    expect(refused).toHaveLength(4 + 4);
    for (let page = 1; page <= 12; page++) expect(log.some((entry) => entry.page === page && entry.status === 200), `page ${page}`).toBe(true);
    for (const refusal of refused) {
      const next = log.find((entry) => entry.page === refusal.page && entry.at > refusal.at);
      expect(next, `page ${refusal.page} asked again`).toBeDefined();
      // Retry-After: 1 is waited (less what the answer took to come back).
      expect(next!.at - refusal.at, `page ${refusal.page}`).toBeGreaterThanOrEqual(900);
    }
  });

  it('asks for many pages at once (more than four), at most 64, after the first alone', async () => {
    // Pages after the first are held until five wait at once, then all answered: a scan that asked for four or
    // fewer at a time would wait here until the run's deadline, however fast or slow the machine.
    const held: Array<() => void> = [];
    const { env, log, mostInFlight } = await directory(4000, (page, _attempt, respond) => {
      if (page === 1 || held.length >= 5) return respond();
      held.push(() => respond());
      if (held.length === 5) for (const release of held) release();
    });
    const found = await runInProcess(['customers', 'find', '--email', 'c3999@example.com', '--json'], { env });
    expect(parsed<Customer[]>(found)).toEqual([customerAt(3999)]);
    expect(log.map((entry) => entry.page).sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    expect(mostInFlight()).toBeGreaterThan(4);
    expect(mostInFlight()).toBeLessThanOrEqual(64);
    expect(log[0]!.page).toBe(1);
  });

  it('prints a match as soon as its page is in, before the scan ends', async () => {
    let matchPrinted = false;
    let lastPageAnswered = false;
    let releaseLast: (() => void) | undefined;
    // The last page is held until the match has been printed: a search that printed only at the end would never finish.
    const { env } = await directory(1200, (page, _attempt, respond) => {
      if (page !== 12) return respond();
      releaseLast = () => {
        lastPageAnswered = true;
        respond();
      };
      if (matchPrinted) releaseLast();
    });
    const child = spawn(process.execPath, [BIN, 'customers', 'find', '--email', 'c150@example.com', '-o', 'ndjson'], { env: cleanEnv(env) });
    let stdout = '';
    let printedBeforeEnd = false;
    const code = await new Promise<number | null>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no match printed while the last page was held; stdout: ${stdout}`)), RUN_DEADLINE_MS);
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        stdout += chunk;
        if (stdout.includes('\n') && !matchPrinted) {
          matchPrinted = true;
          printedBeforeEnd = !lastPageAnswered;
          releaseLast?.();
        }
      });
      child.on('close', (exitCode) => {
        clearTimeout(timer);
        resolve(exitCode);
      });
    });
    expect(printedBeforeEnd).toBe(true);
    expect(code).toBe(0);
    expect(stdout.trim().split('\n').map((line) => JSON.parse(line) as Customer)).toEqual([customerAt(150)]);
  });

  it("prints matches in the list's order, a table at the end with how many of those looked at matched", async () => {
    // Page 3 answers last; its match still comes first.
    const { env } = await directory(1200, (page, _attempt, respond) => setTimeout(() => respond(), page === 3 ? 400 : 10));
    const wanted = [250, 650];
    const asJson = parsed<Customer[]>(await runInProcess(['customers', 'find', '--name', 'número 250', '--json'], { env }));
    expect(asJson).toEqual([customerAt(250)]);
    const both = await runInProcess(['customers', 'find', '--name', 'cliente', '--json'], { env });
    expect(parsed<Customer[]>(both).map((customer) => customer.id)).toEqual(Array.from({ length: 1200 }, (_, i) => customerAt(i).id));
    const table = await runInProcess(['customers', 'find', '--name', 'número 250', '-o', 'table'], { env });
    expect(table.stdout).toContain(customerAt(250).id);
    expect(table.stderr).toContain('1 of 1200 customers matches');
    const ndjson = await runInProcess(['customers', 'find', '--email', 'c650@example.com', '-o', 'ndjson'], { env });
    expect(ndjson.stdout.trim()).toBe(JSON.stringify(customerAt(wanted[1]!)));
  });

  it('a page that fails (after its retries) ends the search with its exit code, saying how many matched before', async () => {
    const { env } = await directory(1200, (page, _attempt, respond) => (page === 6 ? respond(500) : respond()));
    const failed = await runInProcess(['customers', 'find', '--name', 'cliente', '--fields', 'id'], { env });
    expect(failed.code).toBe(4);
    // Pages 1 to 5 were written; nothing after the failed page, though later pages came back.
    expect(failed.stdout.trim().split('\n')).toEqual(Array.from({ length: 500 }, (_, i) => customerAt(i).id));
    expect(failed.stderr).toContain('the search did not finish; customers matching before the failure: 500');
  });

  it('a page that fails ends the run at once: the pages still in flight are given up, not waited for, and --debug says why', async () => {
    // Page 2 is refused once five other pages are waiting at the server; those are never answered. payctl must end
    // with page 2's error, closing the requests it no longer wants, and not wait for their answers: with a timeout of
    // an hour, a run that waited would outlive the run's deadline.
    const held = new Set<number>();
    let refuse: (() => void) | undefined;
    const { env, givenUp } = await directory(4000, (page, _attempt, respond) => {
      if (page === 1) return respond();
      if (page === 2) refuse = () => respond(404);
      else held.add(page);
      if (held.size >= 5 && refuse) {
        refuse();
        refuse = undefined;
      }
    });
    const failed = await runCli(['customers', 'find', '--email', 'nobody@example.com', '--json', '--timeout', '3600', '--debug'], { env });
    expect(failed.code, failed.stderr).toBe(1);
    expect(failed.stderr).toContain('answered 404');
    // --debug says why each was given up: no one pressed Ctrl-C.
    expect(failed.stderr).toContain('< given up: another page failed');
    expect(failed.stderr).not.toContain('< interrupted');
    expect(held.size).toBeGreaterThan(0);
    await expect.poll(() => [...held].filter((page) => !givenUp.has(page)), { timeout: RUN_DEADLINE_MS }).toEqual([]);
  });

  it('a page that fails also gives up the pages waiting to be asked again: their Retry-After is not waited out', async () => {
    // Pages 3 on answer 503 asking for 10 s, which a GET waits before its retry; page 2 is refused once five of them
    // are waiting. payctl must end with page 2's error without those waits: waited out, --debug would say `retry 1`.
    let waiting = 0;
    let refuse: (() => void) | undefined;
    const { env } = await directory(4000, (page, _attempt, respond) => {
      if (page === 1) return respond();
      if (page === 2) refuse = () => respond(404);
      else {
        respond(503, { 'retry-after': '10' });
        waiting++;
      }
      if (waiting >= 5 && refuse) {
        refuse();
        refuse = undefined;
      }
    });
    const failed = await runCli(['customers', 'find', '--email', 'nobody@example.com', '--json', '--debug'], { env });
    expect(failed.code, failed.stderr).toBe(1);
    expect(failed.stderr).toContain('answered 404');
    expect(failed.stderr).toContain('< 503');
    expect(failed.stderr).not.toContain('retry 1 after');
  });

  it('against a rate-limited sandbox: 429s waited out, the customer found', async () => {
    const lines: string[] = [];
    // One request a second: the scan's pages asked at once meet the limit however slowly a busy machine sends them.
    // Five pages: the first alone, then four at once, of which at most one fits the second's budget.
    const session = await startSandboxSession('acme', { customers: 500, rateLimit: 1, log: (line) => lines.push(line) });
    try {
      const wanted = parsed<Customer[]>(await session.run(['customers', 'list', '--page', '5', '--limit', '100', '--json'])).at(-1)!;
      const before = lines.length;
      const found = await session.run(['customers', 'find', '--email', wanted.email, '--json']);
      expect(parsed<Customer[]>(found).map((customer) => customer.id)).toEqual([wanted.id]);
      const answers = lines.slice(before).filter((line) => line.startsWith('GET /customers?'));
      expect(answers.filter((line) => / 429 /.test(line)).length).toBeGreaterThan(0);
      expect(answers.filter((line) => / 200 /.test(line))).toHaveLength(5);
    } finally {
      await session.close();
    }
  });
});
