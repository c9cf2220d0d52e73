import { startSandbox, type RunningSandbox, type SandboxOptions } from '../../src/sandbox/server.js';
import { runCli, tempConfigDir, type RunOptions, type RunResult } from './cli.js';

export interface SandboxSession {
  sandbox: RunningSandbox;
  /** Config folder logged in as the company. */
  configDir: string;
  env: Record<string, string>;
  /** Runs payctl against this sandbox, logged in. */
  run(args: readonly string[], options?: RunOptions): Promise<RunResult>;
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
  const login = await runCli(['auth', 'login', '--client-id', company, '--client-secret-stdin'], { env, input: `${secret}\n` });
  if (login.code !== 0) throw new Error(`login failed: ${login.stderr}`);
  return {
    sandbox,
    configDir,
    env,
    run: (args, runOptions = {}) => runCli(args, { ...runOptions, env: { ...env, ...runOptions.env } }),
    close: () => sandbox.close(),
  };
}
