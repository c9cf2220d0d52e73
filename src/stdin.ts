import type { Readable } from 'node:stream';

/** Reads all of stdin (for secrets given with --stdin flags and for `@-` data). */
export async function readAll(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString('utf8');
}

/** The first non-empty lines of stdin, trimmed: secrets are given one per line. */
export async function readLines(stream: Readable, count: number): Promise<string[]> {
  const lines = (await readAll(stream)).split(/\r?\n/).map((line) => line.trim());
  return lines.slice(0, count);
}
