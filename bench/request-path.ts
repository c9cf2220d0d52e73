// The request path of `payctl balance --json` alone, for the start-up benchmark
// (bench/startup.mjs bundles it as dist/cli.cjs is bundled and runs it through the
// same launcher code and code cache): the settings from config and environment,
// the API client (ky over node:http), the answer's check, the JSON on stdout. No
// command line, context, prompts or error reporting: what is left of a run when
// everything a CLI adds to the request is taken away. It shows how close to the
// bare node:http GET any payctl that checks its answers can start.
import { writeSync } from 'node:fs';
import { getBalance } from '../src/api/withdrawals.js';
import { resolveSettings } from '../src/config/settings.js';
import { configDir, readConfig } from '../src/config/store.js';
import { createApiClient } from '../src/http/client.js';

export async function run(): Promise<void> {
  const settings = resolveSettings(readConfig(configDir(process.env)), {}, process.env);
  const api = await createApiClient({ baseUrl: settings.baseUrl, token: settings.token, timeoutMs: settings.timeoutMs });
  writeSync(1, `${JSON.stringify(await getBalance(api), null, 2)}\n`);
}
