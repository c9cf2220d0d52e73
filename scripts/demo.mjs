// payctl's main job, end to end, against the embedded sandbox: start it on a free
// port, log in, look at the balance, customers and subscriptions, add a split to an
// approved sub-account, withdraw by PIX, list withdrawals, stop. Each step is printed
// as the command a user would type, followed by its output.
//   npm run demo
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = path.join(root, 'bin/payctl.js');
const configDir = mkdtempSync(path.join(tmpdir(), 'payctl-demo-'));
const bold = process.stdout.isTTY && !process.env.NO_COLOR ? (text) => `\u001b[1m${text}\u001b[22m` : (text) => text;

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
const env = { ...process.env, PAYCTL_CONFIG_DIR: configDir, PAYCTL_BASE_URL: url };
delete env.PAYCTL_TOKEN;
delete env.PAYCTL_PROFILE;
delete env.PAYCTL_SUBACCOUNT;

console.log(bold(`$ payctl sandbox start --port 0 &`));
console.log(firstLine);
console.log(bold(`$ export PAYCTL_BASE_URL=${url}   # and a throw-away config folder: PAYCTL_CONFIG_DIR=${configDir}`));

/** Shows a command as typed, runs it with this terminal (tables at a terminal, tab-separated in a pipe). */
function step(args, { input, shown } = {}) {
  console.log(`\n${bold(`$ ${shown ?? `payctl ${args.join(' ')}`}`)}`);
  const result = spawnSync(process.execPath, [bin, ...args], { env, input, stdio: [input ? 'pipe' : 'inherit', 'inherit', 'inherit'] });
  if (result.status !== 0) {
    console.error(`demo: step failed with exit code ${result.status}`);
    process.exit(result.status ?? 1);
  }
}

/** Shows a command whose JSON the next steps use, and prints it. */
function query(args) {
  console.log(`\n${bold(`$ payctl ${args.join(' ')}`)}`);
  const result = spawnSync(process.execPath, [bin, ...args], { env, encoding: 'utf8' });
  process.stdout.write(result.stdout);
  process.stderr.write(result.stderr);
  if (result.status !== 0) process.exit(result.status ?? 1);
  return JSON.parse(result.stdout);
}

step(['auth', 'login', '--client-id', 'acme', '--client-secret-stdin'], {
  input: 'acme-sandbox-secret\n',
  shown: "printf 'acme-sandbox-secret\\n' | payctl auth login --client-id acme --client-secret-stdin",
});
step(['auth', 'status']);
step(['balance']);
step(['customers', 'list', '--limit', '5']);
step(['subs', 'list', '--status', 'ACTIVE', '--limit', '5']);

const [subscription] = query(['subs', 'list', '--status', 'ACTIVE', '--limit', '1', '--json', '--fields', 'id,title,amount']);
const approved = query(['api', 'GET', '/sandbox/subaccounts', '--json']).filter((s) => s.status === 'APPROVED');
step(['subs', 'add-split', '--subscription', subscription.id, '--receiver', approved[0].id, '--percentage', '5']);
step(['subs', 'get', subscription.id, '--fields', 'id,title,amount,splits']);

const [bankAccount] = query(['bank-accounts', 'list', '--limit', '1', '--json', '--fields', 'id,holderName,bankCode,accountNumber']);
step(['withdraw', 'pix', '--amount', '2500', '--bank-account', String(bankAccount.id), '--pix-key-type', 'email', '--pix-key', 'finance@acme.example', '--yes']);
step(['withdrawals', 'list', '--limit', '5']);
step(['balance']);

console.log(`\n${bold('$ kill %1   # stops the sandbox')}`);
cleanUp();
process.removeListener('exit', cleanUp);
console.log('That was payctl. Next: payctl --help, and README.md');
