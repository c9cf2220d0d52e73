import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BIN, cleanEnv, tempConfigDir } from '../helpers/cli.js';
import { needsTools } from '../helpers/tools.js';
import { runInProcess } from '../helpers/in-process.js';
import { fakeJwt, sendJson, startFakeApi, type FakeApi } from '../helpers/fake-api.js';
import { startSandboxSession, type SandboxSession } from '../helpers/sandbox.js';

const CUSTOMERS = 5000;
let session: SandboxSession;

beforeAll(async () => {
  session = await startSandboxSession('acme', { customers: CUSTOMERS });
});
afterAll(() => session?.close());

const idsOf = {
  json: (stdout: string) => (JSON.parse(stdout) as Array<{ id: string }>).map((c) => c.id),
  ndjson: (stdout: string) => stdout.trimEnd().split('\n').map((line) => (JSON.parse(line) as { id: string }).id),
  csv: (stdout: string) => stdout.trimEnd().split('\n').slice(1).map((line) => line.split(',')[0]!),
  tsv: (stdout: string) => stdout.trimEnd().split('\n').map((line) => line.split('\t')[0]!),
};

describe.concurrent('customers list --all', () => {
  /** The order the API gives, read page by page without --all. */
  let reference: string[];

  beforeAll(async () => {
    const pages = await Promise.all(
      Array.from({ length: CUSTOMERS / 100 }, (_, i) =>
        session.run(['customers', 'list', '--page', String(i + 1), '--limit', '100', '--fields', 'id', '-o', 'tsv']),
      ),
    );
    reference = pages.flatMap((page) => page.stdout.trimEnd().split('\n'));
    expect(new Set(reference).size).toBe(CUSTOMERS);
  });

  for (const format of ['json', 'ndjson', 'csv', 'tsv'] as const) {
    it(`returns each of ${CUSTOMERS} customers exactly once, in order, as ${format}`, async () => {
      const result = await session.run(['customers', 'list', '--all', '-o', format, '--fields', 'id,email']);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toBe('');
      expect(idsOf[format](result.stdout)).toEqual(reference);
      if (format === 'csv') expect(result.stdout.startsWith('id,email\n')).toBe(true);
    });
  }

  it('with a smaller page size still returns every customer once, in order', async () => {
    const result = await session.run(['customers', 'list', '--all', '--limit', '37', '-o', 'ndjson', '--fields', 'id']);
    expect(result.code, result.stderr).toBe(0);
    expect(idsOf.ndjson(result.stdout)).toEqual(reference);
  });

  needsTools('script')('shows progress on stderr at a terminal, and none in a pipe', async () => {
    const result = await runWithStderrOnTerminal(['customers', 'list', '--all', '-o', 'ndjson', '--fields', 'id'], session.env);
    expect(result.code).toBe(0);
    expect(result.terminal).toContain(`customers: ${CUSTOMERS}/${CUSTOMERS} (100%)`);
    expect(idsOf.ndjson(result.stdout)).toEqual(reference);
  });
});

/** Runs payctl with stderr on a pseudo-terminal (util-linux `script`) and stdout to a file. */
function runWithStderrOnTerminal(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; terminal: string }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'payctl-stderr-tty-'));
  const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;
  const command = `${[process.execPath, BIN, ...args].map(quote).join(' ')} >${quote(path.join(dir, 'stdout'))}`;
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qfec', command, '/dev/null'], { env: cleanEnv({ TERM: 'xterm-256color', ...env }), stdio: ['ignore', 'pipe', 'inherit'] });
    let terminal = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (terminal += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout: readFileSync(path.join(dir, 'stdout'), 'utf8'), terminal }));
  });
}

describe('withdrawals list --all (meta.total only)', () => {
  it('pages until meta.total is reached', async () => {
    const envelope = await session.run(['api', 'GET', '/withdrawals', '--envelope']);
    const total = (JSON.parse(envelope.stdout) as { meta: { total: number } }).meta.total;
    expect(total).toBeGreaterThan(3);
    const result = await session.run(['withdrawals', 'list', '--all', '--limit', '3', '-o', 'ndjson', '--fields', 'id']);
    expect(result.code, result.stderr).toBe(0);
    const ids = idsOf.ndjson(result.stdout);
    expect(ids).toHaveLength(total);
    expect(new Set(ids).size).toBe(total);
  });
});

describe.concurrent('customers find', () => {
  let target: { id: string; email: string; document: string; phoneNumber: string; firstName: string; lastName: string };

  beforeAll(async () => {
    // A customer from deep in the list, so the scan must go past the first pages.
    const page = await session.run(['customers', 'list', '--page', '43', '--limit', '100', '--json']);
    target = (JSON.parse(page.stdout) as Array<typeof target>)[57]!;
  });

  const find = async (...flags: string[]) => {
    const result = await session.run(['customers', 'find', ...flags, '--json']);
    expect(result.code, result.stderr).toBe(0);
    return (JSON.parse(result.stdout) as Array<{ id: string }>).map((c) => c.id);
  };

  it('finds by e-mail, any case', async () => {
    expect(await find('--email', target.email.toUpperCase())).toEqual([target.id]);
  });

  it('finds by document ignoring punctuation', async () => {
    const digits = target.document;
    const punctuated = digits.length === 11
      ? `${digits.slice(0, 3)}.${digits.slice(3, 6)}.${digits.slice(6, 9)}-${digits.slice(9)}`
      : `${digits.slice(0, 2)}.${digits.slice(2, 5)}.${digits.slice(5, 8)}/${digits.slice(8, 12)}-${digits.slice(12)}`;
    expect(await find('--document', punctuated)).toEqual([target.id]);
  });

  it('finds by phone without +55 and with punctuation, and by name together', async () => {
    const national = target.phoneNumber.replace(/^\+55/, '');
    const phone = `(${national.slice(0, 2)}) ${national.slice(2, 7)}-${national.slice(7)}`;
    expect(await find('--phone', phone, '--name', `${target.firstName} ${target.lastName}`.toLowerCase())).toEqual([target.id]);
  });

  it('finds every customer whose name contains the text', async () => {
    const all = JSON.parse(
      (await session.run(['customers', 'list', '--all', '--json', '--fields', 'id,firstName,lastName'])).stdout,
    ) as (typeof target)[];
    const expected = all.filter((c) => `${c.firstName} ${c.lastName}`.toLowerCase().includes(target.lastName.toLowerCase())).map((c) => c.id);
    expect(expected.length).toBeGreaterThan(1);
    expect(await find('--name', target.lastName.toUpperCase())).toEqual(expected);
  });

  it('prints an empty list when nothing matches, and refuses without any criterion', async () => {
    expect(await find('--email', 'nobody-at-all@example.invalid')).toEqual([]);
    const none = await session.run(['customers', 'find']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('--email, --document, --name, --phone');
  });
});

describe('--all failing mid-way', () => {
  let api: FakeApi;
  beforeAll(async () => {
    api = await startFakeApi((request, response) => {
      const page = Number(new URL(request.url, 'http://x').searchParams.get('page'));
      if (page === 3) return sendJson(response, 400, { data: { message: 'failure while listing customers', returnCode: -7404 } });
      const data = Array.from({ length: 10 }, (_, i) => ({ id: `c-${page}-${i}`, email: `${page}-${i}@example.com` }));
      sendJson(response, 200, { data, meta: { total: 50, page, limit: 10, totalPages: 5 }, message: 'ok' });
    });
  });
  afterAll(() => api?.close());

  const run = (format: string) =>
    runInProcess(['customers', 'list', '--all', '--limit', '10', '-o', format, '--fields', 'id'], {
      env: { PAYCTL_CONFIG_DIR: tempConfigDir(), PAYCTL_BASE_URL: api.url, PAYCTL_TOKEN: fakeJwt(Math.floor(Date.now() / 1000) + 3600) },
    });

  it('exits non-zero, keeps the pages before the failure, and says the list is incomplete', async () => {
    const ndjson = await run('ndjson');
    expect(ndjson.code).toBe(1);
    expect(idsOf.ndjson(ndjson.stdout)).toEqual(Array.from({ length: 20 }, (_, i) => `c-${Math.floor(i / 10) + 1}-${i % 10}`));
    // In json modes the JSON error is all that goes to stderr: its message says what the note says.
    expect(JSON.parse(ndjson.stderr)).toEqual({
      error: { message: 'failure while listing customers (the list is incomplete: 20 of 50 customers were written before the failure)', returnCode: -7404, status: 400, exitCode: 1 },
    });
    const tsv = await run('tsv');
    expect(tsv.code).toBe(1);
    expect(tsv.stdout.trim().split('\n')).toHaveLength(20);
    expect(tsv.stderr).toContain('the list is incomplete: 20 of 50 customers');
    expect(tsv.stderr).toContain('returnCode -7404');
  });

  it('leaves a json array unclosed so no reader takes it for the whole list', async () => {
    const json = await run('json');
    expect(json.code).toBe(1);
    expect(json.stdout.startsWith('[')).toBe(true);
    expect(() => JSON.parse(json.stdout)).toThrow();
  });
});
