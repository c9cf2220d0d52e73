// Makes docs/screenshots/*.txt: what payctl shows at an 80-column terminal, read off
// tmux's screen (capture-pane) after each command, against a fresh sandbox, with
// TZ=America/Sao_Paulo and NO_COLOR=1. Each file starts with the command as typed.
//   npm run build && node scripts/screenshots.mjs
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = path.join(root, 'bin/payctl.js');
const out = path.join(root, 'docs/screenshots');
const dir = mkdtempSync(path.join(tmpdir(), 'payctl-screenshots-'));
const env = {
  PATH: process.env.PATH,
  HOME: dir,
  LANG: 'C.UTF-8',
  TERM: 'xterm-256color',
  TZ: 'America/Sao_Paulo',
  NO_COLOR: '1',
  PAYCTL_PAGER: '',
  PAYCTL_CONFIG_DIR: path.join(dir, 'config'),
  XDG_STATE_HOME: path.join(dir, 'state'),
};

const sandbox = spawn(process.execPath, [bin, 'sandbox', 'start', '--port', '0'], { stdio: ['ignore', 'pipe', 'ignore'] });
const cleanUp = () => {
  sandbox.kill('SIGINT');
  rmSync(dir, { recursive: true, force: true });
};
process.on('exit', cleanUp);
env.PAYCTL_BASE_URL = await new Promise((resolve, reject) => {
  let buffered = '';
  sandbox.stdout.on('data', (chunk) => {
    buffered += chunk;
    if (buffered.includes('\n')) resolve(buffered.split('\n')[0].replace(/^listening on /, ''));
  });
  sandbox.on('exit', (code) => reject(new Error(`the sandbox stopped (exit ${code})`)));
});

const quote = (word) => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`);
const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** payctl into a pipe (its answer as JSON when `--json` is given), failing the script on a non-zero exit. */
function piped(args, input) {
  const stdout = execFileSync(process.execPath, [bin, ...args], { env, input, encoding: 'utf8', stdio: ['pipe', 'pipe', 'ignore'] });
  return args.includes('--json') ? JSON.parse(stdout) : stdout;
}

/**
 * Runs payctl in tmux at 80 columns, after a line with the command as typed; presses
 * `keys` once `after` shows; writes the screen once payctl has exited to `file`.
 */
async function screenshot(file, args, { after, keys = [] } = {}) {
  // A server of its own for each: a new one on the socket of one just killed may find it still going away.
  const socket = path.join(dir, `${file}.sock`);
  const done = path.join(dir, 'done');
  rmSync(done, { force: true });
  const script = path.join(dir, 'run.sh');
  writeFileSync(
    script,
    [
      `printf '%s\\n' ${quote(`$ payctl ${args.map(quote).join(' ')}`)}`,
      `env ${Object.entries(env).map(([key, value]) => quote(`${key}=${value}`)).join(' ')} ${[process.execPath, bin, ...args].map(quote).join(' ')}`,
      `echo $? > ${quote(done)}`,
      'exec sleep 600',
      '',
    ].join('\n'),
  );
  const tmux = (...tmuxArgs) => execFileSync('tmux', ['-S', socket, '-f', '/dev/null', ...tmuxArgs], { encoding: 'utf8' });
  tmux('new-session', '-d', '-s', 'shot', '-x', '80', '-y', '60', `sh ${quote(script)}`);
  try {
    let pressed = keys.length === 0;
    const deadline = Date.now() + 60_000;
    while (!existsSync(done) || readFileSync(done, 'utf8').trim() === '') {
      if (Date.now() > deadline) throw new Error(`payctl ${args.join(' ')} did not finish`);
      if (!pressed && tmux('capture-pane', '-p', '-t', 'shot').includes(after)) {
        for (const key of keys) tmux('send-keys', '-t', 'shot', key);
        pressed = true;
      }
      await pause(50);
    }
    const code = readFileSync(done, 'utf8').trim();
    if (code !== '0') throw new Error(`payctl ${args.join(' ')} exited ${code}`);
    const screen = tmux('capture-pane', '-p', '-t', 'shot').split('\n').map((line) => line.trimEnd()).join('\n').trimEnd();
    writeFileSync(path.join(out, file), `${screen}\n`);
    console.log(`${file}: payctl ${args.join(' ')}`);
  } finally {
    tmux('kill-server');
  }
}

piped(['auth', 'login', '--client-id', 'acme', '--client-secret-stdin'], 'acme-sandbox-secret\n');
await screenshot('customers-list.txt', ['customers', 'list', '--limit', '12']);
const [customer] = piped(['customers', 'list', '--limit', '1', '--json']);
await screenshot('customer-picture.txt', ['customers', 'get', customer.id.slice(0, 8)]);
const [bankAccount] = piped(['bank-accounts', 'list', '--limit', '1', '--main-account', '--json']);
await screenshot(
  'withdrawal.txt',
  ['withdraw', 'pix', '--amount', '15000', '--bank-account', String(bankAccount.id), '--pix-key-type', 'email', '--pix-key', 'financeiro@acme.com.br'],
  { after: 'now?', keys: ['y', 'Enter'] },
);
await screenshot('withdrawals-list.txt', ['withdrawals', 'list', '--limit', '8']);
const [subscription] = piped(['subs', 'list', '--customer', customer.id, '--status', 'ACTIVE', '--json']);
piped(['subs', 'cancel', subscription.id, '--yes']);
await screenshot('audit.txt', ['audit']);
// Names a terminal draws at another width than their length: columns stay aligned.
const named = piped(['customers', 'list', '--limit', '8', '--json']);
for (const [i, lastName] of ['अनुष्का Zoë', 'Souza 🇧🇷', 'Zoe\u0308 Ba\u0301tista'].entries()) piped(['customers', 'update', named[2 * i].id, '--last-name', lastName]);
await screenshot('names.txt', ['customers', 'list', '--limit', '8']);
