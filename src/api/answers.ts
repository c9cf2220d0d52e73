import type { AnswerFault } from './answer-checks.js';
import { ANSWER_CHECKS, OPERATION_ROUTES, type Answers, type OperationId } from './validators.js';

export type { OperationId, ReadOperationId } from './validators.js';

/** An operation's answer as payctl reads it: `data` with the fields of needs.json checked (src/api/validators.ts's Answers). */
export interface AnswerEnvelope<Op extends OperationId> {
  data: Answers[Op];
  meta?: unknown;
  message?: unknown;
}

/**
 * Whether `body` is `operation`'s answer as payctl reads it: every field payctl
 * needs there with its type. The checks are generated from the OpenAPI document
 * and src/api/needs.json (scripts/gen-validators.mjs), with the Answers type they
 * leave; all other fields, and values outside an enumeration, pass as they came.
 * When not, `why.fault` says why, as a sentence naming the operation and the field.
 */
export function isAnswer<Op extends OperationId>(operation: Op, body: unknown, why: { fault?: string } = {}): body is AnswerEnvelope<Op> {
  const fault = ANSWER_CHECKS[operation](body);
  why.fault = fault && `${OPERATION_ROUTES[operation]} answered ${describeFault(fault)}`;
  return fault === undefined;
}

/** Why an answer to `operation` is not the API's, or undefined when it is (isAnswer). */
export function answerFault(operation: OperationId, body: unknown): string | undefined {
  const why: { fault?: string } = {};
  isAnswer(operation, body, why);
  return why.fault;
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
  if (typeof value === 'bigint') return 'an integer';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
