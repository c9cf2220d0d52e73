#!/usr/bin/env node
// Generates src/api/validators.ts: one plain function per operation of
// openapi/payctl-api.json that reads a success answer for the fields payctl needs
// (src/api/needs.json), with the types the document gives them. Run by the build;
// nothing compiles a schema at run time.
//
//   node scripts/gen-validators.mjs          write src/api/validators.ts (when it changed)
//   node scripts/gen-validators.mjs --check  exit 1 when src/api/validators.ts is out of date
//
// A needed field that is missing (unless marked `?`) or of another type than the
// document's is reported as the answer's fault; every other field, unknown fields
// and unknown enumeration values pass untouched, as the contract asks.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const DOCUMENT_PATH = `${root}openapi/payctl-api.json`;
const NEEDS_PATH = `${root}src/api/needs.json`;
const OUTPUT_PATH = `${root}src/api/validators.ts`;

const METHODS = ['get', 'post', 'put', 'delete', 'patch'];

/** The document's operations, each with its success answer's schema. */
function operationsOf(document) {
  const operations = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const success = Object.keys(operation.responses).find((status) => /^2\d\d$/.test(status));
      const schema = success && operation.responses[success].content?.['application/json']?.schema;
      if (!schema) throw new Error(`${method.toUpperCase()} ${path}: no JSON success answer in the document`);
      operations.push({ id: operation.operationId, route: `${method.toUpperCase()} ${path}`, schema });
    }
  }
  return operations;
}

function resolver(document) {
  const resolve = (schema) => {
    let current = schema;
    while (current?.$ref) {
      const match = /^#\/components\/schemas\/([A-Za-z0-9_]+)$/.exec(current.$ref);
      if (!match || !document.components.schemas[match[1]]) throw new Error(`unsupported $ref ${current.$ref}`);
      current = document.components.schemas[match[1]];
    }
    return current ?? {};
  };
  return resolve;
}

const JSON_TYPE_OF = (value) => (value === null ? 'null' : Number.isInteger(value) ? 'integer' : typeof value === 'number' ? 'number' : typeof value);

/** The JSON types a schema allows; empty when it allows anything. */
function typesOf(schema, resolve) {
  const resolved = resolve(schema);
  if (resolved.type) return Array.isArray(resolved.type) ? resolved.type : [resolved.type];
  if (resolved.const !== undefined) return [JSON_TYPE_OF(resolved.const)];
  if (resolved.enum) return [...new Set(resolved.enum.map(JSON_TYPE_OF))];
  const members = resolved.oneOf ?? resolved.anyOf;
  if (members) {
    const types = members.map((member) => typesOf(member, resolve));
    return types.some((t) => t.length === 0) ? [] : [...new Set(types.flat())];
  }
  return [];
}

/** The names of the JSON types, as bits of a mask (src/api/answer-checks.ts). */
const TYPE_CONSTANT = { string: 'STRING', integer: 'INTEGER', number: 'NUMBER', boolean: 'BOOLEAN', object: 'OBJECT', array: 'ARRAY', null: 'NULL' };

/** What the generated file imports from src/api/answer-checks.ts, when its checks use it. */
const CHECK_NAMES = ['STRING', 'INTEGER', 'NUMBER', 'BOOLEAN', 'OBJECT', 'ARRAY', 'NULL', 'OPTIONAL', 'check', 'fields', 'items', 'envelope'];

/** The generated file's widest line: eslint.config.js's max-len. */
const WIDTH = 160;

/**
 * A check as the generator builds it: a string that is never broken, or a call whose
 * last argument is a function of `parts` (checks joined by ??), written on one line when
 * it fits in WIDTH and otherwise as `head` on its line and each part on its own, indented.
 */
const call = (head, parts, close = ')') => ({ head, parts, close });

const flat = (doc) => (typeof doc === 'string' ? doc : `${doc.head} ${doc.parts.map(flat).join(' ?? ')}${doc.close}`);

/** The lines of a check at an indentation, followed by `suffix` (what closes or joins it). */
function layout(doc, indent, suffix) {
  const line = indent + flat(doc) + suffix;
  if (typeof doc === 'string' || line.length <= WIDTH) return [line];
  return [
    indent + doc.head,
    ...doc.parts.flatMap((part, index) => layout(part, `${indent}  `, index < doc.parts.length - 1 ? ' ??' : doc.close + suffix)),
  ];
}

/** needs.json's paths of one operation as a tree: `children` by property name, `items` for `[]`. */
function needsTree(paths, operationId) {
  const tree = { optional: false, children: new Map(), items: undefined };
  for (const raw of paths) {
    const optional = raw.endsWith('?');
    const path = optional ? raw.slice(0, -1) : raw;
    if (!/^(\[\]|[A-Za-z0-9_]+)(\.[A-Za-z0-9_]+|\[\])*$/.test(path)) throw new Error(`${operationId}: cannot read the path ${raw} in src/api/needs.json`);
    const tokens = path.match(/\[\]|[A-Za-z0-9_]+/g);
    let node = tree;
    tokens.forEach((token, index) => {
      const leafOptional = optional && index === tokens.length - 1;
      const next = token === '[]' ? node.items : node.children.get(token);
      const child = next ?? { optional: leafOptional, children: new Map(), items: undefined };
      if (!leafOptional) child.optional = false;
      if (token === '[]') node.items = child;
      else node.children.set(token, child);
      node = child;
    });
  }
  return tree;
}

/**
 * The check (see call) of one node of the needs tree: `value` is the expression
 * of its value, `field` its name in messages ('' for a list's item, named by `items`).
 */
function emitNode(context, node, schema, value, field) {
  const { resolve, operationId } = context;
  const types = typesOf(schema, resolve);
  const allowed = types.length > 0 ? types : Object.keys(TYPE_CONSTANT);
  const mask = [...allowed.map((type) => TYPE_CONSTANT[type]), ...(node.optional ? ['OPTIONAL'] : [])].join(' | ');
  const resolved = resolve(schema);
  /** The name of a field inside this one: a property of `data` goes by its own name, one of a list's item by `.name`. */
  const inside = (name) => (field === 'data' ? name : `${field}.${name}`);
  if (node.children.size > 0) {
    const object = context.fresh('object');
    const checks = [...node.children].map(([name, child]) => {
      const property = resolved.properties?.[name];
      if (!property) throw new Error(`${operationId}: needs.json names ${name}, which the document's answer does not have`);
      return emitNode(context, child, property, `${object}.${name}`, inside(name));
    });
    return call(`fields(${value}, ${mask}, '${field}', (${object}) =>`, checks);
  }
  if (node.items) {
    if (!resolved.items) throw new Error(`${operationId}: needs.json asks for items of ${field}, which the document's answer does not list`);
    const item = context.fresh('item');
    return call(`items(${value}, ${mask}, '${field}', (${item}) =>`, [emitNode(context, node.items, resolved.items, item, '')]);
  }
  return `check(${value}, ${mask}, '${field}')`;
}

export function generateValidators(document, needs) {
  const resolve = resolver(document);
  const operations = operationsOf(document);
  const listed = new Set(Object.keys(needs).filter((key) => !key.startsWith('$')));
  const unlisted = operations.filter((operation) => !listed.delete(operation.id));
  if (unlisted.length > 0) throw new Error(`src/api/needs.json has no entry for ${unlisted.map((o) => o.id).join(', ')}: say which fields payctl needs (or [])`);
  if (listed.size > 0) throw new Error(`src/api/needs.json names operations the document does not have: ${[...listed].join(', ')}`);

  const checks = operations.map((operation) => {
    let counter = 0;
    const context = { resolve, operationId: operation.id, fresh: (prefix) => `${prefix}${++counter}` };
    const answer = resolve(operation.schema);
    if (!answer.properties?.data) throw new Error(`${operation.id}: the success answer has no data`);
    const tree = needsTree(needs[operation.id], operation.id);
    const inner = emitNode(context, tree, answer.properties.data, 'data', 'data');
    const entry = call(`${operation.id}: (body) =>`, [call('envelope(body, (data) =>', [inner])], '');
    return [`  /** ${operation.route} */`, ...layout(entry, '  ', ',')].join('\n');
  });

  const used = CHECK_NAMES.filter((name) => checks.some((text) => new RegExp(`\\b${name}\\b`).test(text)));
  return [
    '// Generated by scripts/gen-validators.mjs from openapi/payctl-api.json and src/api/needs.json: do not edit.',
    '// The build runs it; `node scripts/gen-validators.mjs` does too.',
    '',
    `import { ${[...used, 'type Check'].join(', ')} } from './answer-checks.js';`,
    '',
    `export type OperationId =\n${operations.map((o) => `  | '${o.id}'`).join('\n')};`,
    '',
    '/** Each operation as `METHOD /path/{param}`, the way messages name it. */',
    `export const OPERATION_ROUTES: Readonly<Record<OperationId, string>> = {\n${operations.map((o) => `  ${o.id}: '${o.route}',`).join('\n')}\n};`,
    '',

    '/** Reads a success answer\'s body for the fields payctl needs; undefined when they are all there, with their types. */',
    `export const ANSWER_CHECKS: Readonly<Record<OperationId, (body: unknown) => Check>> = {\n${checks.join('\n')}\n};`,
    '',
  ].join('\n');
}

const isMain = process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1];

/** Writes src/api/validators.ts when it differs from what the document and needs.json make; returns whether it did. */
export function writeValidators({ check = false } = {}) {
  const generated = generateValidators(JSON.parse(readFileSync(DOCUMENT_PATH, 'utf8')), JSON.parse(readFileSync(NEEDS_PATH, 'utf8')));
  let current = '';
  try {
    current = readFileSync(OUTPUT_PATH, 'utf8');
  } catch {
    // a missing file is out of date too
  }
  if (current === generated) return false;
  if (check) {
    console.error('src/api/validators.ts is out of date: run node scripts/gen-validators.mjs');
    process.exit(1);
  }
  writeFileSync(OUTPUT_PATH, generated);
  return true;
}

if (isMain) writeValidators({ check: process.argv.includes('--check') });
