/** Reading request bodies and writing JSON answers, defensively: the input is never trusted. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError } from './errors.js';

export const MAX_BODY_BYTES = 1024 * 1024;

/**
 * The raw body, at most MAX_BODY_BYTES. Past the limit (declared or actual) it
 * stops collecting and rejects at once; the caller answers 413 and closes the
 * connection instead of reading the rest.
 */
export function readBody(req: IncomingMessage): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (declared > MAX_BODY_BYTES) return Promise.reject(new ApiError('bodyTooLarge'));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        req.off('data', onData);
        reject(new ApiError('bodyTooLarge'));
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.on('end', () => resolve(Buffer.concat(chunks, size)));
    req.on('error', reject);
  });
}

const JSON_CONTENT_TYPE = /^application\/json\s*(;|$)/i;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The parsed JSON of a body, or undefined when it is empty. JSON.parse never
 * touches prototypes (a "__proto__" key becomes an own property, which the
 * schemas' additionalProperties: false then refuses), and decoding is strict
 * UTF-8 so malformed bytes are refused instead of becoming U+FFFD.
 */
export function parseJsonBody(raw: Buffer, contentType: string | undefined): unknown {
  if (raw.length === 0) return undefined;
  if (!contentType || !JSON_CONTENT_TYPE.test(contentType))
    throw new ApiError('unsupportedMediaType', 'a body must be sent with Content-Type: application/json');
  let text: string;
  try {
    text = utf8.decode(raw);
  } catch {
    throw new ApiError('malformedJson', 'body is not valid UTF-8');
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    const reason = error instanceof RangeError ? 'nested too deeply' : 'not valid JSON';
    throw new ApiError('malformedJson', `body is ${reason}`);
  }
}

/** The UTF-8 JSON of `body`; a Buffer body is JSON already encoded (see listCustomers), kept as is. */
export const jsonBytes = (body: unknown): Buffer => (Buffer.isBuffer(body) ? body : Buffer.from(JSON.stringify(body), 'utf8'));

/** Writes a JSON answer; its length and the bytes written come from the same buffer. */
export function sendJson(res: ServerResponse, status: number, bytes: Buffer, headers: Record<string, string> = {}): void {
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(bytes.length),
    ...headers,
  });
  res.end(bytes);
}
