import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, runCliInTerminal, tempConfigDir } from '../helpers/cli.js';
import { startFakeApi, sendJson, type FakeApi } from '../helpers/fake-api.js';

const BALANCE = { disponiblePixBalance: 1234.56, disponibleCardBalance: 10, disponibleBilletBalance: 0, withdrawalsInProcessingBalance: 0.5 };
const ESC = '\u001b[';

let api: FakeApi;
let env: Record<string, string>;

beforeAll(async () => {
  api = await startFakeApi((request, response) => {
    if (request.url === '/withdrawals/balance') sendJson(response, 200, { data: BALANCE, message: 'ok' });
    else sendJson(response, 404, { data: { message: 'not found', returnCode: -1404 } });
  });
  env = { PAYCTL_CONFIG_DIR: tempConfigDir(), PAYCTL_BASE_URL: api.url, PAYCTL_TOKEN: 'output-test-token' };
});
afterAll(() => api.close());

describe.concurrent('output formats of a single resource', () => {
  it('writes field<TAB>value lines with raw values when stdout is a pipe', async () => {
    const result = await runCli(['balance'], { env });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      'disponiblePixBalance\t1234.56\ndisponibleCardBalance\t10\ndisponibleBilletBalance\t0\nwithdrawalsInProcessingBalance\t0.5\n',
    );
  });

  it('writes an aligned table with money as BRL when stdout is a terminal, and says which account', async () => {
    const result = await runCliInTerminal(['balance'], { env });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/pix available\S*\s+R\$ 1\.234,56/);
    expect(result.stdout).toMatch(/in processing\S*\s+R\$ 0,50/);
    expect(result.stderr).toContain('balance of the main account');
  });

  it('writes the API data object as JSON with --json and -o json', async () => {
    for (const args of [['--json'], ['-o', 'json'], ['--output=json']]) {
      const result = await runCli(['balance', ...args], { env });
      expect(JSON.parse(result.stdout)).toEqual(BALANCE);
    }
  });

  it('writes one compact line with -o ndjson', async () => {
    const result = await runCli(['balance', '-o', 'ndjson'], { env });
    expect(result.stdout.trimEnd().split('\n')).toHaveLength(1);
    expect(JSON.parse(result.stdout)).toEqual(BALANCE);
  });

  it('writes a header row and a row with -o csv', async () => {
    const result = await runCli(['balance', '-o', 'csv'], { env });
    expect(result.stdout).toBe(
      'disponiblePixBalance,disponibleCardBalance,disponibleBilletBalance,withdrawalsInProcessingBalance\n1234.56,10,0,0.5\n',
    );
  });

  it('writes a table on request even into a pipe, without colour', async () => {
    const result = await runCli(['balance', '-o', 'table'], { env });
    expect(result.stdout).toContain('R$ 1.234,56');
    expect(result.stdout).not.toContain(ESC);
  });
});

describe.concurrent('--fields', () => {
  it('picks and orders fields in every format', async () => {
    const fields = ['--fields', 'withdrawalsInProcessingBalance,disponiblePixBalance'];
    const json = await runCli(['balance', ...fields, '--json'], { env });
    expect(Object.keys(JSON.parse(json.stdout))).toEqual(['withdrawalsInProcessingBalance', 'disponiblePixBalance']);
    const tsv = await runCli(['balance', ...fields], { env });
    expect(tsv.stdout).toBe('withdrawalsInProcessingBalance\t0.5\ndisponiblePixBalance\t1234.56\n');
    const csv = await runCli(['balance', ...fields, '-o', 'csv'], { env });
    expect(csv.stdout).toBe('withdrawalsInProcessingBalance,disponiblePixBalance\n0.5,1234.56\n');
  });

  it('refuses an unknown field with exit 2, lists the valid ones and sends nothing', async () => {
    const silent = await startFakeApi();
    try {
      const result = await runCli(['balance', '--fields', 'disponiblePixBalance,bogus'], { env: { ...env, PAYCTL_BASE_URL: silent.url } });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('unknown field bogus');
      expect(result.stderr).toContain('valid fields: disponiblePixBalance, disponibleCardBalance');
      expect(result.stdout).toBe('');
      expect(silent.requests).toEqual([]);
    } finally {
      await silent.close();
    }
  });
});

describe.concurrent('colour', () => {
  const colourless = [
    ['NO_COLOR', { NO_COLOR: '1' }, []],
    ['--no-color', {}, ['--no-color']],
    ['TERM=dumb', { TERM: 'dumb' }, []],
  ] as const;

  it('colours table headers at a terminal', async () => {
    const result = await runCliInTerminal(['balance'], { env });
    expect(result.stdout).toContain(ESC);
  });

  for (const [name, extraEnv, flags] of colourless) {
    it(`writes no colour codes with ${name}`, async () => {
      const result = await runCliInTerminal(['balance', ...flags], { env: { ...env, ...extraEnv } });
      expect(result.code).toBe(0);
      expect(result.stdout).toContain('R$ 1.234,56');
      expect(result.stdout).not.toContain(ESC);
    });
  }

  it('forces colour into a pipe with FORCE_COLOR', async () => {
    const result = await runCli(['balance', '-o', 'table'], { env: { ...env, FORCE_COLOR: '1' } });
    expect(result.stdout).toContain(ESC);
  });
});

describe.concurrent('lists', () => {
  it('writes one line per profile with tab-separated values into a pipe, and a table with a header at a terminal', async () => {
    const configEnv = { PAYCTL_CONFIG_DIR: tempConfigDir() };
    expect((await runCli(['profiles', 'add', 'prod', '--base-url', 'https://api.example.com'], { env: configEnv })).code).toBe(0);
    const piped = await runCli(['profiles', 'list'], { env: configEnv });
    expect(piped.stdout.trimEnd().split('\n').map((line) => line.split('\t')[0])).toEqual(['default', 'prod']);
    const terminal = await runCliInTerminal(['profiles', 'list', '--no-color'], { env: configEnv });
    expect(terminal.stdout.split('\n')[0]).toMatch(/^NAME\s+CURRENT\s+ENV\s+BASE URL/);
    const json = JSON.parse((await runCli(['profiles', 'list', '--json'], { env: configEnv })).stdout);
    expect(json.map((p: { name: string; env: string }) => [p.name, p.env])).toEqual([['default', 'local'], ['prod', 'production']]);
    const ndjson = (await runCli(['profiles', 'list', '-o', 'ndjson', '--fields', 'name'], { env: configEnv })).stdout;
    expect(ndjson).toBe('{"name":"default"}\n{"name":"prod"}\n');
    const csv = (await runCli(['profiles', 'list', '-o', 'csv', '--fields', 'name,env'], { env: configEnv })).stdout;
    expect(csv).toBe('name,env\ndefault,local\nprod,production\n');
  });
});

describe('a reader that stops early', () => {
  it('ends payctl quietly with exit 0 when the pipe closes (payctl … | head)', async () => {
    const { startSandboxSession } = await import('../helpers/sandbox.js');
    const session = await startSandboxSession('acme', { customers: 3000 });
    try {
      const { spawn } = await import('node:child_process');
      const { BIN, cleanEnv } = await import('../helpers/cli.js');
      const child = spawn(process.execPath, [BIN, 'customers', 'list', '--all', '-o', 'ndjson'], { env: cleanEnv(session.env), stdio: ['ignore', 'pipe', 'pipe'] });
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      child.stdout.once('data', () => child.stdout.destroy());
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      expect(code).toBe(0);
      expect(stderr).toBe('');
    } finally {
      await session.close();
    }
  });

  it('reports a failed write (a full disk) as an error, not a bug', async () => {
    const { spawn } = await import('node:child_process');
    const { BIN, cleanEnv } = await import('../helpers/cli.js');
    const { openSync } = await import('node:fs');
    const full = openSync('/dev/full', 'w');
    const child = spawn(process.execPath, [BIN, 'profiles', 'list'], { env: cleanEnv({ PAYCTL_CONFIG_DIR: tempConfigDir() }), stdio: ['ignore', full, 'pipe'] });
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(1);
    expect(stderr).toMatch(/^error: cannot write to stdout: ENOSPC/);
    expect(stderr).not.toContain('bug');
  });
});
