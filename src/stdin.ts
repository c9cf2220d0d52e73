import { readFile } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { usageError } from './errors.js';
import { jsonErrorMessage } from './redact.js';

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

/**
 * JSON the user hands over in a file, or on stdin for `-`. Unreadable or invalid
 * input is a usage error naming `source` (the flag as typed, e.g. `--data @body.json`).
 */
export async function readJsonFile(stdin: Readable, file: string, source: string): Promise<unknown> {
  let text: string;
  try {
    text = file === '-' ? await readAll(stdin) : await readFile(file, 'utf8');
  } catch (error) {
    throw usageError(`${source}: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  return parseJson(text, source);
}

export function parseJson(text: string, source: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw usageError(`${source} is not valid JSON: ${jsonErrorMessage(error)}`);
  }
}
