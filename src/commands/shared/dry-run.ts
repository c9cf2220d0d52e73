import type { RecordedRequest } from '../../http/client.js';
import type { IOStreams } from '../../iostreams.js';

/**
 * What --dry-run recorded, every write in order, on stdout, then a note on
 * stderr. The requests printed are taken out of `recorded`, so that each is
 * printed once. `asList`: the writes are a list whatever their count (a batch's
 * rows): with -o json an array, even of one or none, and none still says so.
 */
export function printDryRun(
  io: Pick<IOStreams, 'output' | 'stdout' | 'stderr'>,
  recorded: RecordedRequest[],
  scrub: (text: string) => string,
  { asList = false } = {},
): void {
  const requests = recorded.splice(0);
  if (requests.length === 0 && !asList) return;
  const asJson = (request: object) => JSON.stringify({ dryRun: true, ...request }, null, io.output.format === 'json' ? 2 : undefined);
  const text = io.output.isJson
    ? io.output.format === 'json' && (requests.length > 1 || asList)
      ? `${JSON.stringify(requests.map((request) => ({ dryRun: true, ...request })), null, 2)}\n`
      : requests.map((request) => `${asJson(request)}\n`).join('')
    : requests
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
  io.stderr.write(`dry run: nothing was sent${requests.length > 1 ? ` (${requests.length} requests recorded)` : ''}\n`);
}
