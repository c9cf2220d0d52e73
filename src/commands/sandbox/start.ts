import { createWriteStream, type WriteStream } from 'node:fs';
import { usageError } from '../../errors.js';
import { writeOut } from '../../output/format.js';
import type { Invocation } from '../spec.js';
import type { sandboxStart } from './index.js';

/** Serves until Ctrl-C (or SIGTERM), then closes the sandbox and returns: the run ends with 0. */
export async function run({ io, opts, flag }: Invocation<typeof sandboxStart>): Promise<void> {
  if (opts.failAfterWrite && opts.failRate === undefined) throw usageError(`${flag('failAfterWrite')} needs ${flag('failRate')}: it says when a failure comes, not how many`);
  if (opts.settleFailedShare !== undefined && opts.settleAfter === undefined) throw usageError(`${flag('settleFailedShare')} needs ${flag('settleAfter')}`);
  const logFile = opts.log === undefined ? undefined : await openForAppending(opts.log, flag('log'));
  const logTo = logFile ?? io.stderr;
  const log = opts.quiet ? () => undefined : (line: string) => void logTo.write(`${line}\n`);
  const { startSandbox } = await import('../../sandbox/server.js');
  const sandbox = await startSandbox({
    port: opts.port ?? 4010,
    host: opts.host,
    seed: opts.seed,
    customers: opts.customers,
    dataFile: opts.data,
    latencyMs: opts.latency,
    rateLimit: opts.rateLimit,
    failureRate: opts.failRate,
    failAfterWrite: opts.failAfterWrite,
    settleAfterMs: opts.settleAfter,
    settleFailedShare: opts.settleFailedShare,
    maxConnections: opts.maxConnections,
    tls: opts.tls,
    log,
  });
  const credentials = sandbox.credentials.map((c) => `  ${c.company}: client id ${c.clientId}, client secret ${c.clientSecret}`);
  // The URL goes to stdout first, on its own line, so scripts can read it.
  await writeOut(io.stdout, `listening on ${sandbox.url}\n`);
  // With --tls, the authority to trust: its file, and the line that trusts it.
  const trust = sandbox.caFile ? `NODE_EXTRA_CA_CERTS=${sandbox.caFile}` : undefined;
  if (trust) await writeOut(io.stdout, `ca file: ${sandbox.caFile}\n${trust}\n`);
  await writeOut(io.stdout, `credentials (sandbox only):\n${credentials.join('\n')}\n`);
  await io.output.note(`try: ${trust ? `${trust} ` : ''}PAYCTL_BASE_URL=${sandbox.url} payctl auth login --client-id acme; stop with Ctrl-C`);
  await new Promise<void>((resolve) => {
    const release = io.interrupts.takeOver(() => {
      release();
      resolve();
    });
  });
  await sandbox.close();
  if (logFile) await new Promise((resolve) => logFile.end(resolve));
  await io.output.note('sandbox stopped');
}

/** `file` opened for appending (made 0600) before the sandbox starts, so a path that cannot be written is a usage error. */
async function openForAppending(file: string, flag: string): Promise<WriteStream> {
  const stream = createWriteStream(file, { flags: 'a', mode: 0o600 });
  await new Promise<void>((resolve, reject) => {
    stream.once('open', () => resolve());
    stream.once('error', (error: NodeJS.ErrnoException) => reject(usageError(`${flag} ${file}: cannot write it (${error.code ?? error.message})`)));
  });
  return stream;
}
