import { spawn } from 'node:child_process';
import { chmodSync, closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import lockfile from 'proper-lockfile';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, cleanEnv, ROOT, RUN_DEADLINE_MS, tempConfigDir, type RunResult } from '../helpers/cli.js';
import { startWorkers } from '../helpers/workers.js';
import { runInProcess } from '../helpers/in-process.js';
import { fakeJwt, sendJson, startFakeApi, type FakeApi } from '../helpers/fake-api.js';
import { STACK_LINE, inPool, normalAnswer } from './commands.js';
import { tally, trackFailures } from './tally.js';

/**
 * Secrets (token, client secret, card number, security code) never reach
 * stdout, stderr, files other than config.json (the token only) or the
 * process's argv and title: with --debug, in every output format, on success
 * and with errors forced by a server that echoes what it received. And the
 * config: private whatever the umask, a broken file reported with its fix and
 * never overwritten, concurrent changes never lost.
 */

const hour = () => Math.floor(Date.now() / 1000) + 3600;
const TOKEN = fakeJwt(hour()).replace('signature', 'storedTokenSig0x7f3a');
const SERVER_TOKEN = fakeJwt(hour() + 60).replace('signature', 'issuedTokenSig0x5c1e');
/** With characters that URL-encoding and base64 change, so that each form of it is a different text to find. */
const CLIENT_SECRET = 'cs_live_Q3v9/Zr+T8wXk2=';
/** Short secrets are masked where they stand alone (a server echoing them), not inside longer words and numbers. */
const SHORT_CLIENT_SECRET = 'k3y9z';
const CARD_NUMBER = '4556737586899855';
const SECURITY_CODE = '7391';
const SECRETS: Record<string, string> = {
  token: TOKEN,
  'issued token': SERVER_TOKEN,
  'client secret': CLIENT_SECRET,
  'short client secret': SHORT_CLIENT_SECRET,
  'card number': CARD_NUMBER,
  'security code': SECURITY_CODE,
};
const SHORT_SECRETS = new Set(['short client secret', 'security code']);

const FORMATS = ['table', 'json', 'ndjson', 'csv', 'tsv'] as const;
/**
 * How the server answers: as the API; with an error that repeats the request
 * (keys and all); with an error, or an answer, that repeats each value of the
 * request and the bearer token on their own, as they are, URL-encoded and in
 * base64 (standard and URL-safe), under keys that are not secret; or never.
 */
type Mode = 'ok' | 'echo-error' | 'echo-values-error' | 'echo-values' | 'hang';
const MODES = ['ok', 'echo-error'] as const;
const VALUE_ECHO_MODES = [...MODES, 'echo-values-error', 'echo-values'] as const;

/** A secret as a server may send it back: as it is, URL-encoded, base64 and base64url, padded or not. */
function formsOf(secret: string): string[] {
  const base64 = Buffer.from(secret).toString('base64');
  const base64url = Buffer.from(secret).toString('base64url');
  return [...new Set([secret, encodeURIComponent(secret), base64, base64.replace(/=+$/, ''), base64url])];
}

/** Every string of a request body (keys aside), and the token of its Authorization header. */
function valuesOf(request: { body: string; headers: Record<string, unknown> }): string[] {
  const leaves = (value: unknown): string[] =>
    typeof value === 'string' || typeof value === 'number' ? [String(value)] : value && typeof value === 'object' ? Object.values(value).flatMap(leaves) : [];
  let body: unknown;
  try {
    body = JSON.parse(request.body);
  } catch {
    body = undefined;
  }
  const token = String(request.headers.authorization ?? '').replace(/^Bearer /, '');
  return [...leaves(body), ...(token ? [token] : [])];
}

interface SecretCommand {
  name: string;
  argv: (dir: string) => string[];
  input?: string;
  /** The profile holds TOKEN before the run. */
  loggedIn: boolean;
  /** Output formats the command takes (default: all). */
  formats?: readonly string[];
  /**
   * Also run against a server that echoes each value on its own, in errors and in
   * answers. Commands that print an answer's fields as given do not scrub them yet
   * (SECURITY.md, known gaps).
   */
  valueEchoes?: boolean;
}

const SECRET_COMMANDS: SecretCommand[] = [
  {
    name: 'auth login',
    argv: () => ['auth', 'login', '--client-id', 'acme', '--client-secret-stdin'],
    input: `${CLIENT_SECRET}\n`,
    loggedIn: false,
    valueEchoes: true,
  },
  {
    name: 'auth login (a 5-character secret)',
    argv: () => ['auth', 'login', '--client-id', 'acme', '--client-secret-stdin'],
    input: `${SHORT_CLIENT_SECRET}\n`,
    loggedIn: false,
    valueEchoes: true,
  },
  {
    name: 'api POST /auth --data @-',
    argv: () => ['api', 'POST', '/auth', '--data', '@-'],
    input: JSON.stringify({ clientId: 'acme', clientSecret: CLIENT_SECRET }),
    loggedIn: true,
    formats: ['json', 'ndjson'],
    valueEchoes: true,
  },
  { name: 'auth token', argv: () => ['auth', 'token', '--stdin'], input: `${TOKEN}\n`, loggedIn: false },
  {
    name: 'cards tokenize',
    argv: () => [
      'cards',
      'tokenize',
      '--customer',
      '3f2b8c1e-0d4a-4b6e-9a7c-2e5d1f0a9b3c',
      '--holder-name',
      'ANA SILVA',
      '--exp-month',
      '12',
      '--exp-year',
      '2031',
      '--card-stdin',
    ],
    input: `${CARD_NUMBER}\n${SECURITY_CODE}\n`,
    loggedIn: true,
  },
  {
    name: 'api POST /cards/tokenize',
    argv: (dir) => {
      const file = path.join(dir, 'card.json');
      writeFileSync(
        file,
        JSON.stringify({
          customerId: '3f2b8c1e-0d4a-4b6e-9a7c-2e5d1f0a9b3c',
          holderName: 'ANA',
          cardNumber: CARD_NUMBER,
          expirationMonth: '12',
          expirationYear: '2031',
          securityCode: SECURITY_CODE,
        }),
      );
      return ['api', 'POST', '/cards/tokenize', '--data', `@${file}`];
    },
    loggedIn: true,
    formats: ['json', 'ndjson'],
    valueEchoes: true,
  },
  { name: 'balance', argv: () => ['balance'], loggedIn: true },
  {
    name: 'withdraw pix',
    argv: () => ['withdraw', 'pix', '--amount', '1500', '--bank-account', '7', '--pix-key-type', 'email', '--pix-key', 'ana@example.com', '--yes'],
    loggedIn: true,
  },
];

let api: FakeApi;
const modes = new Map<string, Mode>();
let caseCounter = 0;
trackFailures();

beforeAll(async () => {
  api = await startFakeApi((request, res) => {
    const match = /^\/s\/([^/]+)(\/.*)$/.exec(request.url);
    const mode = match ? modes.get(match[1]!) : undefined;
    const inner = { ...request, url: match?.[2] ?? request.url };
    if (mode === 'hang') return;
    if (mode === 'echo-error') {
      // A hostile or careless server that repeats the request, secrets and all, in its error message.
      return sendJson(res, 400, { data: { message: `rejected ${inner.body} with ${request.headers.authorization ?? 'no token'}`, returnCode: -7001 } });
    }
    const echoed = valuesOf(request).flatMap(formsOf);
    if (mode === 'echo-values-error') return sendJson(res, 400, { data: { message: `rejected ${echoed.join(' ')}`, returnCode: -7001 } });
    const answer =
      inner.url === '/auth'
        ? { status: 200, body: { data: { accessToken: SERVER_TOKEN, tokenType: 'Bearer', expiresIn: 3600 }, message: 'ok' } }
        : normalAnswer(inner);
    if (mode === 'echo-values') {
      const data = (answer.body as { data: unknown }).data;
      if (data && typeof data === 'object' && !Array.isArray(data)) Object.assign(data, { echo: echoed, note: `you sent ${echoed.join(' ')}` });
    }
    return sendJson(res, answer.status, answer.body);
  });
});
afterAll(() => api?.close());

function prepareCase(command: SecretCommand, mode: Mode) {
  const id = `s${++caseCounter}`;
  modes.set(id, mode);
  const dir = mkdtempSync(path.join(tmpdir(), 'payctl-secrets-'));
  const configDir = path.join(dir, 'config');
  if (command.loggedIn) {
    mkdirSync(configDir, { mode: 0o700 });
    writeFileSync(
      path.join(configDir, 'config.json'),
      JSON.stringify({ profiles: { default: { baseUrl: 'http://127.0.0.1:9', env: 'local', token: TOKEN } } }),
      { mode: 0o600 },
    );
  }
  const stateDir = path.join(dir, 'state');
  return { id, dir, configDir, stateDir, env: { PAYCTL_CONFIG_DIR: configDir, PAYCTL_BASE_URL: `${api.url}/s/${id}`, XDG_STATE_HOME: stateDir } };
}

/** Where a secret turned up, in any of its forms: the channel and the secret's name. */
function findSecrets(channel: string, text: string, allowed: string[] = []): string[] {
  const escape = (form: string) => form.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const appears = (name: string, form: string) =>
    SHORT_SECRETS.has(name) ? new RegExp(`(?<![A-Za-z0-9+/=_-])${escape(form)}(?![A-Za-z0-9+/=_-])`).test(text) : text.includes(form);
  return Object.entries(SECRETS)
    .filter(([name]) => !allowed.includes(name))
    .flatMap(([name, value]) =>
      formsOf(value)
        .filter((form) => appears(name, form))
        .map((form) => `${name}${form === value ? '' : ` (as ${form})`} in ${channel}`),
    );
}

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath ?? (entry as unknown as { path: string }).path, entry.name));
}

describe('secrets never leak', () => {
  const cases = SECRET_COMMANDS.flatMap((command) =>
    (command.formats ?? FORMATS).flatMap((format) => (command.valueEchoes ? VALUE_ECHO_MODES : MODES).map((mode) => ({ command, format, mode }))),
  );

  it(`${cases.length} runs (every secret-handling command × every format × success, echoed requests and echoed values in errors and answers, all with --debug): no secret in any form on stdout, stderr or in files but the token in config.json`, async () => {
    const leaks = (
      await inPool(cases, 4, async ({ command, format, mode }) => {
        const { id, dir, configDir, stateDir, env } = prepareCase(command, mode);
        // The server shares this starved process: its answer may come late, so the deadline is the run's, not a short --timeout.
        const result = await runInProcess([...command.argv(dir), '--debug', '-o', format, '--timeout', String(RUN_DEADLINE_MS / 1000)], { env, input: command.input });
        const found = [...findSecrets('stdout', result.stdout), ...findSecrets('stderr', result.stderr)];
        for (const file of filesUnder(configDir)) {
          const allowed = path.basename(file) === 'config.json' ? ['token', 'issued token'] : [];
          found.push(...findSecrets(file, readFileSync(file, 'utf8'), allowed));
        }
        // The audit trail records each POST with its body (secrets masked) and its outcome: it must exist, and hold none.
        const audit = filesUnder(stateDir);
        const wrote = api.requests.some((request) => request.url.startsWith(`/s/${id}/`) && request.method !== 'GET');
        if (wrote && !audit.some((file) => /"type":"intent"/.test(readFileSync(file, 'utf8')))) found.push('a write, and no intent in the audit log');
        for (const file of audit) found.push(...findSecrets(file, readFileSync(file, 'utf8')));
        if (STACK_LINE.test(result.stderr) || /unexpected failure/.test(result.stderr)) found.push('stack trace or internal error on stderr');
        // An answer with extra fields is still the API's: only a command that checks its answer strictly may refuse it.
        const expectedExit = mode === 'ok' || mode === 'echo-values' ? 0 : 1;
        if (result.code !== expectedExit && !(command.name === 'auth token' && mode !== 'ok')) found.push(`exit ${result.code}, expected ${expectedExit}`);
        return found.map((leak) => `${command.name} -o ${format} (${mode}): ${leak}\n  stderr: ${result.stderr.slice(0, 600)}`);
      })
    ).flat();
    expect(leaks, leaks.join('\n')).toEqual([]);
    tally('secretChecks', cases.length);
  });

  it('no secret in the argv or process title of a running payctl (read from /proc once it has its secrets: while it waits on a server that never answers, or for auth token on the config lock)', async () => {
    const problems = (
      await inPool(SECRET_COMMANDS, 3, async (command) => {
        const sighting = command.name === 'auth token' ? await whileStoringToken(command) : await whileWaitingOnServer(command);
        if ('missed' in sighting) return [`${command.name}: ${sighting.missed}`];
        return [...findSecrets(`argv of ${command.name}`, sighting.argv), ...findSecrets(`title of ${command.name}`, sighting.title)];
      })
    ).flat();
    expect(problems, problems.join('\n')).toEqual([]);
    tally('secretChecks', SECRET_COMMANDS.length);
  });
});

/** What /proc shows of a running payctl, or why it was not seen running where it was awaited. */
type Sighting = { argv: string; title: string } | { missed: string };

/**
 * Linux shows a new process title only within the bytes of the original argv: room for a title that
 * holds the token whole (a user's longer paths give it), so that a payctl putting it there is seen.
 */
const ROOM_FOR_A_TITLE = `payctl${'-'.repeat(2 * TOKEN.length)}`;

/** A file of /proc/PID, '' once the process has ended (an ended process, not yet reaped, shows an empty argv). */
function procFile(pid: number, name: string): string {
  try {
    return readFileSync(`/proc/${pid}/${name}`, 'utf8');
  } catch {
    return '';
  }
}

/** A process and those it started, theirs too: a payctl that ran itself again, with a secret in its argv, would be its child. */
function withDescendants(pid: number): number[] {
  let threads: string[] = [];
  try {
    threads = readdirSync(`/proc/${pid}/task`);
  } catch {
    // It has ended: no threads, no children.
  }
  const children = threads.flatMap((thread) => procFile(pid, `task/${thread}/children`).split(' ').filter(Boolean).map(Number));
  return [pid, ...children.flatMap(withDescendants)];
}

/**
 * Starts payctl for the argv check, with `input` on its stdin (a string, or the descriptor of an
 * open file). --timeout past the run's deadline: it waits on the server until it is killed.
 */
function startForArgv(command: SecretCommand, dir: string, env: Record<string, string>, input: string | number) {
  const child = spawn(process.execPath, [BIN, ...command.argv(dir), '--debug', '--timeout', String(RUN_DEADLINE_MS / 1000)], {
    argv0: ROOM_FOR_A_TITLE,
    env: cleanEnv(env),
    stdio: [typeof input === 'number' ? input : 'pipe', 'pipe', 'pipe'],
  });
  if (typeof input === 'string') child.stdin?.end(input);
  let stderr = '';
  child.stdout?.resume();
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const closed = new Promise((resolve) => child.on('close', resolve));
  const pid = child.pid!;
  return {
    proc: (name: string) => procFile(pid, name),
    /** Waits until `reached` or payctl ends; whether it was reached. */
    until: async (reached: () => boolean) => {
      for (const deadline = Date.now() + RUN_DEADLINE_MS; !reached() && child.exitCode === null && Date.now() < deadline; ) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return reached();
    },
    /**
     * Its argv and title now, read once it is seen to be payctl (a request, a lock tried): a new title
     * overwrites the argv (cmdline) and renames the process (comm).
     */
    sighting: (): Sighting => {
      const processes = withDescendants(pid);
      const argv = processes.map((each) => procFile(each, 'cmdline').replace(/\0/g, ' '));
      if (!argv[0]) return { missed: 'its argv could not be read: it had ended' };
      return { argv: argv.join('\n'), title: processes.map((each) => procFile(each, 'comm')).join('') };
    },
    /** Kills it (its argv is read: waiting longer would prove nothing more); how it had ended before, if it had. */
    stop: async () => {
      child.kill('SIGKILL');
      await closed;
      // An exit code, not the signal: it had ended on its own (the kill reached a process already gone).
      return child.exitCode === null ? undefined : `exit ${child.exitCode}: ${stderr.trim().slice(0, 400)}`;
    },
  };
}

/** A command that sends its secrets: its argv once the server has its request, which is never answered. */
async function whileWaitingOnServer(command: SecretCommand): Promise<Sighting> {
  const { id, dir, env } = prepareCase(command, 'hang');
  const run = startForArgv(command, dir, env, command.input ?? '');
  await run.until(() => api.requests.some((request) => request.url.startsWith(`/s/${id}/`)));
  const sighting = run.sighting();
  await run.stop();
  return sighting;
}

const LOCK_TRIES = path.join(ROOT, 'test/helpers/lock-tries.cjs');
/** A run that ended before it was seen holding its token is run again, up to this many times, on a test starved that long. */
const RUNS_FOR_A_STARVED_TEST = 5;

/**
 * auth token sends nothing: its argv is read once it has read its token and tries to store it. Its
 * stdin is a file, whose offset (/proc/PID/fdinfo/0) says how much of it payctl has read; the config
 * lock, held here, keeps it from storing the token and ending, and test/helpers/lock-tries.cjs records
 * each of its tries at the lock. payctl gives up on a held lock after 15 s, and takes over one left
 * untouched for 10 s: a test starved longer than that sees it end first, and runs it again.
 */
async function whileStoringToken(command: SecretCommand): Promise<Sighting> {
  let missed = '';
  for (let attempt = 1; attempt <= RUNS_FOR_A_STARVED_TEST; attempt++) {
    const { dir, configDir, env } = prepareCase(command, 'hang');
    mkdirSync(configDir, { mode: 0o700 });
    const lock = path.join(configDir, 'config.lock');
    // Its mtime renewed every second while held, as payctl renews its own.
    const release = await lockfile.lock(lock, { lockfilePath: lock, realpath: false, update: 1000, onCompromised: () => undefined });
    const tokenFile = path.join(dir, 'token');
    writeFileSync(tokenFile, command.input ?? '');
    const tries = path.join(dir, 'lock-tries');
    const fd = openSync(tokenFile, 'r');
    const run = startForArgv(command, dir, { ...env, NODE_OPTIONS: `--require ${LOCK_TRIES}`, PAYCTL_TEST_LOCK_TRIES: tries }, fd);
    closeSync(fd);
    const tokenRead = () => /^pos:\s*(\d+)$/m.exec(run.proc('fdinfo/0'))?.[1] === String(statSync(tokenFile).size);
    const triedLock = () => existsSync(tries) && readFileSync(tries, 'utf8').split('\n').includes(lock);
    const seen = (await run.until(() => tokenRead() && triedLock())) ? run.sighting() : undefined;
    const ended = await run.stop();
    // A lock payctl took over as stale is no longer this test's to release.
    await release().catch(() => undefined);
    if (seen && 'argv' in seen) return seen;
    missed = `payctl was not seen holding its token in ${attempt} runs; the last ${ended ? `ended first (${ended})` : `did not read its token and try the config lock within ${RUN_DEADLINE_MS / 1000} s`}`;
  }
  return { missed };
}

describe('config file safety', () => {
  const sh = (script: string, env: Record<string, string>, input = '') =>
    new Promise<{ code: number; stderr: string }>((resolve) => {
      const child = spawn('sh', ['-c', script], { env: cleanEnv(env), stdio: ['pipe', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      child.on('close', (code) => resolve({ code: code ?? -1, stderr }));
      child.stdin.end(input);
    });
  const mode = (file: string) => (statSync(file).mode & 0o777).toString(8);

  it('the folder is 0700 and the file 0600 under umask 000, for a new folder and for a loose one made by hand', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'payctl-umask-'));
    const fresh = path.join(root, 'a', 'b', 'payctl');
    const run = (dir: string, args: string, input = '') => sh(`umask 000; exec '${process.execPath}' '${BIN}' ${args}`, { PAYCTL_CONFIG_DIR: dir }, input);
    expect((await run(fresh, 'profiles add p1 --base-url http://127.0.0.1:4010')).code).toBe(0);
    expect([mode(fresh), mode(path.join(fresh, 'config.json'))]).toEqual(['700', '600']);
    expect((await run(fresh, 'auth token --stdin --profile p1', `${TOKEN}\n`)).code).toBe(0);
    expect([mode(fresh), mode(path.join(fresh, 'config.json'))]).toEqual(['700', '600']);

    const loose = path.join(root, 'loose');
    mkdirSync(loose, { mode: 0o777 });
    chmodSync(loose, 0o777);
    writeFileSync(path.join(loose, 'config.json'), '{"profiles":{}}');
    chmodSync(path.join(loose, 'config.json'), 0o666);
    expect((await run(loose, 'auth token --stdin', `${TOKEN}\n`)).code).toBe(0);
    expect([mode(loose), mode(path.join(loose, 'config.json'))]).toEqual(['700', '600']);
    expect(readdirSync(loose).filter((name) => name !== 'config.json')).toEqual([]);
    tally('secretChecks', 3);
  });

  const BROKEN: Record<string, string> = {
    'half-written': '{"currentProfile":"prod","profiles":{"prod":{"baseUrl":"https://api.exa',
    'not an object': '[1,2,3]',
    'profiles not an object': '{"profiles":[]}',
    'a null profile': '{"profiles":{"default":null}}',
    'binary garbage': '\u0000\u00ff\u00fe{{{',
  };

  it.each(Object.entries(BROKEN))('a config file that is %s: exit 2 naming the file and the fix, nothing sent, the file left as it was', async (_, text) => {
    const dir = mkdtempSync(path.join(tmpdir(), 'payctl-broken-'));
    const file = path.join(dir, 'config.json');
    writeFileSync(file, text, { mode: 0o600 });
    const sent = api.requests.length;
    for (const args of [['profiles', 'list'], ['balance'], ['profiles', 'add', 'x', '--base-url', 'http://127.0.0.1:4010'], ['auth', 'token', '--stdin']]) {
      const result = await runInProcess(args, { env: { PAYCTL_CONFIG_DIR: dir, PAYCTL_BASE_URL: api.url, PAYCTL_TOKEN: TOKEN }, input: `${TOKEN}\n` });
      expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(2);
      expect(result.stderr).toContain(file);
      expect(result.stderr).toMatch(/hint: .*mv '/);
      expect(result.stderr).not.toMatch(STACK_LINE);
      expect(result.stderr).not.toContain(TOKEN);
    }
    expect(api.requests.length).toBe(sent);
    expect(readFileSync(file, 'utf8')).toBe(text);
    tally('secretChecks', 4);
  });

  it('a profile named like an Object property ("constructor", "toString") does not exist until it is added', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'payctl-proto-'));
    const env = { PAYCTL_CONFIG_DIR: dir, PAYCTL_BASE_URL: api.url, PAYCTL_TOKEN: TOKEN };
    const sent = api.requests.length;
    for (const name of ['constructor', 'toString', '__proto__']) {
      const result = await runInProcess(['balance', '--profile', name], { env });
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toMatch(/does not exist/);
    }
    expect(api.requests.length).toBe(sent);
    expect((await runInProcess(['profiles', 'add', 'constructor', '--base-url', 'http://127.0.0.1:4010'], { env })).code).toBe(0);
    expect(JSON.parse(readFileSync(path.join(dir, 'config.json'), 'utf8')).profiles).toEqual({
      constructor: { baseUrl: 'http://127.0.0.1:4010', env: 'local' },
    });
    tally('secretChecks', 4);
  });

  it('concurrent payctl processes adding profiles, storing tokens and switching profiles lose no change', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'payctl-race-'));
    const env = { PAYCTL_CONFIG_DIR: dir };
    const N = 8;
    const names = Array.from({ length: N }, (_, i) => `p${i}`);
    const tokens = names.map((_, i) => fakeJwt(hour() + i).replace('signature', `race${i}`));
    // Real processes racing, each kept up for its runs (no Node start-up per run); a first run loads payctl in each.
    // A worker runs one command at a time: one worker for each run of the mixed round, so that all of them start together.
    const workers = startWorkers(2 * N + 1);
    let added: RunResult[];
    let mixed: RunResult[];
    try {
      await Promise.all(workers.map((worker) => worker.run(['profiles', 'list'], { env: { PAYCTL_CONFIG_DIR: tempConfigDir() } })));
      const together = Date.now() + 50;
      added = await Promise.all(names.map((name, i) => workers[i]!.run(['profiles', 'add', name, '--base-url', `http://127.0.0.1:${5000 + i}`], { env, startAt: together })));
      expect(added.map((r) => r.code), added.map((r) => r.stderr).join('')).toEqual(names.map(() => 0));
      // Tokens for the first profiles while more profiles are added and the current one changes, all at once.
      const again = Date.now() + 50;
      mixed = await Promise.all([
        ...names.map((name, i) => workers[i]!.run(['auth', 'token', '--stdin', '--profile', name], { env, input: `${tokens[i]}\n`, startAt: again })),
        ...names.map((name, i) => workers[N + i]!.run(['profiles', 'add', `q${name}`, '--base-url', 'https://api.example.com'], { env, startAt: again })),
        workers[2 * N]!.run(['profiles', 'use', 'p3'], { env, startAt: again }),
      ]);
    } finally {
      await Promise.all(workers.map((worker) => worker.close()));
    }
    expect(mixed.map((r) => r.code), mixed.map((r) => r.stderr).join('')).toEqual(mixed.map(() => 0));
    const config = JSON.parse(readFileSync(path.join(dir, 'config.json'), 'utf8')) as {
      currentProfile: string;
      profiles: Record<string, { token?: string; baseUrl: string }>;
    };
    expect(Object.keys(config.profiles).sort()).toEqual([...names, ...names.map((n) => `q${n}`)].sort());
    expect(names.map((name) => config.profiles[name]!.token)).toEqual(tokens);
    expect(names.map((name) => config.profiles[name]!.baseUrl)).toEqual(names.map((_, i) => `http://127.0.0.1:${5000 + i}`));
    expect(config.currentProfile).toBe('p3');
    expect(existsSync(path.join(dir, 'config.lock'))).toBe(false);
    tally('secretChecks', 3 * N + 1);
  });
});
