import { readFileSync } from 'node:fs';
import { ExitCode, PayctlError, usageError } from '../errors.js';
import { environmentShown } from '../redact.js';
import { jsonText, visible } from './sanitize.js';

/**
 * jq's memory, in 64 KiB WebAssembly pages: 2 GiB less a page, the most a 32-bit
 * build addresses with signed pointers. jq holds a document as about 12 times its
 * JSON text, so 100,000 customers (46 MB) need some 600 MB.
 */
const JQ_MEMORY_PAGES = 32_767;
const JQ_MEMORY_BYTES = JQ_MEMORY_PAGES * 65_536;

/** `--jq`: a jq expression, compiled, applied to the JSON documents a command would print. */
export interface JqFilter {
  /**
   * The text jq's outputs for these documents print as, each on its own line (`jq -r`):
   * strings raw, other values as compact JSON. The documents go to jq in one run, as
   * `jq` reads a stream of them: each run of jq costs some milliseconds of its own.
   */
  apply(documents: readonly unknown[]): string;
}

/**
 * Loads jq (a WebAssembly build of jq itself, loaded only by runs that use --jq)
 * and compiles `expression`; one that does not compile is a usage error naming it,
 * raised before anything is sent. The check runs the expression behind `empty`,
 * so it never runs; jq's message is that of the expression alone (its lines and
 * columns are the user's), which fails to compile in the same way. `env` is what
 * `$ENV` and `env` read in the expression.
 */
export async function compileJq(flag: string, expression: string, terminal: boolean, env: NodeJS.ProcessEnv): Promise<JqFilter> {
  const [{ loadJq, JqError }, { jqWasmFile }] = await Promise.all([import('jq-wasm'), import('./jq-wasm-file.js')]);
  const jq = await loadJq({ wasmBinary: withMemory(readFileSync(jqWasmFile()), JQ_MEMORY_PAGES) });
  const program = withEnvironment(expression, env);
  if (keepingExitCode(() => jq.raw(null, `empty | (\n${program}\n)`, ['-n'])).exitCode !== 0) {
    const message = jqMessage(keepingExitCode(() => jq.raw(null, expression, ['-n'])).stderr) || 'jq cannot compile it';
    throw usageError(`${flag} ${JSON.stringify(expression)} is not a valid jq expression: ${message}`, 'see the jq manual for its syntax');
  }
  const line = (value: unknown) => (typeof value === 'string' ? (terminal ? visible(value) : value) : jsonText(value));
  return {
    apply(documents) {
      if (documents.length === 0) return '';
      const input = documents.map((document) => jsonText(document)).join('\n');
      let outputs: unknown[];
      try {
        outputs = keepingExitCode(() => jq.json(input, program));
      } catch (error) {
        // jq reports a failure in its exit code and message, which json() throws as a JqError carrying them.
        // It runs on what a command printed, so the command did its work: a script must not take a
        // withdrawal made for one refused, nor make it again.
        if (error instanceof JqError) throw new PayctlError(`${flag} failed on the output of a command that succeeded: ${jqMessage(error.stderr)}`, ExitCode.localFailure);
        // jq's WebAssembly memory is bounded: a document of some hundreds of MB exhausts it.
        throw new PayctlError(
          `${flag}: jq ran out of memory on ${(Buffer.byteLength(input) / 1e6).toFixed(1)} MB of JSON (its memory is ${(JQ_MEMORY_BYTES / 2 ** 30).toFixed(0)} GiB)`,
          ExitCode.localFailure,
          { hint: 'filter item by item with -o ndjson, or pipe --json into a jq program' },
        );
      }
      return outputs.map((output) => `${line(output)}\n`).join('');
    },
  };
}

/**
 * The expression with `$ENV` and `env` bound to the run's environment, as gh's
 * --jq and jq itself have them: jq's WebAssembly runtime has an environment of its
 * own (`HOME=/home/web_user`), in which `env.EMAIL` would be null. The
 * expression starts on the first line, so jq's `$__loc__` is the user's.
 */
const withEnvironment = (expression: string, env: NodeJS.ProcessEnv) =>
  // A JSON object is a jq literal; given so, not with --argjson, it leaves $ARGS as the user's.
  `${JSON.stringify(environmentShown(env))} as $ENV | def env: $ENV; (${expression}\n)`;

/**
 * Runs jq, which sets process.exitCode (to 0 when it was unset) as a program run
 * would, and whose runtime writes `Aborted()` with console.error when it runs out of
 * memory: payctl's exit code is left as it was, and its stderr holds only its own report.
 */
function keepingExitCode<T>(run: () => T): T {
  const [before, consoleError] = [process.exitCode, console.error];
  console.error = () => undefined;
  try {
    return run();
  } finally {
    process.exitCode = before;
    console.error = consoleError;
  }
}

/** jq's message as jq itself says it (input `<stdin>`), without its closing count line (`jq: 1 compile error`). */
const jqMessage = (stderr: string) =>
  stderr
    .replaceAll('/dev/stdin', '<stdin>')
    .split('\n')
    .filter((text) => !/^jq: \d+ compile errors?$/.test(text))
    .join('\n')
    .trim();

/**
 * jq.wasm with its memory set to `pages` from the start. jq-wasm's build declares at
 * most 256 MB, and its runtime refuses to grow past that, so a list of about 50,000
 * customers ran jq out of memory: the memory section (id 5) is rewritten with both
 * limits at `pages`. The pages are reserved, not used: the system gives them as jq
 * writes to them.
 */
export function withMemory(wasm: Uint8Array, pages: number): Uint8Array {
  const sections: Uint8Array[] = [wasm.subarray(0, 8)];
  let at = 8;
  const readUnsigned = () => {
    let [value, shift, byte] = [0, 0, 0x80];
    while (byte & 0x80) {
      byte = wasm[at++] ?? 0;
      value += (byte & 0x7f) * 2 ** shift;
      shift += 7;
    }
    return value;
  };
  while (at < wasm.length) {
    const start = at;
    const id = wasm[at++];
    const end = readUnsigned() + at;
    if (id === 5) {
      const memories = readUnsigned();
      const body = [...unsignedBytes(memories)];
      for (let i = 0; i < memories; i++) {
        const limits = wasm[at++] ?? 0;
        readUnsigned();
        if (limits & 1) readUnsigned();
        body.push(limits | 1, ...unsignedBytes(pages), ...unsignedBytes(pages));
      }
      sections.push(Uint8Array.from([5, ...unsignedBytes(body.length), ...body]));
    } else {
      sections.push(wasm.subarray(start, end));
    }
    at = end;
  }
  return Buffer.concat(sections);
}

/** `value` as WebAssembly writes numbers: unsigned LEB128. */
function unsignedBytes(value: number): number[] {
  const bytes: number[] = [];
  do {
    const low = value % 128;
    value = Math.floor(value / 128);
    bytes.push(value > 0 ? low | 0x80 : low);
  } while (value > 0);
  return bytes;
}
