import type { ChildProcessByStdio } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { loadBuiltin } from '../builtin.js';

/**
 * The operating system's keychain (macOS Keychain, Windows Credential Manager,
 * the Secret Service on Linux) through @napi-rs/keyring.
 *
 * Each call runs in a child process that is killed when the keychain has not
 * answered within KEYCHAIN_TIMEOUT_MS: the library's calls block, and a Secret
 * Service that accepts the connection but never replies blocks them for good;
 * neither the event loop nor a worker thread (which holds the process at exit)
 * can abandon such a call. That time counts from the child saying it is ready
 * to ask, so a busy machine that is slow to start Node is not taken for a silent
 * keychain; starting is bounded on its own (HELPER_START_TIMEOUT_MS). The child
 * is given the secret on stdin, never in argv.
 * The library is loaded only there, so only profiles that keep their token in
 * the keychain pay for it (about 90 ms a run on Linux, with the D-Bus round trip).
 */

export const KEYCHAIN_TIMEOUT_MS = 3000;
const HELPER_START_TIMEOUT_MS = 30_000;
/** What the child writes, on a line of its own, once it has loaded the library and read the request. */
const READY = 'ready';
const SERVICE = 'payctl';

/** The keychain could not be used: absent (no Secret Service), locked, refusing, or silent for too long. */
export class KeychainUnavailable extends Error {
  constructor(reason: string) {
    super(`${keychainName()} ${reason}`);
    this.name = 'KeychainUnavailable';
  }
}

/** The keychain as its users know it on this system. */
export function keychainName(): string {
  if (process.platform === 'darwin') return 'the macOS Keychain';
  if (process.platform === 'win32') return 'the Windows Credential Manager';
  return 'the system keychain (Secret Service)';
}

export interface Keychain {
  get(account: string): Promise<string | undefined>;
  set(account: string, secret: string): Promise<void>;
  /** Whether there was an entry to delete. */
  delete(account: string): Promise<boolean>;
}

type Request = { op: 'get'; account: string } | { op: 'set'; account: string; secret: string } | { op: 'delete'; account: string };

/**
 * What the child runs: one request read from stdin, one JSON answer on stdout.
 * On Linux the Secret Service is required: @napi-rs/keyring would otherwise fall
 * back to the kernel keyring, which forgets everything at log-out or reboot.
 */
const CHILD = `
const { Entry } = require(process.argv[1]);
let input = '';
process.stdin.setEncoding('utf8').on('data', (chunk) => (input += chunk)).on('end', () => {
  let answer;
  try {
    const request = JSON.parse(input);
    process.stdout.write(${JSON.stringify(`${READY}\n`)});
    const entry = new Entry(${JSON.stringify(SERVICE)}, request.account, { linux: { store: 'secret-service' } });
    if (request.op === 'get') answer = { value: entry.getPassword() };
    else if (request.op === 'set') answer = { value: entry.setPassword(request.secret) };
    else answer = { value: entry.deleteCredential() };
  } catch (error) {
    answer = { error: String((error && error.message) || error) };
  }
  process.stdout.write(JSON.stringify(answer));
});
`;

/** The keychain, reached with the run's environment (on Linux, its D-Bus session). */
export function systemKeychain(env: NodeJS.ProcessEnv): Keychain {
  return {
    get: async (account) => {
      const value = await call(env, { op: 'get', account });
      return typeof value === 'string' ? value : undefined;
    },
    set: async (account, secret) => void (await call(env, { op: 'set', account, secret })),
    delete: async (account) => (await call(env, { op: 'delete', account })) === true,
  };
}

async function call(env: NodeJS.ProcessEnv, request: Request): Promise<unknown> {
  let library: string;
  try {
    library = require.resolve('@napi-rs/keyring');
  } catch {
    throw new KeychainUnavailable('cannot be reached: the @napi-rs/keyring package is not installed');
  }
  const { spawn } = loadBuiltin<typeof import('node:child_process')>('node:child_process');
  const child = spawn(process.execPath, ['-e', CHILD, library], { env, stdio: ['pipe', 'pipe', 'ignore'] });
  const answer = await answerOf(child, JSON.stringify(request));
  if ('error' in answer) throw new KeychainUnavailable(`cannot be used: ${answer.error}`);
  return answer.value;
}

function answerOf(child: ChildProcessByStdio<Writable, Readable, null>, input: string): Promise<{ value: unknown } | { error: string }> {
  return new Promise((resolve, reject) => {
    let output = '';
    const giveUp = (reason: string) => () => {
      child.kill('SIGKILL');
      reject(new KeychainUnavailable(reason));
    };
    let timer = setTimeout(giveUp(`could not be asked: its helper did not start within ${HELPER_START_TIMEOUT_MS / 1000} s`), HELPER_START_TIMEOUT_MS);
    let ready = false;
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
      if (ready || !output.startsWith(`${READY}\n`)) return;
      ready = true;
      output = output.slice(READY.length + 1);
      clearTimeout(timer);
      timer = setTimeout(giveUp(`did not answer within ${KEYCHAIN_TIMEOUT_MS / 1000} s`), KEYCHAIN_TIMEOUT_MS);
    });
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(new KeychainUnavailable(`cannot be reached: ${error.message}`));
    });
    child.on('close', () => {
      clearTimeout(timer);
      try {
        resolve(JSON.parse(output) as { value: unknown } | { error: string });
      } catch {
        reject(new KeychainUnavailable('gave no answer'));
      }
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(input);
  });
}
