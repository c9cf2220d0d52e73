import type { Context } from '../../context.js';
import { writeOut } from '../../output/format.js';
import { usageError } from '../../errors.js';
import { handleCtrlCInCommand } from '../../http/writes.js';
import { parseInteger, parseNonEmpty, parseShare } from '../../validate.js';
import { optString, type CommandInput } from '../spec.js';

export async function run(ctx: Context, { opts }: CommandInput): Promise<void> {
  /** The parsed value of `--name`, whose value commander keeps under its camel-case key. */
  const option = <T>(name: string, parse: (flag: string, raw: string) => T): T | undefined => {
    const raw = optString(opts, name.replace(/-(\w)/g, (_, letter: string) => letter.toUpperCase()));
    return raw === undefined ? undefined : parse(`--${name}`, raw);
  };
  const options = {
    port: option('port', (flag, raw) => parseInteger(flag, raw, 0, 65535)) ?? 4010,
    host: option('host', (flag, raw) => parseNonEmpty(flag, raw, 255)),
    seed: option('seed', (flag, raw) => parseInteger(flag, raw, 0, 2 ** 31 - 1)),
    customers: option('customers', (flag, raw) => parseInteger(flag, raw, 1, 1_000_000)),
    dataFile: option('data', (flag, raw) => parseNonEmpty(flag, raw, 4096)),
    latencyMs: option('latency', (flag, raw) => parseInteger(flag, raw, 0, 60_000)),
    rateLimit: option('rate-limit', (flag, raw) => parseInteger(flag, raw, 1, 1_000_000)),
    failureRate: option('fail-rate', parseShare),
    failAfterWrite: opts.failAfterWrite === true,
    settleAfterMs: option('settle-after', (flag, raw) => parseInteger(flag, raw, 0, 86_400_000)),
    settleFailedShare: option('settle-failed-share', parseShare),
    maxConnections: option('max-connections', (flag, raw) => parseInteger(flag, raw, 1, 1_000_000)),
    tls: opts.tls === true,
  };
  if (options.failAfterWrite && options.failureRate === undefined) throw usageError('--fail-after-write needs --fail-rate: it says when a failure comes, not how many');
  if (options.settleFailedShare !== undefined && options.settleAfterMs === undefined) throw usageError('--settle-failed-share needs --settle-after');
  const { startSandbox } = await import('../../sandbox/server.js');
  const sandbox = await startSandbox({ ...options, log: (line) => ctx.io.stderr.write(`${line}\n`) });
  const credentials = sandbox.credentials.map((c) => `  ${c.company}: client id ${c.clientId}, client secret ${c.clientSecret}`);
  // The URL goes to stdout first, on its own line, so scripts can read it.
  await writeOut(ctx.io.stdout, `listening on ${sandbox.url}\n`);
  // With --tls, the authority to trust: its file, and the line that trusts it.
  const trust = sandbox.caFile ? `NODE_EXTRA_CA_CERTS=${sandbox.caFile}` : undefined;
  if (trust) await writeOut(ctx.io.stdout, `ca file: ${sandbox.caFile}\n${trust}\n`);
  await writeOut(ctx.io.stdout, `credentials (sandbox only):\n${credentials.join('\n')}\n`);
  await ctx.output.note(`try: ${trust ? `${trust} ` : ''}PAYCTL_BASE_URL=${sandbox.url} payctl auth login --client-id acme; stop with Ctrl-C`);
  handleCtrlCInCommand();
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await sandbox.close();
  await ctx.output.note('sandbox stopped');
}
