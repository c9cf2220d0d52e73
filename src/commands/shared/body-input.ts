import { BRAZILIAN_STATES } from '../../api/types.js';
import type { Context } from '../../context.js';
import { usageError } from '../../errors.js';
import { askParsed, refuseMissingUnlessAsking } from '../../prompt.js';
import { readJsonFile } from '../../stdin.js';
import { fieldFlag, parserOf, type BodyField } from './body-fields.js';

export type Body = Record<string, unknown>;

/** Reads the file `flag` names (`--from-file FILE`, or `-` for stdin): a JSON object in the API's shape. */
export async function readBodyFile({ io }: Context, flag: string, file: string): Promise<Body> {
  const parsed = await readJsonFile(io.stdin, file, `${flag} ${file}`);
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw usageError(`${flag} ${file}: must hold one JSON object, the request body`);
  return { ...parsed };
}

export function getAt(body: unknown, path: string): unknown {
  let current = body;
  for (const key of path.split('.')) {
    if (current === null || typeof current !== 'object') return undefined;
    current = Reflect.get(current, key);
  }
  return current;
}

function setAt(body: Body, path: string, value: unknown): void {
  const keys = path.split('.');
  const leaf = keys.pop() ?? path;
  let target: object = body;
  keys.forEach((key, i) => {
    const nextIsIndex = /^\d+$/.test(keys[i + 1] ?? leaf);
    const next: unknown = Reflect.get(target, key);
    if (next !== null && typeof next === 'object') target = next;
    else {
      const made = nextIsIndex ? [] : {};
      Reflect.set(target, key, made);
      target = made;
    }
  });
  Reflect.set(target, leaf, value);
}

/** A file value as the text a flag would carry (a CEP integer has lost its leading zeros). */
function fileText(field: BodyField, value: unknown): string {
  if (field.kind === 'cep' && typeof value === 'number') return String(value).padStart(8, '0');
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** A body path with its array indices as `#`: `addresses.1.zipcode` has the shape `addresses.#.zipcode`. */
const pathShape = (path: string) => path.replace(/(^|\.)\d+(?=\.|$)/g, '$1#');

/**
 * Refuses what a body file holds beyond the command's fields (a misspelt or unknown
 * name, a null, a value where an object or a list goes), which would otherwise be
 * sent as it is for the API to refuse.
 */
function checkFileShape(fields: readonly BodyField[], base: Body, source: string): void {
  const leaves = new Set(fields.map((field) => pathShape(field.path)));
  /** each object or list of the body's shape → the names it holds ('#' for a list's items) */
  const containers = new Map<string, Set<string>>([['', new Set()]]);
  for (const leaf of leaves) {
    const parts = leaf.split('.');
    parts.forEach((name, i) => {
      const parent = parts.slice(0, i).join('.');
      const names = containers.get(parent) ?? new Set<string>();
      containers.set(parent, names.add(name));
    });
  }
  const walk = (value: unknown, path: string, shape: string): void => {
    if (leaves.has(shape)) {
      if (value === null) throw usageError(`${source}: ${path} is null: give it a value or leave it out`);
      return;
    }
    const names = containers.get(shape);
    if (!names) {
      const parent = shape.slice(0, Math.max(0, shape.lastIndexOf('.')));
      const known = [...(containers.get(parent) ?? [])].join(', ');
      throw usageError(`${source}: unknown field ${path}; the fields there are ${known}`);
    }
    const isList = names.has('#');
    if (value === null || typeof value !== 'object' || Array.isArray(value) !== isList) {
      throw usageError(`${source}: ${path} must be ${isList ? 'a list' : 'an object'}`);
    }
    for (const [key, child] of Object.entries(value)) {
      walk(child, path ? `${path}.${key}` : key, pathShape(shape ? `${shape}.${key}` : key));
    }
  };
  walk(base, '', '');
}

export interface BodyInput {
  /** Values from the body file, in the API's shape. */
  base?: Body;
  /** Names the file in messages about its values. */
  source?: string;
}

/**
 * Builds a request body from the flags' values (parsed already) over the file's,
 * each file value through the same parser as its flag. Returns the body and the
 * required fields still missing (for `resolveMissingFields`).
 */
export function collectBody<F extends readonly BodyField[]>(
  fields: F,
  given: { readonly [K in F[number]['key']]: unknown },
  input: BodyInput = {},
): { body: Body; missing: BodyField[] } {
  if (input.base) checkFileShape(fields, input.base, input.source ?? 'file');
  const body: Body = structuredClone(input.base ?? {});
  const missing: BodyField[] = [];
  for (const field of fields) {
    const flagValue = given[field.key as F[number]['key']];
    const fileValue = getAt(body, field.path);
    if (flagValue !== undefined) setAt(body, field.path, flagValue);
    else if (fileValue !== undefined) setAt(body, field.path, parserOf(field)(`${input.source ?? 'file'}: ${field.path}`, fileText(field, fileValue)));
    else if (field.default !== undefined) setAt(body, field.path, field.default);
    else if (field.required) missing.push(field);
  }
  return { body, missing };
}

/**
 * Fills in missing fields: at a terminal a wizard asks them section by section
 * (pick lists for enumerations), each answer through its flag's parser;
 * otherwise nothing is sent and every missing flag is named.
 */
export async function resolveMissingFields({ io, services }: Context, body: Body, missing: readonly BodyField[], reason?: string): Promise<void> {
  refuseMissingUnlessAsking(io, missing.map(fieldFlag), reason);
  if (missing.length === 0) return;
  if (reason) io.stderr.write(`${reason}\n`);
  const prompter = await services.prompter();
  let section = '';
  for (const field of missing) {
    if (field.section !== section) {
      section = field.section;
      io.stderr.write(`\n${section}\n`);
    }
    const parse = parserOf(field);
    const choices = field.choices ?? (field.kind === 'uf' ? BRAZILIAN_STATES : undefined);
    const value = choices
      ? parse(fieldFlag(field), await prompter.select(field.label, choices.map((choice) => ({ name: choice, value: choice }))))
      : await askParsed(prompter, 'text', field.label, parse, fieldFlag(field));
    setAt(body, field.path, value);
  }
}
