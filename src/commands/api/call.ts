import type { Context } from '../../context.js';
import { usageError } from '../../errors.js';
import type { HttpMethod } from '../../http/client.js';
import { writeOut } from '../../output/format.js';
import { pickPaths } from '../../output/paths.js';
import { jsonText } from '../../output/sanitize.js';
import { isSecretKey, maskSecrets, secretFieldsIn } from '../../redact.js';
import { parseJson, readJsonFile } from '../../stdin.js';
import type { CommandInput } from '../spec.js';

type Query = Record<string, string>;

/** A path on the API's base URL: an absolute URL would send the token elsewhere. */
function parsePath(raw: string): { path: string; query: Query } {
  if (!raw.startsWith('/')) throw usageError(`PATH ${JSON.stringify(raw)} is invalid: give a route relative to the base URL, starting with /, e.g. /customers`);
  const url = new URL(raw, 'http://base.invalid');
  return { path: url.pathname, query: Object.fromEntries(url.searchParams) };
}

function parseQuery(values: readonly string[]): Query {
  const query: Query = {};
  for (const value of values) {
    const at = value.indexOf('=');
    if (at <= 0) throw usageError(`--query ${JSON.stringify(value)} is invalid: must be key=value, e.g. --query limit=5`);
    query[value.slice(0, at)] = value.slice(at + 1);
  }
  return query;
}

/** A secret in a query string is kept in the logs of every server and proxy on the way. */
function refuseSecretsInQuery(query: Query): void {
  const keys = Object.keys(query).filter(isSecretKey);
  if (keys.length > 0) throw usageError(`the query holds secrets (${keys.join(', ')}), and a URL is kept in logs along the way`, 'send them in the body: --data @body.json');
}

/**
 * `--data` as JSON text, `@FILE`, or `@-` for stdin. Inline JSON must hold no
 * secret: the command line is readable by every user of the machine (`ps`) and
 * stays in shell history.
 */
async function readData(ctx: Context, raw: string): Promise<unknown> {
  if (raw.startsWith('@')) return readJsonFile(ctx.io.stdin, raw.slice(1), raw === '@-' ? '--data @- (stdin)' : `--data ${raw}`);
  const body = parseJson(raw, '--data');
  const keys = new Set(secretFieldsIn(body).map((field) => field.key));
  if (keys.size > 0) {
    throw usageError(
      `--data given inline holds secrets (${[...keys].join(', ')}), and the command line is visible to every user of this machine (ps) and kept in shell history`,
      'put the body in a file, or pipe it: --data @body.json, or --data @- < body.json',
    );
  }
  return body;
}

/**
 * What `api` prints: secret fields masked (an answer's accessToken too) and any
 * secret of this run (the client's registers those it sent or received) scrubbed
 * from the rest, so that a server echoing one gets nothing printed; unless --show-secrets.
 */
function shownOf(ctx: Context, result: unknown, showSecrets: boolean): unknown {
  if (showSecrets) return result;
  return ctx.secrets.scrubDeep(maskSecrets(result));
}

/** The value to print with --fields: each item of a list, or the object itself. */
const project = (value: unknown, fields: string[] | undefined) =>
  !fields ? value : Array.isArray(value) ? value.map((item) => pickPaths(item, fields)) : pickPaths(value, fields);

export async function run(ctx: Context, { args, opts }: CommandInput): Promise<void> {
  const method = args[0] as HttpMethod;
  const { path, query: pathQuery } = parsePath(args[1]!);
  const query = { ...pathQuery, ...parseQuery((opts.query as string[] | undefined) ?? []) };
  const explicit = ctx.flags.json ? 'json' : ctx.flags.output;
  if (explicit && explicit !== 'json' && explicit !== 'ndjson') {
    throw usageError(`-o ${explicit} is not available for api: it prints JSON (-o json, the default, or -o ndjson)`);
  }
  const fields = ctx.output.fieldsFor(undefined);
  if (opts.data !== undefined && method === 'GET') throw usageError('--data cannot be sent with GET: use --query for parameters');
  refuseSecretsInQuery(query);
  const body = opts.data === undefined ? undefined : await readData(ctx, String(opts.data));
  const client = await ctx.api();
  const envelope = await client.request({ method, path, query, body, accountContext: true });
  const result = shownOf(ctx, opts.envelope ? envelope : project(envelope.data, fields), opts.showSecrets === true);
  if (explicit === 'ndjson') {
    const lines = Array.isArray(result) && !opts.envelope ? result : [result];
    await writeOut(ctx.io.stdout, lines.map((line) => `${jsonText(line ?? null)}\n`).join(''));
  } else {
    await writeOut(ctx.io.stdout, `${jsonText(result ?? null, 2)}\n`);
  }
}
