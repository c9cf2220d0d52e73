import { ExitCode, PayctlError, usageError } from '../errors.js';
import { jsonText, visible } from './sanitize.js';

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
 * columns are the user's), which fails to compile in the same way.
 */
export async function compileJq(flag: string, expression: string, terminal: boolean): Promise<JqFilter> {
  const { loadJq, JqError } = await import('jq-wasm');
  const jq = await loadJq();
  if (keepingExitCode(() => jq.raw(null, `empty | (\n${expression}\n)`, ['-n'])).exitCode !== 0) {
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
        outputs = keepingExitCode(() => jq.json(input, expression));
      } catch (error) {
        // jq reports a failure in its exit code and message, which json() throws as a JqError carrying them.
        if (error instanceof JqError) throw new PayctlError(jqMessage(error.stderr), ExitCode.localFailure);
        // jq's WebAssembly memory is capped (256 MB): a document of tens of MB can exhaust it.
        throw new PayctlError(
          `${flag}: jq ran out of memory on ${(Buffer.byteLength(input) / 1e6).toFixed(1)} MB of JSON (its memory is 256 MB)`,
          ExitCode.localFailure,
          { hint: 'filter item by item with -o ndjson, or pipe --json into a jq program' },
        );
      }
      return outputs.map((output) => `${line(output)}\n`).join('');
    },
  };
}

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
