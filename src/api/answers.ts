import type { AnswerFault } from './answer-checks.js';
import { ANSWER_CHECKS, OPERATION_ROUTES, type OperationId } from './validators.js';

export type { OperationId } from './validators.js';

/**
 * Why an answer to `operation` is not the API's, as a sentence naming the
 * operation and the field, or undefined when every field payctl needs is there
 * with its type. The checks are generated from the OpenAPI document and
 * src/api/needs.json (scripts/gen-validators.mjs); all other fields, and values
 * outside an enumeration, pass as they came.
 */
export function answerFault(operation: OperationId, body: unknown): string | undefined {
  const fault = ANSWER_CHECKS[operation](body);
  return fault && `${OPERATION_ROUTES[operation]} answered ${describeFault(fault)}`;
}

function describeFault({ field, expected, found }: AnswerFault): string {
  if (field === '') return `with ${kindOf(found, expected)} instead of an object holding data`;
  if (found === undefined) return `without ${field} (${expected})`;
  return `with ${field} ${found === null ? 'null' : `as ${kindOf(found, expected)}`}, not ${expected}`;
}

/** The JSON type of a value, as a message names it. */
function kindOf(value: unknown, expected: string): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number') return !Number.isInteger(value) && expected.includes('integer') ? 'a number with decimals' : 'a number';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
