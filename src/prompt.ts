import { styleText } from 'node:util';
import { ExitCode, PayctlError, usageError } from './errors.js';
import type { IOStreams } from './iostreams.js';
import { visible } from './output/sanitize.js';
import { asPromptCheck, type Parser } from './validation/flags.js';
import { foldForSearch } from './validation/rules.js';

export interface Choice<T> {
  name: string;
  value: T;
  description?: string;
  /** Shown whatever is typed in a searchable list ("type an id", "search again"). */
  always?: boolean;
}

export type Validator = (value: string) => string | undefined;

/**
 * Interactive questions, on stderr so stdout carries data only (on stdout's terminal when stderr is not one). Messages,
 * choices (names and descriptions) and validation errors are made visible here,
 * so a name from the API can label a choice but never draw on the screen.
 */
export interface Prompter {
  text(message: string, options?: { validate?: Validator }): Promise<string>;
  secret(message: string, options?: { validate?: Validator }): Promise<string>;
  /** A pick list, each entry one line fitted to the terminal; searchable by typing when longer than a screenful. */
  select<T>(message: string, choices: ReadonlyArray<Choice<T>>): Promise<T>;
  confirm(message: string): Promise<boolean>;
}

/** Entries shown at once; a longer list is searchable. */
const PAGE_SIZE = 12;

/** Whether a choice matches what was typed: every word, in its name or description, ignoring case and accents. */
export function matchesTyped(choice: Choice<unknown>, typed: string | undefined): boolean {
  const words = foldForSearch(typed ?? '').split(/\s+/).filter(Boolean);
  if (choice.always || words.length === 0) return true;
  const text = foldForSearch(`${choice.name} ${choice.description ?? ''}`);
  return words.every((word) => text.includes(word));
}

/** inquirer's line of keys under a list, as it draws it: `↑↓ navigate • ⏎ select`. */
const helpLine = (keys: ReadonlyArray<[string, string]>) =>
  keys.map(([key, action]) => `${styleText('bold', key)} ${styleText('dim', action)}`).join(styleText('dim', ' • '));

/** Questions on the run's streams, given up when the run is interrupted (`io.signal`). */
export async function createPrompter(io: IOStreams): Promise<Prompter> {
  const [inquirer, { fitLine, inquirerWidth }] = await Promise.all([import('@inquirer/prompts'), import('./output/width.js')]);
  const context = { input: io.stdin, output: io.promptStream, clearPromptOnDone: false, signal: io.signal };
  // inquirer draws "❯ " before an entry, and some terminals wrap a line that reaches the last column.
  const entryWidth = Math.max(10, io.output.options.width - 3);
  const toInquirer = (validate?: Validator) =>
    validate
      ? (value: string) => {
          const problem = validate(value);
          return problem === undefined ? true : visible(problem);
        }
      : undefined;
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
  // Fitted as inquirer counts too: a line it finds too wide, it breaks itself, by code point.
  const shown = <T>(choice: Choice<T>) => ({
    value: choice.value,
    name: fitLine(visible(choice.name), entryWidth, inquirerWidth),
    description: choice.description === undefined ? undefined : fitLine(visible(choice.description), entryWidth, inquirerWidth),
  });
  // `transformer` below changes only how what was typed is echoed; the value returned is untouched.
  return {
    text: (message, options = {}) =>
      interruptible(inquirer.input({ message: visible(message), transformer: (typed) => visible(typed), validate: toInquirer(options.validate) }, context)),
    secret: (message, options = {}) =>
      interruptible(inquirer.password({ message: visible(message), mask: '*', validate: toInquirer(options.validate) }, context)),
    select: <T>(message: string, choices: ReadonlyArray<Choice<T>>) =>
      interruptible(
        choices.length > PAGE_SIZE
          ? inquirer.search<T>(
              {
                message: visible(message),
                source: (typed) => choices.filter((choice) => matchesTyped(choice, typed)).map(shown),
                pageSize: PAGE_SIZE,
                // The line under the list says that typing narrows it.
                theme: { style: { keysHelpTip: (keys: Array<[string, string]>) => helpLine([...keys, ['type', 'to search']]) } },
              },
              context,
            )
          : inquirer.select<T>({ message: visible(message), choices: choices.map(shown), pageSize: PAGE_SIZE }, context),
      ),
    confirm: (message) => interruptible(inquirer.confirm({ message: visible(message), default: false }, context)),
  };
}

/** A required value: given by its flag (or argument), or asked for when prompting is allowed. */
export interface Requirement<T> {
  /** The flag as typed (`--amount`), or the argument as messages name it (`ID`). */
  flag: string;
  /** An argument of the command line, not a flag: picked from a list when missing. */
  argument?: boolean;
  value: T | undefined;
  ask: (prompter: Prompter) => Promise<T>;
}

/**
 * Questions about one flag's value. What is typed is checked as it is typed by
 * the flag's parser (or `check`, where the rule depends on another answer); the
 * caller parses the answer with the flag's parser too, so a prompted value is
 * held to the same rule as a flag.
 */
export interface FieldPrompt {
  readonly flag: string;
  text(message: string, check?: Parser<unknown>): Promise<string>;
  secret(message: string, check?: Parser<unknown>): Promise<string>;
  select<T>(message: string, choices: ReadonlyArray<Choice<T>>): Promise<T>;
}

export function fieldPrompt(prompter: Prompter, flag: string, parse: Parser<unknown>): FieldPrompt {
  const validate = (check: Parser<unknown> = parse) => ({ validate: asPromptCheck(check, flag) });
  return {
    flag,
    text: (message, check) => prompter.text(message, validate(check)),
    secret: (message, check) => prompter.secret(message, validate(check)),
    select: (message, choices) => prompter.select(message, choices),
  };
}

/** Asks for a value that is no option's (a secret read from stdin otherwise), checked and parsed by `parse`. */
export async function askParsed<T>(prompter: Prompter, kind: 'text' | 'secret', message: string, parse: Parser<T>, label: string): Promise<T> {
  return parse(label, await prompter[kind](message, { validate: asPromptCheck(parse, label) }));
}

type Resolved<R> = { [K in keyof R]: R[K] extends Requirement<infer T> ? T : never };

/**
 * Refuses missing values when prompting is not allowed (no terminal, --no-input,
 * PAYCTL_NO_INPUT=1 or CI=true): nothing is sent and every missing argument and flag is named.
 */
export function refuseMissingUnlessAsking(io: IOStreams, flags: readonly string[], reason?: string, args: readonly string[] = []): void {
  if ((flags.length === 0 && args.length === 0) || io.canPrompt) return;
  const unique = (names: readonly string[]) => [...new Set(names)];
  const missing = [
    ...(args.length > 0 ? [`missing required ${args.length > 1 ? 'arguments' : 'argument'} ${unique(args).join(', ')}`] : []),
    ...(flags.length > 0 ? [`missing required ${flags.length > 1 ? 'flags' : 'flag'}: ${unique(flags).join(', ')}`] : []),
  ].join('; ');
  const what = args.length === 0 ? 'the flags' : `the ${unique(args).join(' and ')}${flags.length > 0 ? ' and the flags' : ''}`;
  throw usageError(reason ? `${reason}: ${missing}` : missing, io.promptRefusalHint(what, args.length > 0 ? 'to pick from a list' : 'to be asked'));
}

/**
 * Fills in missing required values, in order (so an answer can shape the next question).
 * When they are refused for want of a terminal, `unconfirmed` (the `--yes` of a command
 * that confirms, not given) is named with them, so the next run has everything it needs.
 */
export async function resolveRequired<R extends Record<string, Requirement<unknown>>>(
  { io, services, unconfirmed }: { readonly io: IOStreams; readonly services: { prompter(): Promise<Prompter> }; readonly unconfirmed?: string },
  requirements: R,
): Promise<Resolved<R>> {
  const missing = Object.values(requirements).filter((r) => r.value === undefined);
  const args = missing.filter((r) => r.argument).map((r) => r.flag);
  const flags = missing.filter((r) => !r.argument).map((r) => r.flag);
  refuseMissingUnlessAsking(io, missing.length > 0 && unconfirmed ? [...flags, unconfirmed] : flags, undefined, args);
  const result: Record<string, unknown> = {};
  for (const [key, requirement] of Object.entries(requirements)) {
    result[key] = requirement.value !== undefined ? requirement.value : await requirement.ask(await services.prompter());
  }
  return result as Resolved<R>;
}
