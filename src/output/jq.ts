import { ExitCode, PayctlError, usageError } from '../errors.js';
import { jsonText, visible } from './sanitize.js';

/** `--jq`: a jq expression, compiled, applied to the JSON a command would print. */
export interface JqFilter {
  /** The text jq's outputs print as, each on its own line (`jq -r`): strings raw, other values as compact JSON. */
  apply(value: unknown): string;
}

/**
 * Loads jq (a WebAssembly build of jq itself, loaded only by runs that use --jq)
 * and compiles `expression`; one that does not compile is a usage error naming it,
 * raised before anything is sent. The check runs the expression behind `empty`,
 * so it never runs; jq's message is that of the expression alone (its lines and
 * columns are the user's), which fails to compile in the same way.
 */
export async function compileJq(flag: string, expression: string, terminal: boolean): Promise<JqFilter> {
  const { loadJq } = await import('jq-wasm');
  const jq = await loadJq();
  if (keepingExitCode(() => jq.raw(null, `empty | (\n${expression}\n)`, ['-n'])).exitCode !== 0) {
    const message = jqMessage(keepingExitCode(() => jq.raw(null, expression, ['-n'])).stderr) || 'jq cannot compile it';
    throw usageError(`${flag} ${JSON.stringify(expression)} is not a valid jq expression: ${message}`, 'see the jq manual for its syntax');
  }
  const line = (value: unknown) => (typeof value === 'string' ? (terminal ? visible(value) : value) : jsonText(value));
  return {
    apply(value) {
      // jq reports a failure in its exit code and message; json() turns that into an error carrying them.
      let outputs: unknown[];
      try {
        outputs = keepingExitCode(() => jq.json(jsonText(value), expression));
      } catch (error) {
        const stderr = typeof error === 'object' && error !== null && 'stderr' in error ? String(error.stderr) : String(error);
        throw new PayctlError(jqMessage(stderr), ExitCode.localFailure);
      }
      return outputs.map((output) => `${line(output)}\n`).join('');
    },
  };
}

/** Runs jq, which sets process.exitCode (to 0 when it was unset) as a program run would: payctl's own is left as it was. */
function keepingExitCode<T>(run: () => T): T {
  const before = process.exitCode;
  try {
    return run();
  } finally {
    process.exitCode = before;
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
