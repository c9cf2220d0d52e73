import { BRAZILIAN_STATES } from '../../api/types.js';
import type { Context } from '../../context.js';
import { usageError } from '../../errors.js';
import { readJsonFile } from '../../stdin.js';
import {
  asPromptCheck,
  parseAccountNumber,
  parseApiPhone,
  parseBankCode,
  parseBirthdate,
  parseCep,
  parseChoice,
  parseCnpj,
  parseCpf,
  parseDocument,
  parseEmail,
  parseNonEmpty,
  parseReaisNumber,
  parseRoutingNumber,
  parseStreetNumber,
  parseUf,
  type Parser,
} from '../../validate.js';
import { optString } from '../spec.js';
import { optionKey, type BodyField } from './body-fields.js';

type Body = Record<string, unknown>;

function parserOf(field: BodyField): Parser<unknown> {
  switch (field.kind) {
    case 'text':
      return (flag, raw) => parseNonEmpty(flag, raw, field.max);
    case 'email':
      return parseEmail;
    case 'cpf':
      return parseCpf;
    case 'cnpj':
      return parseCnpj;
    case 'document':
      return parseDocument;
    case 'birthdate':
      return parseBirthdate;
    case 'phone':
      return parseApiPhone;
    case 'cep':
      return parseCep;
    case 'uf':
      return parseUf;
    case 'streetNumber':
      return parseStreetNumber;
    case 'reais':
      return parseReaisNumber;
    case 'bankCode':
      return parseBankCode;
    case 'accountNumber':
      return parseAccountNumber;
    case 'routingNumber':
      return parseRoutingNumber;
    case 'choice':
      return (flag, raw) => parseChoice(flag, raw, field.choices ?? []);
  }
}

/** Reads `--from-file FILE` (or `-` for stdin): a JSON object in the API's shape. */
export async function readBodyFile(ctx: Context, file: string): Promise<Body> {
  const parsed = await readJsonFile(ctx.io.stdin, file, `--from-file ${file}`);
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw usageError(`--from-file ${file}: must hold one JSON object, the request body`);
  return parsed as Body;
}

function getAt(body: unknown, path: string): unknown {
  let current = body;
  for (const key of path.split('.')) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

function setAt(body: Body, path: string, value: unknown): void {
  const keys = path.split('.');
  let target: Record<string, unknown> = body;
  keys.slice(0, -1).forEach((key, i) => {
    const nextIsIndex = /^\d+$/.test(keys[i + 1]!);
    if (target[key] === null || typeof target[key] !== 'object') target[key] = nextIsIndex ? [] : {};
    target = target[key] as Record<string, unknown>;
  });
  target[keys[keys.length - 1]!] = value;
}

/** A file value as the text a flag would carry (a CEP integer has lost its leading zeros). */
function fileText(field: BodyField, value: unknown): string {
  if (field.kind === 'cep' && typeof value === 'number') return String(value).padStart(8, '0');
  return typeof value === 'string' ? value : JSON.stringify(value);
}

export interface BodyInput {
  /** Values from `--from-file`, in the API's shape. */
  base?: Body;
  /** Names the file in messages about its values. */
  source?: string;
}

/**
 * Builds a request body from flags over the file's values, every value through
 * the same validator as its flag. Returns the body and the required fields
 * still missing (for `resolveMissingFields`).
 */
export function collectBody(fields: readonly BodyField[], opts: Record<string, unknown>, input: BodyInput = {}): { body: Body; missing: BodyField[] } {
  const body: Body = structuredClone(input.base ?? {});
  const missing: BodyField[] = [];
  for (const field of fields) {
    const flagValue = optString(opts, optionKey(field.flag));
    const fileValue = getAt(body, field.path);
    if (flagValue !== undefined) setAt(body, field.path, parserOf(field)(field.flag, flagValue));
    else if (fileValue !== undefined && fileValue !== null) setAt(body, field.path, parserOf(field)(`${input.source ?? 'file'}: ${field.path}`, fileText(field, fileValue)));
    else if (field.default !== undefined) setAt(body, field.path, field.default);
    else if (field.required) missing.push(field);
  }
  return { body, missing };
}

/**
 * Fills in missing fields: at a terminal a wizard asks them section by section
 * (pick lists for enumerations); otherwise nothing is sent and every missing
 * flag is named.
 */
export async function resolveMissingFields(ctx: Context, body: Body, missing: readonly BodyField[], reason?: string): Promise<void> {
  if (missing.length === 0) return;
  if (!ctx.canPrompt) {
    const list = `missing required ${missing.length > 1 ? 'flags' : 'flag'}: ${missing.map((f) => f.flag).join(', ')}`;
    throw usageError(reason ? `${reason}: ${list}` : list, ctx.promptRefusalHint());
  }
  if (reason) ctx.io.stderr.write(`${reason}\n`);
  const prompter = await ctx.prompter();
  let section = '';
  for (const field of missing) {
    if (field.section !== section) {
      section = field.section;
      ctx.io.stderr.write(`\n${section}\n`);
    }
    const parse = parserOf(field);
    const choices = field.choices ?? (field.kind === 'uf' ? BRAZILIAN_STATES : undefined);
    const raw = choices
      ? await prompter.select(field.label, choices.map((value) => ({ name: value, value })))
      : await prompter.text(field.label, { validate: asPromptCheck(parse, field.flag) });
    setAt(body, field.path, parse(field.flag, raw));
  }
}
