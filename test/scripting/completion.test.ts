import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, ROOT, cleanEnv, tempConfigDir } from '../helpers/cli.js';
import { runInProcess } from '../helpers/in-process.js';
import { hasTool, needsTools } from '../helpers/tools.js';

const exec = promisify(execFile);
const SHELLS = ['bash', 'zsh', 'fish'] as const;
const FILES = { bash: 'payctl.bash', zsh: '_payctl', fish: 'payctl.fish' } as const;
const ZSH_CAPTURE = path.join(ROOT, 'test/scripting/zsh-capture.zsh');

let scripts: Record<(typeof SHELLS)[number], string>;
let env: Record<string, string>;
/** zsh's list of completion functions (compinit's dump), written once for every zsh case. */
let zshDump: string;

beforeAll(async () => {
  // `payctl` on PATH, as after installing, and a config with two profiles besides the default.
  const bin = mkdtempSync(path.join(tmpdir(), 'payctl-bin-'));
  symlinkSync(BIN, path.join(bin, 'payctl'));
  env = cleanEnv({ PATH: `${bin}:${process.env.PATH}`, PAYCTL_CONFIG_DIR: tempConfigDir() });
  for (const name of ['prod', 'staging']) {
    const added = await runInProcess(['profiles', 'add', name, '--base-url', `https://${name}.example.com`], { env });
    expect(added.code, added.stderr).toBe(0);
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'payctl-completion-'));
  zshDump = path.join(dir, 'zcompdump');
  if (hasTool('zsh')) await exec('zsh', ['-f', '-c', `autoload -Uz compinit; compinit -u -d '${zshDump}'`], { env });
  scripts = {} as typeof scripts;
  for (const shell of SHELLS) {
    const printed = await runInProcess(['completion', shell], { env });
    expect(printed.code, printed.stderr).toBe(0);
    scripts[shell] = path.join(dir, FILES[shell]);
    writeFileSync(scripts[shell], printed.stdout);
  }
  mkdirSync(path.join(dir, 'files'));
  for (const name of ['payouts.csv', 'payroll.csv']) writeFileSync(path.join(dir, 'files', name), '');
  process.chdir(dir);
});
// The folder is the test process's: the next test file in it starts where this one did.
const startedIn = process.cwd();
afterAll(() => process.chdir(startedIn));

const words = (text: string) => text.split('\n').map((line) => line.split('\t')[0]!.trim()).filter(Boolean).sort();

/** Candidates each shell offers for the line typed so far (cursor at the end). */
const complete: Record<(typeof SHELLS)[number], (line: string) => Promise<string[]>> = {
  async bash(line) {
    const parts = line.split(' ');
    const quoted = parts.map((p) => `'${p}'`).join(' ');
    const program = `source ${scripts.bash}; COMP_WORDS=(${quoted}); COMP_CWORD=${parts.length - 1}; _payctl; printf '%s\\n' "\${COMPREPLY[@]}"`;
    return words((await exec('bash', ['--norc', '-c', program], { env })).stdout);
  },
  async zsh(line) {
    return words((await exec('zsh', ['-f', ZSH_CAPTURE, scripts.zsh, line, zshDump], { env, timeout: 15_000 })).stdout);
  },
  async fish(line) {
    return words((await exec('fish', ['--no-config', '-c', `source ${scripts.fish}; complete -C '${line}'`], { env })).stdout);
  },
};

const CASES: Array<[string, (candidates: string[]) => void]> = [
  ['payctl ', (c) => expect(c).toEqual(expect.arrayContaining(['api', 'auth', 'balance', 'completion', 'customers', 'profiles', 'withdraw', 'withdrawals']))],
  ['payctl with', (c) => expect(c).toEqual(['withdraw', 'withdrawals'])],
  ['payctl withdraw ', (c) => expect(c).toEqual(['batch', 'boleto', 'card', 'pix'])],
  [
    'payctl --json withdraw pix --',
    (c) =>
      expect(c).toEqual(expect.arrayContaining(['--amount', '--pix-key-type', '--from-csv', '--yes', '--subaccount', '--dry-run', '--profile', '--output'])),
  ],
  ['payctl withdraw pix --amount 100 --pix-key-type ', (c) => expect(c).toEqual(['DOCUMENT_CNPJ', 'DOCUMENT_CPF', 'EMAIL', 'PHONE', 'RANDOM'])],
  ['payctl customers list -o ', (c) => expect(c).toEqual(['csv', 'json', 'ndjson', 'table', 'tsv', 'xlsx'])],
  ['payctl withdraw batch folha.xlsx --', (c) => expect(c).toEqual(expect.arrayContaining(['--sheet', '--method', '--out', '--csv-separator']))],
  ['payctl subs list --status ', (c) => expect(c).toEqual(['ACTIVE', 'DELETED', 'EXPIRED', 'SUSPENDED'])],
  ['payctl balance --profile ', (c) => expect(c).toEqual(['default', 'prod', 'staging'])],
  ['payctl profiles use st', (c) => expect(c).toEqual(['staging'])],
  ['payctl completion ', (c) => expect(c).toEqual(['bash', 'fish', 'zsh'])],
  ['payctl api ', (c) => expect(c).toEqual(['DELETE', 'GET', 'PATCH', 'POST', 'PUT'])],
  ['payctl withdraw pix --from-csv files/pay', (c) => expect(c).toEqual(['files/payouts.csv', 'files/payroll.csv'])],
];

for (const shell of SHELLS) {
  describe.concurrent(`${shell} completion`, () => {
    for (const [line, check] of CASES) {
      needsTools(shell)(`completes "${line}"`, async () => {
        const candidates = await complete[shell](line);
        // zsh lists file names without the folder typed so far.
        check(shell === 'zsh' ? candidates.map((c) => (line.includes('files/') ? `files/${c}` : c)) : candidates);
      });
    }
  });
}

describe('completions/', () => {
  it('holds the scripts payctl prints now (regenerate with npm run completions)', () => {
    for (const shell of SHELLS) {
      expect(readFileSync(path.join(ROOT, 'completions', FILES[shell]), 'utf8'), `completions/${FILES[shell]} is out of date: npm run completions`).toBe(
        readFileSync(scripts[shell], 'utf8'),
      );
    }
  });
});
