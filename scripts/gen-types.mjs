#!/usr/bin/env node
// Generates src/api/types.ts from the component schemas of openapi/payctl-api.json.
//
//   node scripts/gen-types.mjs          write src/api/types.ts
//   node scripts/gen-types.mjs --check  exit 1 when src/api/types.ts is out of date
//
// Supports the schema features the document uses: object (properties, required,
// additionalProperties), array, string/integer/number/boolean/null (also as type
// arrays), enum, const, oneOf and local $ref. An enumeration carrying
// `x-const-name` is also exported as a readonly constant array of its values, and a
// number property carrying `x-range-name` as a constant { minimum, maximum } (every
// property of one name must have the same range).
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const DOCUMENT_PATH = `${root}openapi/payctl-api.json`;
const OUTPUT_PATH = `${root}src/api/types.ts`;

const PRIMITIVES = { string: 'string', integer: 'number', number: 'number', boolean: 'boolean', null: 'null' };

function refName(ref) {
  const match = /^#\/components\/schemas\/([A-Za-z0-9_]+)$/.exec(ref);
  if (!match) throw new Error(`unsupported $ref ${ref}`);
  return match[1];
}

const literal = (value) => (typeof value === 'string' ? `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'` : JSON.stringify(value));
const propertyKey = (name) => (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : literal(name));
const union = (members) => [...new Set(members)].join(' | ');

function docComment(schema, indent) {
  if (!schema.description) return '';
  return `${indent}/** ${schema.description.replace(/\*\//g, '*\\/')} */\n`;
}

/** The TypeScript type expression of a schema. */
function typeOf(schema, indent) {
  if (schema.$ref) return refName(schema.$ref);
  if (schema.const !== undefined) return literal(schema.const);
  if (schema.enum) return union(schema.enum.map(literal));
  if (schema.oneOf) return union(schema.oneOf.map((member) => typeOf(member, indent)));
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  return union(
    types.map((type) => {
      if (type === 'object') return objectType(schema, indent);
      if (type === 'array') {
        const item = typeOf(schema.items ?? {}, indent);
        return /[|&]/.test(item) ? `Array<${item}>` : `${item}[]`;
      }
      if (type in PRIMITIVES) return PRIMITIVES[type];
      if (type === undefined) return 'unknown';
      throw new Error(`unsupported type ${type}`);
    }),
  );
}

function objectType(schema, indent) {
  const required = new Set(schema.required ?? []);
  const inner = `${indent}  `;
  const lines = Object.entries(schema.properties ?? {}).map(
    ([name, property]) => `${docComment(property, inner)}${inner}${propertyKey(name)}${required.has(name) ? '' : '?'}: ${typeOf(property, inner)};`,
  );
  if (schema.additionalProperties !== undefined && schema.additionalProperties !== false) {
    const value = schema.additionalProperties === true ? 'unknown' : typeOf(schema.additionalProperties, inner);
    lines.push(`${inner}[key: string]: ${value};`);
  }
  return lines.length ? `{\n${lines.join('\n')}\n${indent}}` : 'Record<string, never>';
}

function declaration(name, schema) {
  const comment = docComment(schema, '');
  if (schema['x-const-name']) {
    const constName = schema['x-const-name'];
    return `${comment}export const ${constName} = [${schema.enum.map(literal).join(', ')}] as const;\nexport type ${name} = (typeof ${constName})[number];`;
  }
  const isPlainObject = schema.type === 'object' && !schema.oneOf;
  return isPlainObject ? `${comment}export interface ${name} ${objectType(schema, '')}` : `${comment}export type ${name} = ${typeOf(schema, '')};`;
}

/**
 * The constant of each `x-range-name` in the component schemas' properties and the
 * component parameters' schemas, checked to be one range per name.
 */
function ranges({ schemas, parameters }) {
  const byName = new Map();
  const numbers = [
    ...Object.entries(schemas).flatMap(([schemaName, schema]) => Object.entries(schema.properties ?? {}).map(([property, value]) => [`${schemaName}.${property}`, value])),
    ...Object.entries(parameters).map(([parameterName, parameter]) => [`parameters.${parameterName}`, parameter.schema]),
  ];
  for (const [where, value] of numbers) {
    const name = value['x-range-name'];
    if (!name) continue;
    const range = `{ minimum: ${value.minimum}, maximum: ${value.maximum} }`;
    if (byName.has(name) && byName.get(name).range !== range) {
      throw new Error(`x-range-name ${name}: ${where} is ${range}, ${byName.get(name).where} is ${byName.get(name).range}`);
    }
    byName.set(name, { range, where });
  }
  return [...byName].map(([name, { range }]) => `/** The range of the properties the document names ${name} (x-range-name). */\nexport const ${name} = ${range} as const;`);
}

export function generateTypes(document) {
  const header = [
    '// Generated by scripts/gen-types.mjs from openapi/payctl-api.json: do not edit.',
    '// Run `node scripts/gen-types.mjs` after changing the document.',
    '',
  ];
  const declarations = [
    ...Object.entries(document.components.schemas).map(([name, schema]) => declaration(name, schema)),
    ...ranges(document.components),
  ];
  return `${header.join('\n')}\n${declarations.join('\n\n')}\n`;
}

const isMain = process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1];
if (isMain) {
  const generated = generateTypes(JSON.parse(readFileSync(DOCUMENT_PATH, 'utf8')));
  if (process.argv.includes('--check')) {
    let current = '';
    try {
      current = readFileSync(OUTPUT_PATH, 'utf8');
    } catch {
      // a missing file is out of date too
    }
    if (current !== generated) {
      console.error('src/api/types.ts is out of date with openapi/payctl-api.json: run node scripts/gen-types.mjs');
      process.exit(1);
    }
  } else {
    writeFileSync(OUTPUT_PATH, generated);
  }
}
