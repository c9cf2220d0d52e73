import type { Context } from '../../context.js';
import { ExitCode, PayctlError, usageError } from '../../errors.js';
import { pageOf } from '../../api/pages.js';
import { parseLimit } from '../../validation/flags.js';
import { ALL_PAGES_PACE, failedMidway, progressLine, SCAN_PAGE_SIZE, type PageFetcher } from '../shared/list.js';
import { scanPages } from '../shared/scan.js';
import { pickPaths } from '../../output/paths.js';
import { isSecretKey, maskSecrets, secretFieldsIn } from '../../redact.js';
import { parseJson, readJsonFile } from '../../stdin.js';
import { apiWithdrawalClaim, sendClaimed } from '../../ledger/index.js';
import { idOf } from '../../withdrawal/identity.js';
import { isApiWithdrawal, refuseApiWithdrawalAboveLimit } from '../../withdrawal/limits.js';
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
  if (opts.paginate || opts.slurp) return paginate(invocation, query, fields);
  const body = opts.data === undefined ? undefined : await readData(invocation, opts.data);
  refuseApiWithdrawalAboveLimit(services.settings(), method, target.path, body);
  const claim = isApiWithdrawal(method, target.path) ? apiWithdrawalClaim(services, body, flag('data')) : undefined;
  const client = await services.api();
  const send = () => client.send({ method, path: target.path, query, body, accountContext: true });
  let envelope: Awaited<ReturnType<typeof send>>;
  if (claim) {
    // Settled done with the id the answer gives, else unknown (`withdrawals get` settles it).
    await sendClaimed(invocation, claim, async () => {
      envelope = await send();
      const id = idOf(envelope?.data);
      return id === undefined ? undefined : { id };
    });
  } else envelope = await send();
  if (!envelope) return;
  const result = shownOf(invocation, opts.envelope ? envelope : project(envelope.data, fields), opts.showSecrets);
  await io.output.documents(io.output.format === 'ndjson' && Array.isArray(result) && !opts.envelope ? result : [result]);
}

/**
 * `--paginate`: every page of a GET route, read as `--all` reads a list (scan.ts:
 * a few pages at a time, 429s waited out, Ctrl-C), each page's data printed as it
 * comes in order: an array per page, with -o ndjson one item a line; with
 * --slurp, one array of every item at the end.
 */
async function paginate(invocation: ApiCall, query: Query, fields: string[] | undefined): Promise<void> {
  const { io, services, args: [method, target], opts, flag } = invocation;
  const paginateFlag = flag('paginate');
  if (!opts.paginate) throw usageError(`${flag('slurp')} gathers the pages of ${paginateFlag}: add ${paginateFlag}`);
  if (method !== 'GET') throw usageError(`${paginateFlag} reads pages, with GET only: ${method} ${target.path} would be sent once per page`);
  if (opts.envelope) throw usageError(`${flag('envelope')} cannot be used with ${paginateFlag}: payctl follows each page's meta itself`);
  if (opts.slurp && io.output.format === 'ndjson') throw usageError(`${flag('slurp')} prints one JSON array: leave -o ndjson out`);
  if ('page' in query) throw usageError(`${paginateFlag} reads every page from the first: leave the page parameter out`);
  const limit = query.limit === undefined ? SCAN_PAGE_SIZE : parseLimit('the limit parameter', query.limit);
  const client = await services.api();
  const fetch: PageFetcher<unknown> = async (pageQuery, signal) => {
    const { data, meta } = await client.send({ method: 'GET', path: target.path, query: { ...query, ...pageQuery }, accountContext: true, callerHandlesRateLimit: true, signal });
    if (!Array.isArray(data)) throw new PayctlError(`GET ${target.path} answered no list (its data is not an array), so it has no pages to follow`, ExitCode.usage);
    const page = pageOf(data, meta, pageQuery);
    return { ...page, items: shownOf(invocation, project(page.items, fields), opts.showSecrets) as unknown[] };
  };
  const slurped: unknown[] = [];
  const progress = progressLine(io, 'items');
  let handed = 0;
  try {
    await scanPages(
      fetch,
      async (items) => {
        if (opts.slurp) slurped.push(...items);
        else await io.output.documents(io.output.format === 'ndjson' ? items : [items]);
        handed += items.length;
      },
      { ...ALL_PAGES_PACE, limit, signal: io.signal, onProgress: (p) => progress.update(p) },
    );
  } catch (error) {
    progress.done();
    throw await failedMidway(io, `${paginateFlag} did not finish: ${handed} items were ${opts.slurp ? 'read (none printed)' : 'printed'} before the failure`, error);
  }
  progress.done();
  if (opts.slurp) await io.output.document(slurped);
}
