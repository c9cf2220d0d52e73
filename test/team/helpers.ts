import { afterAll, beforeAll, expect } from 'vitest';
import { RUN_DEADLINE_MS, startCli, tempConfigDir, type RunResult } from '../helpers/cli.js';
import { runInProcess } from '../helpers/in-process.js';
import { startPostgres, type TestPostgres } from '../helpers/postgres.js';
import { hasTools } from '../helpers/tools.js';
import { startSandboxSession, type SandboxSession } from '../helpers/sandbox.js';
import { fundedMainAccount, type Proxy } from '../money/helpers.js';

/**
 * A finance team on one PostgreSQL ledger: two operators, each with a config folder of
 * their own, reaching the same sandbox account by two spellings of its URL (127.0.0.1 and
 * localhost). Every count is read from the sandbox afterwards, never from payctl.
 */
export interface LedgerTeam {
  db: TestPostgres;
  session: SandboxSession;
  /** The main account's first bank account. */
  bank: string;
  /** Operator A's environment (127.0.0.1) and operator B's (localhost), both naming the ledger. */
  envA: Record<string, string>;
  envB: Record<string, string>;
  close(): Promise<void>;
}

/** A cluster, a sandbox and both operators logged in with the ledger named; `initialized`: after `ledger init`. */
export async function startLedgerTeam({ initialized = false } = {}): Promise<LedgerTeam> {
  const db = await startPostgres();
  // Answers take 150 ms, as across a network: runs started together overlap.
  const session = await startSandboxSession('acme', { latencyMs: 150 });
  const bank = await fundedMainAccount(session);
  const envA = { ...session.env, PGPASSWORD: db.password };
  const envB = { PAYCTL_CONFIG_DIR: tempConfigDir(), PAYCTL_BASE_URL: session.sandbox.url.replace('127.0.0.1', 'localhost'), PGPASSWORD: db.password };
  const secret = session.sandbox.credentials.find((c) => c.clientId === 'acme')!.clientSecret;
  const login = await runInProcess(['auth', 'login', '--client-id', 'acme', '--client-secret-stdin'], { env: envB, input: `${secret}\n` });
  expect(login.code, login.stderr).toBe(0);
  for (const env of [envA, envB]) {
    const set = await runInProcess(['profiles', 'set', 'default', '--ledger', db.url], { env });
    expect(set.code, set.stderr).toBe(0);
  }
  if (initialized) {
    const init = await runInProcess(['ledger', 'init'], { env: envA });
    expect(init.code, init.stderr).toBe(0);
  }
  return {
    db,
    session,
    bank,
    envA,
    envB,
    close: async () => {
      await session.close();
      await db.close();
    },
  };
}

/**
 * The team of a test file: started before its tests (when PostgreSQL is there) and closed after
 * them; its fields are read by the tests, once started.
 */
export function teamOfFile(options: { initialized?: boolean } = {}): LedgerTeam {
  let team: LedgerTeam | undefined;
  beforeAll(async () => {
    if (hasTools('postgresql')) team = await startLedgerTeam(options);
  });
  afterAll(() => team?.close());
  const started = (): LedgerTeam => {
    if (!team) throw new Error('the ledger team has not started');
    return team;
  };
  return {
    get db() { return started().db; },
    get session() { return started().session; },
    get bank() { return started().bank; },
    get envA() { return started().envA; },
    get envB() { return started().envB; },
    close: () => started().close(),
  };
}

export const batchArgs = (file: string, extra: string[] = []) => ['withdraw', 'batch', file, '--method', 'pix', '--yes', '--main-account', ...extra];

/** The claims the ledger holds for rows of this file. */
export const claimsOf = async (db: TestPostgres, file: string) =>
  Number((await db.query<{ n: string }>('SELECT count(*) AS n FROM payctl_claims WHERE file = $1', [file]))[0]!.n);

export async function waitUntil(what: string, check: () => Promise<boolean>): Promise<void> {
  for (const deadline = Date.now() + RUN_DEADLINE_MS; !(await check()); ) {
    if (Date.now() > deadline) throw new Error(`never: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * A batch stopped by Ctrl-C with `inFlight` requests at the proxy, held (the POSTs, or their answers) until
 * payctl said it heard it: those finish, and the run ends as the user's Ctrl-C ends it. Returns that run.
 */
export async function batchStoppedByCtrlC(proxy: Proxy, hold: 'holdPosts' | 'holdAnswers', args: string[], env: Record<string, string>, inFlight: number): Promise<RunResult> {
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  proxy[hold](() => held);
  try {
    const running = startCli(args, env);
    await waitUntil(`${inFlight} requests`, async () => proxy.posts.length === inFlight);
    running.child.kill('SIGINT');
    await running.waitFor(/stopping: waiting for the requests in flight/);
    release();
    return await running.done;
  } finally {
    release();
  }
}
