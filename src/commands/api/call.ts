import type { Context } from '../../context.js';
import { usageError } from '../../errors.js';
import { writeOut } from '../../output/format.js';
import { pickPaths } from '../../output/paths.js';
import { jsonText } from '../../output/sanitize.js';
import { isSecretKey, maskSecrets, secretFieldsIn } from '../../redact.js';
import { parseJson, readJsonFile } from '../../stdin.js';
import { refuseApiWithdrawalAboveLimit } from '../../withdrawal/limits.js';
import type { Invocation } from '../spec.js';
import type { apiCall } from './index.js';

type Query = Record<string, string>;
type ApiCall = Invocation<typeof apiCall>;

/** A secret in a query string is kept in the logs of every server and proxy on the way. */
function refuseSecretsInQuery({ flag }: ApiCall, query: Query): void {
  const keys = Object.keys(query).filter(isSecretKey);
  if (keys.length > 0) throw usageError(`the query holds secrets (${keys.join(', ')}), and a URL is kept in logs along the way`, `send them in the body: ${flag('data')} @body.json`);
}

/**
 * `--data` as JSON text, `@FILE`, or `@-` for stdin. Inline JSON must hold no
 * secret: the command line is readable by every user of the machine (`ps`) and
 * stays in shell history.
 */
async function readData({ io, flag }: ApiCall, raw: string): Promise<unknown> {
  const data = flag('data');
  if (raw.startsWith('@')) return readJsonFile(io.stdin, raw.slice(1), raw === '@-' ? `${data} @- (stdin)` : `${data} ${raw}`);
  const body = parseJson(raw, data);
  const keys = new Set(secretFieldsIn(body).map((field) => field.key));
  if (keys.size > 0) {
    throw usageError(
      `${data} given inline holds secrets (${[...keys].join(', ')}), and the command line is visible to every user of this machine (ps) and kept in shell history`,
      `put the body in a file, or pipe it: ${data} @body.json, or ${data} @- < body.json`,
    );
  }
  return body;
}

/**
 * What `api` prints: secret fields masked (an answer's accessToken too) and any
 * secret of this run (the client's registers those it sent or received) scrubbed
 * from the rest, so that a server echoing one gets nothing printed; unless --show-secrets.
 */
function shownOf({ services }: Context, result: unknown, showSecrets: boolean): unknown {
  if (showSecrets) return result;
  return services.secrets.scrubDeep(maskSecrets(result));
}

/** The value to print with --fields: each item of a list, or the object itself. */
const project = (value: unknown, fields: string[] | undefined) =>
  !fields ? value : Array.isArray(value) ? value.map((item) => pickPaths(item, fields)) : pickPaths(value, fields);

export async function run(invocation: ApiCall): Promise<void> {
  const { io, services, args: [method, target], opts, flag } = invocation;
  const query = { ...target.query, ...Object.fromEntries(opts.query) };
  const explicit = services.flags.json ? 'json' : services.flags.output;
  if (explicit && explicit !== 'json' && explicit !== 'ndjson') {
    throw usageError(`-o ${explicit} is not available for api: it prints JSON (-o json, the default, or -o ndjson)`);
  }
  const fields = io.output.fieldsFor(undefined);
  if (opts.data !== undefined && method === 'GET') throw usageError(`${flag('data')} cannot be sent with GET: use ${flag('query')} for parameters`);
  refuseSecretsInQuery(invocation, query);
  const body = opts.data === undefined ? undefined : await readData(invocation, opts.data);
  refuseApiWithdrawalAboveLimit(services.settings(), method, target.path, body);
  const client = await services.api();
  const envelope = await client.request({ method, path: target.path, query, body, accountContext: true });
  if (!envelope) return;
  const result = shownOf(invocation, opts.envelope ? envelope : project(envelope.data, fields), opts.showSecrets);
  if (explicit === 'ndjson') {
    const lines = Array.isArray(result) && !opts.envelope ? result : [result];
    await writeOut(io.stdout, lines.map((line) => `${jsonText(line ?? null)}\n`).join(''));
  } else {
    await writeOut(io.stdout, `${jsonText(result ?? null, 2)}\n`);
  }
}
