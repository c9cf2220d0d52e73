#!/usr/bin/env node
// Generates src/api/validators.ts from openapi/payctl-api.json and src/api/needs.json:
// for each operation, how it is called (method, path, parameters, body), one plain
// function that reads a success answer for the fields payctl needs, with the types
// the document gives them, and the answer's type as far as that function checked it
// (those fields required, every other field `unknown`). Run by the build; nothing
// compiles a schema at run time.
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
      const parameters = (operation.parameters ?? []).map((parameter) => resolveParameter(document, parameter));
      const body = operation.requestBody?.content?.['application/json']?.schema;
      operations.push({ id: operation.operationId, method: method.toUpperCase(), path, route: `${method.toUpperCase()} ${path}`, schema, parameters, body });
    }
  }
  return operations;
}

function resolveParameter(document, parameter) {
  if (!parameter.$ref) return parameter;
  const match = /^#\/components\/parameters\/([A-Za-z0-9_]+)$/.exec(parameter.$ref);
  if (!match || !document.components.parameters?.[match[1]]) throw new Error(`unsupported $ref ${parameter.$ref}`);
  return document.components.parameters[match[1]];
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

/**
 * An integer field that names something (`id`, `bankAccountId`): one too big for a
 * double is read exactly, as a bigint (src/http/json.ts), and must stay so.
 */
const isIdName = (name) => name === 'id' || /Id$/.test(name);

const SCALAR_TS = { string: 'string', number: 'number', boolean: 'boolean', null: 'null' };

const integerType = (name) => (isIdName(name) ? 'number | bigint' : 'number');

/** A property list as a TypeScript object type, one member a line. */
const objectLiteral = (members, indent) => (members.length === 0 ? 'Record<string, unknown>' : `{\n${members.map((m) => `${indent}  ${m};`).join('\n')}\n${indent}}`);

/**
 * The TypeScript type of a value as its check (emitNode) leaves it: a field checked
 * has the JSON types the document gives it (an enumeration is only checked to be a
 * string, so it is a string); a field not checked is `unknown`, present or not.
 */
function answerType(context, node, schema, name, indent) {
  if (!node) return 'unknown';
  const types = typesOf(schema, context.resolve);
  if (types.length === 0) return 'unknown';
  const resolved = context.resolve(schema);
  return [
    ...new Set(
      types.map((type) => {
        if (type === 'integer') return integerType(name);
        if (type === 'array') return node.items ? `Array<${answerType(context, node.items, resolved.items, '', indent)}>` : 'unknown[]';
        if (type !== 'object') return SCALAR_TS[type];
        const members = Object.entries(resolved.properties ?? {}).map(([property, propertySchema]) => {
          const child = node.children.get(property);
          if (!child) return `${property}?: unknown`;
          return `${property}${child.optional ? '?' : ''}: ${answerType(context, child, propertySchema, property, `${indent}  `)}`;
        });
        return objectLiteral(members, indent);
      }),
    ),
  ].join(' | ');
}

/** A request's parameter or body type: a schema named in the document by its name in src/api/types.ts, else its JSON type. */
function valueType(schema, name, resolve, named) {
  if (schema.$ref) {
    const typeName = schema.$ref.split('/').pop();
    named.add(typeName);
    return typeName;
  }
  const types = typesOf(schema, resolve);
  return types.length === 0 ? 'unknown' : types.map((type) => (type === 'integer' ? integerType(name) : (SCALAR_TS[type] ?? 'unknown'))).join(' | ');
}

/** The parameters of one place (`path`, `query`) as a type: required ones without `?`. */
function parametersType(operation, place, resolve, named) {
  const members = operation.parameters
    .filter((parameter) => parameter.in === place)
    .map((parameter) => `${parameter.name}${parameter.required ? '' : '?'}: ${valueType(parameter.schema, parameter.name, resolve, named)}`);
  if (members.length === 0) return 'Record<never, never>';
  const flat = `{ ${members.join('; ')} }`;
  return flat.length <= WIDTH - 40 ? flat : `{\n${members.map((member) => `    ${member};`).join('\n')}\n  }`;
}

/** The path parameter a GET of one resource names it by (`/customers/{customerId}`), or undefined. */
const resourceOf = (operation) => (operation.method === 'GET' ? /\/\{([A-Za-z0-9_]+)\}$/.exec(operation.path)?.[1] : undefined);

/** An interface with one member per operation. */
const perOperation = (name, comment, operations, member) =>
  [`/** ${comment} */`, `export interface ${name} {`, ...operations.map((o) => `  ${o.id}: ${member(o)};`), '}'].join('\n');

export function generateValidators(document, needs) {
  const resolve = resolver(document);
  const operations = operationsOf(document);
  const listed = new Set(Object.keys(needs).filter((key) => !key.startsWith('$')));
  const unlisted = operations.filter((operation) => !listed.delete(operation.id));
  if (unlisted.length > 0) throw new Error(`src/api/needs.json has no entry for ${unlisted.map((o) => o.id).join(', ')}: say which fields payctl needs (or [])`);
  if (listed.size > 0) throw new Error(`src/api/needs.json names operations the document does not have: ${[...listed].join(', ')}`);

  const answerTypes = [];
  const checks = operations.map((operation) => {
    let counter = 0;
    const context = { resolve, operationId: operation.id, fresh: (prefix) => `${prefix}${++counter}` };
    const answer = resolve(operation.schema);
    if (!answer.properties?.data) throw new Error(`${operation.id}: the success answer has no data`);
    // A read of one resource is checked to be the one asked for (src/http/client.ts), so its id is needed.
    if (resourceOf(operation) && !needs[operation.id].includes('id')) {
      throw new Error(`${operation.id} reads one resource: src/api/needs.json must name its id, which payctl compares with the one asked for`);
    }
    const tree = needsTree(needs[operation.id], operation.id);
    const inner = emitNode(context, tree, answer.properties.data, 'data', 'data');
    answerTypes.push(answerType(context, tree, answer.properties.data, 'data', '  '));
    const entry = call(`${operation.id}: (body) =>`, [call('envelope(body, (data) =>', [inner])], '');
    return [`  /** ${operation.route} */`, ...layout(entry, '  ', ',')].join('\n');
  });

  const named = new Set();
  const bodyOf = (operation) => (operation.body ? valueType(operation.body, '', resolve, named) : 'undefined');
  const calls = operations.map((operation) => {
    const resource = resourceOf(operation);
    const accountContext = operation.parameters.some((parameter) => parameter.in === 'header' && parameter.name === 'x-subaccount-id');
    return `  ${operation.id}: { method: '${operation.method}', path: '${operation.path}', accountContext: ${accountContext}${resource ? `, resource: '${resource}'` : ''} },`;
  });
  const typeSections = [
    perOperation('PathParameters', 'What fills each operation\'s path.', operations, (o) => parametersType(o, 'path', resolve, named)),
    perOperation('QueryParameters', 'The query each operation takes.', operations, (o) => parametersType(o, 'query', resolve, named)),
    perOperation('RequestBodies', 'The body each operation sends (`undefined`: none).', operations, bodyOf),
    perOperation(
      'Answers',
      "Each operation's answer `data` as its check leaves it: the fields of needs.json with their types, every other field `unknown`.",
      operations,
      (o) => answerTypes[operations.indexOf(o)],
    ),
  ];

  const used = CHECK_NAMES.filter((name) => checks.some((text) => new RegExp(`\\b${name}\\b`).test(text)));
  return [
    '// Generated by scripts/gen-validators.mjs from openapi/payctl-api.json and src/api/needs.json: do not edit.',
    '// The build runs it; `node scripts/gen-validators.mjs` does too.',
    '',
    `import { ${[...used, 'type Check'].join(', ')} } from './answer-checks.js';`,
    `import type { ${[...named].sort().join(', ')} } from './types.js';`,
    '',
    `export type OperationId =\n${operations.map((o) => `  | '${o.id}'`).join('\n')};`,
    '',
    '/** The operations that only read (GET). */',
    `export type ReadOperationId =\n${operations.filter((o) => o.method === 'GET').map((o) => `  | '${o.id}'`).join('\n')};`,
    '',
    '/** Each operation as `METHOD /path/{param}`, the way messages name it. */',
    `export const OPERATION_ROUTES: Readonly<Record<OperationId, string>> = {\n${operations.map((o) => `  ${o.id}: '${o.route}',`).join('\n')}\n};`,
    '',
    '/**',
    ' * How each operation is called: whether it takes the sub-account header, and for a',
    ' * read of one resource, the path parameter its answer\'s `data.id` must equal.',
    ' */',
    'export interface OperationCall {',
    "  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';",
    '  path: string;',
    '  accountContext: boolean;',
    '  resource?: string;',
    '}',
    '',
    `export const OPERATION_CALLS: Readonly<Record<OperationId, OperationCall>> = {\n${calls.join('\n')}\n};`,
    '',
    typeSections.join('\n\n'),
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
