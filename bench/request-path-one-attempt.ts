// bench/request-path.ts without ky: the GET sent once through src/http/node-fetch.ts
// (no retries, no Retry-After, no timeout handling beyond the deadline), its answer
// checked. What the request path would cost with a client lighter than ky; a
// measurement for the start-up benchmark, not a client payctl could ship.
import { writeSync } from 'node:fs';
import { answerFault } from '../src/api/answers.js';
import { resolveSettings } from '../src/config/settings.js';
import { configDir, readConfig } from '../src/config/store.js';
import { nodeFetch, type FetchInput } from '../src/http/node-fetch.js';

export async function run(): Promise<void> {
  const settings = resolveSettings(readConfig(configDir(process.env)), {}, process.env);
  const headers: Record<string, string> = { accept: 'application/json', authorization: `Bearer ${settings.token}` };
  const request: FetchInput = {
    url: `${settings.baseUrl}/withdrawals/balance`,
    method: 'GET',
    text: () => Promise.resolve(''),
    headers: { forEach: (callback) => Object.entries(headers).forEach(([name, value]) => callback(value, name, undefined as never)) },
  };
  const response = await nodeFetch(request, { deadline: Date.now() + settings.timeoutMs });
  const body: unknown = JSON.parse(await response.text());
  const fault = answerFault('getBalance', body);
  if (fault) throw new Error(fault);
  writeSync(1, `${JSON.stringify((body as { data: unknown }).data, null, 2)}\n`);
}
