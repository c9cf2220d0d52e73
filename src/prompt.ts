import { ExitCode, PayctlError, usageError } from './errors.js';
import type { Context } from './context.js';
import { visible } from './output/sanitize.js';

export interface Choice<T> {
  name: string;
  value: T;
  description?: string;
}

export type Validator = (value: string) => string | undefined;

/**
 * Interactive questions, always on stderr so stdout carries data only. Messages,
 * choices (names and descriptions) and validation errors are made visible here,
 * so a name from the API can label a choice but never draw on the screen.
 */
export interface Prompter {
  text(message: string, options?: { validate?: Validator }): Promise<string>;
  secret(message: string, options?: { validate?: Validator }): Promise<string>;
  select<T>(message: string, choices: ReadonlyArray<Choice<T>>): Promise<T>;
  confirm(message: string): Promise<boolean>;
}

export async function createPrompter(ctx: Context): Promise<Prompter> {
  const inquirer = await import('@inquirer/prompts');
  const streams = { input: ctx.io.stdin, output: ctx.io.stderr, clearPromptOnDone: false };
  const toInquirer = (validate?: Validator) =>
    validate
      ? (value: string) => {
          const problem = validate(value);
          return problem === undefined ? true : visible(problem);
        }
      : undefined;
  // `transformer` below changes only how what was typed is echoed; the value returned is untouched.
  const interruptible = async <T>(question: Promise<T>): Promise<T> => {
    try {
      return await question;
    } catch (error) {
      if ((error as Error)?.name === 'ExitPromptError' || (error as Error)?.name === 'AbortPromptError') {
        throw new PayctlError('interrupted: nothing was sent', ExitCode.interrupted);
      }
      throw error;
    }
  };
  return {
    text: (message, options = {}) =>
      interruptible(inquirer.input({ message: visible(message), transformer: (typed) => visible(typed), validate: toInquirer(options.validate) }, streams)),
    secret: (message, options = {}) =>
      interruptible(inquirer.password({ message: visible(message), mask: '*', validate: toInquirer(options.validate) }, streams)),
    select: <T>(message: string, choices: ReadonlyArray<Choice<T>>) =>
      interruptible(
        inquirer.select<T>(
          {
            message: visible(message),
            choices: choices.map((choice) => ({
              ...choice,
              name: visible(choice.name),
              description: choice.description === undefined ? undefined : visible(choice.description),
            })),
            pageSize: 12,
          },
          streams,
        ),
      ),
    confirm: (message) => interruptible(inquirer.confirm({ message: visible(message), default: false }, streams)),
  };
}

/** A required value: given by its flag, or asked for when prompting is allowed. */
export interface Requirement<T> {
  flag: string;
  value: T | undefined;
  ask: (prompter: Prompter) => Promise<T>;
}

type Resolved<R> = { [K in keyof R]: R[K] extends Requirement<infer T> ? T : never };

/**
 * Fills in missing required values. Without a terminal (or with --no-input,
 * PAYCTL_NO_INPUT=1 or CI=true) nothing is sent and every missing flag is named.
 */
export async function resolveRequired<R extends Record<string, Requirement<unknown>>>(ctx: Context, requirements: R): Promise<Resolved<R>> {
  const missing = Object.values(requirements).filter((r) => r.value === undefined);
  if (missing.length > 0 && !ctx.canPrompt) {
    throw usageError(
      `missing required ${missing.length > 1 ? 'flags' : 'flag'}: ${[...new Set(missing.map((r) => r.flag))].join(', ')}`,
      ctx.promptRefusalHint(),
    );
  }
  const result: Record<string, unknown> = {};
  for (const [key, requirement] of Object.entries(requirements)) {
    result[key] = requirement.value !== undefined ? requirement.value : await requirement.ask(await ctx.prompter());
  }
  return result as Resolved<R>;
}
