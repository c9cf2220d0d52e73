// payctl's main job, end to end, against the embedded sandbox: start it on a free
// port, log in, look at the balance, customers and subscriptions, add a split to an
// approved sub-account, withdraw by PIX, list withdrawals, stop. Each step is printed
// as the command a user would type, followed by what that user would see.
//
// Each command runs on a pseudo-terminal (util-linux `script`), as it would at your
// terminal: tables fitted to its width (80 columns when it has none), R$ and
// CPF formats, local times, confirmations and footers. Where `script` is not
// there (macOS, Windows, a bare container), the commands run into a pipe, which
// gives the tab-separated values scripts read, and the demo says so.
//   npm run demo
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = path.join(root, 'bin/payctl.js');
const configDir = mkdtempSync(path.join(tmpdir(), 'payctl-demo-'));
const colour = process.stdout.isTTY && !process.env.NO_COLOR;
const bold = colour ? (text) => `\u001b[1m${text}\u001b[22m` : (text) => text;

/** util-linux `script`, which runs a command on a pseudo-terminal (BSD's takes other arguments). */
const terminal = spawnSync('script', ['--version'], { encoding: 'utf8' }).stdout?.includes('util-linux') ?? false;

// The sandbox logs each request on stderr; the demo shows payctl's side only.
const sandbox = spawn(process.execPath, [bin, 'sandbox', 'start', '--port', '0'], { stdio: ['ignore', 'pipe', 'ignore'] });
const cleanUp = () => {
  sandbox.kill('SIGINT');
  rmSync(configDir, { recursive: true, force: true });
};
process.on('exit', cleanUp);

const firstLine = await new Promise((resolve, reject) => {
  let buffered = '';
  sandbox.stdout.on('data', (chunk) => {
    buffered += chunk;
    if (buffered.includes('\n')) resolve(buffered.split('\n')[0]);
  });
  sandbox.on('exit', (code) => reject(new Error(`the sandbox stopped (exit ${code})`)));
});
const url = firstLine.replace(/^listening on /, '');
const env = {
  ...process.env,
  PAYCTL_CONFIG_DIR: configDir,
  PAYCTL_BASE_URL: url,
  // Tables as wide as this terminal, 80 columns when there is none (CI).
  COLUMNS: String(process.stdout.columns || 80),
  // The demo runs straight through: no pager waits for a key.
  PAYCTL_PAGER: '',
};
for (const name of ['PAYCTL_TOKEN', 'PAYCTL_PROFILE', 'PAYCTL_SUBACCOUNT', 'LINES']) delete env[name];
if (!colour) env.NO_COLOR = '1';

console.log(bold(`$ payctl sandbox start --port 0 &`));
console.log(firstLine);
console.log(bold(`$ export PAYCTL_BASE_URL=${url}   # and a throw-away config folder: PAYCTL_CONFIG_DIR=${configDir}`));
if (!terminal) {
  console.log("\n(util-linux `script` is not installed, so each command's output goes into a pipe: tab-separated");
  console.log(' values with no header, as scripts read them. At your terminal payctl draws tables.)');
}

const quote = (word) => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`);

function fail(status) {
  console.error(`demo: step failed with exit code ${status}`);
  process.exit(status ?? 1);
}

/** Shows a command as typed and runs it as at a terminal (on a pseudo-terminal; into a pipe without one). */
function step(args) {
  console.log(`\n${bold(`$ payctl ${args.map(quote).join(' ')}`)}`);
  const command = [process.execPath, bin, ...args].map(quote).join(' ');
  // script gives the command a terminal for stdin, stdout and stderr, and exits with its code (-e).
  const result = terminal
    ? spawnSync('script', ['-qec', command, '/dev/null'], { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] })
    : spawnSync(process.execPath, [bin, ...args], { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  process.stdout.write(result.stdout.replace(/\r\n/g, '\n'));
  if (result.stderr) process.stdout.write(result.stderr);
  if (result.status !== 0) fail(result.status);
}

/** Shows a command into a pipe (as a script runs it), prints what it wrote (unless `quiet`), and returns it. */
function piped(args, { input, shown, comment = '', quiet = false } = {}) {
  console.log(`\n${bold(`$ ${shown ?? `payctl ${args.map(quote).join(' ')}`}`)}${comment}`);
  const result = spawnSync(process.execPath, [bin, ...args], { env, input, encoding: 'utf8' });
  if (!quiet) process.stdout.write(result.stdout);
  process.stdout.write(result.stderr);
  if (result.status !== 0) fail(result.status);
  return result.stdout;
}

piped(['auth', 'login', '--client-id', 'acme', '--client-secret-stdin'], {
  input: 'acme-sandbox-secret\n',
  shown: "printf 'acme-sandbox-secret\\n' | payctl auth login --client-id acme --client-secret-stdin",
});
step(['auth', 'status']);
step(['balance']);
step(['customers', 'list', '--limit', '5']);

const [customer] = JSON.parse(piped(['customers', 'list', '--limit', '1', '--json', '--fields', 'id,firstName,email']));
step(['customers', 'get', customer.id]);
step(['subs', 'list', '--status', 'ACTIVE', '--limit', '5']);

const [subscription] = JSON.parse(piped(['subs', 'list', '--status', 'ACTIVE', '--limit', '1', '--json', '--fields', 'id,title,amount']));
const approved = JSON.parse(piped(['api', 'GET', '/sandbox/subaccounts', '--json'], { quiet: true, comment: '   # the JSON of every sub-account; the first APPROVED one receives a split' }))
  .filter((s) => s.status === 'APPROVED');
console.log(`${approved[0].id}  ${approved[0].name}  APPROVED`);
step(['subs', 'add-split', '--subscription', subscription.id, '--receiver', approved[0].id, '--percentage', '5']);
step(['subs', 'get', subscription.id]);

const [bankAccount] = JSON.parse(piped(['bank-accounts', 'list', '--limit', '1', '--json', '--fields', 'id,holderName,bankCode,accountNumber']));
// --yes answers the confirmation; what it asks about is shown all the same.
step(['withdraw', 'pix', '--amount', '2500', '--bank-account', String(bankAccount.id), '--pix-key-type', 'email', '--pix-key', 'finance@acme.example', '--yes']);
step(['withdrawals', 'list', '--limit', '5']);
piped(['withdrawals', 'list', '--limit', '3', '--fields', 'id,amount,status,createdAt'], { comment: '   # into a pipe: tab-separated raw values, for scripts' });
step(['balance']);

console.log(`\n${bold('$ kill %1   # stops the sandbox')}`);
cleanUp();
process.removeListener('exit', cleanUp);
console.log('That was payctl. Next: payctl --help, and README.md');
