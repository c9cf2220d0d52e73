import type { Context } from '../../context.js';
import { usageError } from '../../errors.js';
import type { HttpMethod } from '../../http/client.js';
import { writeOut } from '../../output/format.js';
import { pickPaths } from '../../output/paths.js';
import { jsonText } from '../../output/sanitize.js';
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

/** `--data` as JSON text, `@FILE`, or `@-` for stdin. */
function readData(ctx: Context, raw: string): Promise<unknown> {
  if (!raw.startsWith('@')) return Promise.resolve(parseJson(raw, '--data'));
  return readJsonFile(ctx.io.stdin, raw.slice(1), raw === '@-' ? '--data @- (stdin)' : `--data ${raw}`);
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
  const body = opts.data === undefined ? undefined : await readData(ctx, String(opts.data));
  const client = await ctx.api();
  const envelope = await client.request({ method, path, query, body, accountContext: true });
  const result = opts.envelope ? envelope : project(envelope.data, fields);
  if (explicit === 'ndjson') {
    const lines = Array.isArray(result) && !opts.envelope ? result : [result];
    await writeOut(ctx.io.stdout, lines.map((line) => `${jsonText(line ?? null)}\n`).join(''));
  } else {
    await writeOut(ctx.io.stdout, `${jsonText(result ?? null, 2)}\n`);
  }
}
