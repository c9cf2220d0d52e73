import { usageError } from '../errors.js';
import { isUuid } from './rules.js';
import { clip } from '../text.js';
import type { Parser } from './flags.js';

/**
 * Ids as people type them: whole, or by the first characters a narrow table showed
 * (src/config/shown-ids.ts finds the one id they stand for). Here, in the base layer, so
 * that the global `--subaccount` takes them as every id argument does.
 */

/** A prefix shorter than what a table shows would name several ids too often to be worth remembering which. */
export const MIN_PREFIX = 8;
/** How a prefix must look: the start of a UUID, dashes where a UUID has them. */
const UUID_SHAPE = 'xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx';

/** Whether `text` (lower case) is the first 8 characters or more of a UUID, not all of it. */
export const isPrefixOfUuid = (text: string) =>
  text.length >= MIN_PREFIX && text.length < UUID_SHAPE.length && [...text].every((char, i) => (UUID_SHAPE[i] === '-' ? char === '-' : /[0-9a-f]/.test(char)));

/**
 * An id as typed: a UUID, or its first 8 characters or more (resolved against the
 * ids payctl has shown before the command runs). Lower case, as the API writes ids.
 */
export const parseId: Parser<string> = (flag, raw) => {
  const text = raw.trim().toLowerCase();
  if (isUuid(text) || isPrefixOfUuid(text)) return text;
  throw usageError(
    `${flag} ${JSON.stringify(clip(raw))} is invalid: must be a UUID such as 3f2b8c1e-0d4a-4b6e-9a7c-2e5d1f0a9b3c, ` +
      `or its first ${MIN_PREFIX} characters or more as a table showed them`,
  );
};

/** Whether a value `parseId` returned stands for an id still to be found. */
export const isIdPrefix = (value: string) => !isUuid(value);
