import { startSandbox, type RunningSandbox, type SandboxOptions } from '../../src/sandbox/server.js';
import { runCli, tempConfigDir, type RunOptions, type RunResult } from './cli.js';
import { runInProcess } from './in-process.js';
import { freshFetch } from './fresh-fetch.js';

export interface SandboxSession {
  sandbox: RunningSandbox;
  /** The company logged in. */
  company: 'acme' | 'globex';
  /** Config folder logged in as the company. */
  configDir: string;
  env: Record<string, string>;
  /** Runs payctl against this sandbox, logged in, in the test process (runInProcess). */
  run(args: readonly string[], options?: RunOptions): Promise<RunResult>;
  /** The same as a child process of the built binary (runCli): for signals, races between processes, shims. */
  runProcess(args: readonly string[], options?: RunOptions): Promise<RunResult>;
  close(): Promise<void>;
}

/**
 * Starts a sandbox on a free port of 127.0.0.1 and logs payctl in to it, the way a
 * user would (`auth login --client-secret-stdin`), in a config folder of its own.
 */
export async function startSandboxSession(company: 'acme' | 'globex' = 'acme', options: SandboxOptions = {}): Promise<SandboxSession> {
  const sandbox = await startSandbox({ port: 0, ...options });
  const configDir = tempConfigDir();
  const env = { PAYCTL_CONFIG_DIR: configDir, PAYCTL_BASE_URL: sandbox.url };
  const secret = sandbox.credentials.find((c) => c.clientId === company)!.clientSecret;
  const login = await runInProcess(['auth', 'login', '--client-id', company, '--client-secret-stdin'], { env, input: `${secret}\n` });
  if (login.code !== 0) throw new Error(`login failed: ${login.stderr}`);
  const withEnv = (runOptions: RunOptions): RunOptions => ({ ...runOptions, env: { ...env, ...runOptions.env } });
  return {
    sandbox,
    company,
    configDir,
    env,
    run: (args, runOptions = {}) => runInProcess(args, withEnv(runOptions)),
    runProcess: (args, runOptions = {}) => runCli(args, withEnv(runOptions)),
    close: () => sandbox.close(),
  };
}

export interface SandboxWithdrawal {
  id: string;
  amount: number;
  pixKey?: string | null;
  bankAccountId: number;
  withdrawalPaymentType: string;
  createdAt: string;
}

/** An access token of the session's company, from the sandbox's own API: for tests that act as someone else than payctl. */
export async function sandboxToken(session: SandboxSession): Promise<string> {
  const clientId = session.company;
  const clientSecret = session.sandbox.credentials.find((c) => c.clientId === clientId)!.clientSecret;
  const auth = await freshFetch(`${session.sandbox.url}/auth`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ clientId, clientSecret }),
  });
  return ((await auth.json()) as { data: { accessToken: string } }).data.accessToken;
}

/**
 * Reads the sandbox's withdrawals of the session's company (in `account`, else the main
 * account) over its own API, not through payctl: what money tests count after the fact.
 */
export async function sandboxWithdrawals(session: SandboxSession, account?: string): Promise<SandboxWithdrawal[]> {
  const token = await sandboxToken(session);
  // By id: the list is newest first, so a withdrawal made while it is read moves the others a
  // place down, and one may be seen on two pages. Two payments are two ids, and count twice.
  const byId = new Map<string, SandboxWithdrawal>();
  for (let page = 1; ; page++) {
    const response = await freshFetch(`${session.sandbox.url}/withdrawals?page=${page}&limit=100`, {
      headers: { authorization: `Bearer ${token}`, ...(account ? { 'x-subaccount-id': account } : {}) },
    });
    const body = (await response.json()) as { data: SandboxWithdrawal[]; meta: { total: number } };
    for (const withdrawal of body.data) byId.set(withdrawal.id, withdrawal);
    if (body.data.length === 0 || page * 100 >= body.meta.total) return [...byId.values()];
  }
}

/** Withdrawals of the account (main unless given), counted through the sandbox's own API: never payctl's word. */
export const withdrawalCount = async (session: SandboxSession, account?: string) => (await sandboxWithdrawals(session, account)).length;
