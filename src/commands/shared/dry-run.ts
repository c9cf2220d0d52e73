import type { RecordedRequest } from '../../http/client.js';
import type { IOStreams } from '../../iostreams.js';

/**
 * What --dry-run recorded, every write in order, on stdout, then a note on
 * stderr. The requests printed are taken out of `recorded`, so that each is
 * printed once. `asList`: the writes are a list whatever their count (a batch's
 * rows): with -o json an array, even of one or none, and none still says so.
 * In json modes they are the run's JSON documents, so `--jq` filters them as it
 * filters any other output.
 */
export async function printDryRun(
  io: Pick<IOStreams, 'output' | 'stdout' | 'stderr'>,
  recorded: RecordedRequest[],
  scrub: (text: string) => string,
  { asList = false } = {},
): Promise<void> {
  const requests = recorded.splice(0);
  if (requests.length === 0 && !asList) return;
  if (io.output.isJson) {
    // Scrubbed as the JSON text they are, then read back: jq and the writer see no secret.
    const dryRuns = JSON.parse(scrub(JSON.stringify(requests.map((request) => ({ dryRun: true, ...request }))))) as unknown[];
    await io.output.documents(io.output.format === 'json' && (requests.length > 1 || asList) ? [dryRuns] : dryRuns);
  } else {
    const text = requests
      .map((request) =>
        [
          `${request.method} ${request.url}`,
          ...Object.entries(request.headers).map(([name, value]) => `${name}: ${value}`),
          ...(request.body === undefined ? [] : ['', JSON.stringify(request.body, null, 2)]),
          '',
        ].join('\n'),
      )
      .join('\n');
    io.stdout.write(scrub(text));
  }
  io.stderr.write(`dry run: nothing was sent${requests.length > 1 ? ` (${requests.length} requests recorded)` : ''}\n`);
}
