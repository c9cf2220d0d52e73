/**
 * The OpenAPI document, compiled: one Ajv 2020 instance and, per operation, the
 * validators of its path, query, header and body, built once per process.
 */
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import document from '../../openapi/payctl-api.json' with { type: 'json' };
import { ApiError, errorKindOfReturnCode, type ErrorKind } from './errors.js';
import { isCalendarDate, isEmail, isUuid } from '../validation/rules.js';

type SchemaObject = Record<string, unknown>;

type ParameterLocation = 'path' | 'query' | 'header';

interface ParameterObject {
  name: string;
  /** A ParameterLocation; typed as the document's JSON is read. */
  in: string;
  required?: boolean;
  schema: SchemaObject;
}

interface ResponseObject {
  $ref?: string;
  content?: { 'application/json': { schema: { $ref: string } } };
}

interface OperationObject {
  operationId: string;
  parameters?: Array<{ $ref: string }>;
  requestBody?: { content: { 'application/json': { schema: { $ref: string } } } };
  security?: unknown[];
  responses: Record<string, ResponseObject>;
  'x-query-return-code'?: number;
}

interface OpenApiDocument {
  paths: Record<string, Record<string, OperationObject>>;
  components: { schemas: Record<string, SchemaObject>; parameters: Record<string, ParameterObject>; responses: Record<string, ResponseObject> };
}

export const apiDocument: OpenApiDocument = document;

/** $id under which the document's components are registered in Ajv. */
export const API_SCHEMA_ID = 'https://payctl.local/openapi/payctl-api.json';
export const componentSchemaRef = (name: string) => `${API_SCHEMA_ID}#/components/schemas/${name}`;
const localRefName = (ref: string) => ref.slice(ref.lastIndexOf('/') + 1);

/** The component a local `$ref` names: the document is plain JSON, so a dangling reference is found here, by name. */
function resolveRef<T>(components: Record<string, T>, ref: string): T {
  const component = components[localRefName(ref)];
  if (component === undefined) throw new Error(`payctl-api.json: ${ref} names no component`);
  return component;
}

/** The validator of a component schema, compiled by `ajv` on first use. */
function schemaValidator(ajv: Ajv2020, name: string): ValidateFunction {
  const validate = ajv.getSchema(componentSchemaRef(name));
  if (!validate) throw new Error(`payctl-api.json: no component schema ${name}`);
  return validate;
}

/** The first failure of `validate`'s last call: ajv fills `errors` whenever it answers false. */
function firstError(validate: ValidateFunction): ErrorObject {
  const [error] = validate.errors ?? [];
  if (!error) throw new Error('the schema validator failed without an error');
  return error;
}

const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;

/**
 * The Ajv instance every validation of the project uses (sandbox and tests), so
 * both read the document the same way: its formats, the OpenAPI discriminator,
 * and a multipleOf tolerance so that 0.29 is a multiple of 0.01.
 */
export function createApiAjv(): Ajv2020 {
  const ajv = new Ajv2020({ strict: false, discriminator: true, multipleOfPrecision: 9, verbose: true, useDefaults: true, allErrors: false });
  ajv.addFormat('uuid', isUuid);
  ajv.addFormat('date', isCalendarDate);
  ajv.addFormat('date-time', (text: string) => DATE_TIME.test(text) && !Number.isNaN(Date.parse(text)));
  ajv.addFormat('email', isEmail);
  ajv.addFormat('uri', (text: string) => URL.canParse(text));
  ajv.addSchema({ $id: API_SCHEMA_ID, components: apiDocument.components });
  return ajv;
}

/** Which part of the request a validator checks: decides the error code and wording. */
type RequestPart = 'path' | 'query' | 'body';
const PART_ERROR: Record<RequestPart, ErrorKind> = { path: 'invalidId', query: 'invalidQuery', body: 'validation' };

function describeError(error: ErrorObject, part: RequestPart): string {
  const field = error.instancePath.slice(1).replace(/\//g, '.');
  const subject = part === 'body' ? field || 'body' : `${part === 'query' ? 'query parameter' : 'path parameter'} ${field}`;
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'additionalProperties':
      return part === 'query'
        ? `unknown query parameter ${String(params.additionalProperty)}`
        : `${subject}: unknown field ${String(params.additionalProperty)}`;
    case 'required':
      return `${field ? `${field}.` : ''}${String(params.missingProperty)} is required`;
    case 'enum':
      return `${subject} must be one of ${(params.allowedValues as unknown[]).join(', ')}`;
    case 'const':
      return `${subject} must be ${String(params.allowedValue)}`;
    case 'format':
      return `${subject} must be a valid ${String(params.format)}`;
    case 'discriminator':
      return `${field ? `${field}.` : ''}${String(params.tag)} is missing or not one of the accepted values`;
    default:
      return `${subject} ${error.message ?? 'is invalid'}`;
  }
}

/** Throws the ApiError for the first failure of `validate`, if any. */
function check(validate: ValidateFunction, value: unknown, part: RequestPart, overrideReturnCode?: number): void {
  if (validate(value)) return;
  const error = firstError(validate);
  const keywordCodes = (error.parentSchema as SchemaObject | undefined)?.['x-return-code'] as Record<string, number> | undefined;
  const returnCode = keywordCodes?.[error.keyword] ?? overrideReturnCode;
  const kind = (returnCode !== undefined && errorKindOfReturnCode(returnCode)) || PART_ERROR[part];
  throw new ApiError(kind, describeError(error, part), returnCode);
}

const INTEGER_TEXT = /^[+-]?\d+$/;

/** The path or query parameters of an operation, validated as one object. */
class ParameterSet {
  private readonly integerNames = new Set<string>();
  private readonly schema: SchemaObject;
  private compiled: ValidateFunction | undefined;

  constructor(
    private readonly ajv: Ajv2020,
    parameters: readonly ParameterObject[],
    private readonly part: RequestPart,
    private readonly overrideReturnCode?: number,
  ) {
    const properties: Record<string, SchemaObject> = {};
    for (const parameter of parameters) {
      const schema = parameter.schema.$ref ? { $ref: componentSchemaRef(localRefName(String(parameter.schema.$ref))) } : parameter.schema;
      properties[parameter.name] = schema;
      if (parameter.schema.type === 'integer') this.integerNames.add(parameter.name);
    }
    const required = parameters.filter((parameter) => parameter.required).map((parameter) => parameter.name);
    this.schema = { type: 'object', properties, required, additionalProperties: false };
  }

  /** Compiled on first use: a sandbox that serves a few routes (each test's) compiles only theirs. */
  private get validate(): ValidateFunction {
    return (this.compiled ??= this.ajv.compile(this.schema));
  }

  /** Query values from a raw query string; a repeated parameter is refused rather than silently picked. */
  parseQueryString(search: string): Record<string, unknown> {
    const raw: Record<string, string> = Object.create(null); // `__proto__=1` must count as an unknown parameter
    for (const [name, value] of new URLSearchParams(search)) {
      if (Object.hasOwn(raw, name)) throw this.error(`query parameter ${name} is repeated`);
      raw[name] = value;
    }
    return this.parse(raw);
  }

  /** Typed, validated values (with defaults) from raw strings; integers are converted only when they look like one. */
  parse(raw: Record<string, string>): Record<string, unknown> {
    const values: Record<string, unknown> = Object.create(null);
    for (const [name, text] of Object.entries(raw)) values[name] = this.integerNames.has(name) && INTEGER_TEXT.test(text) ? Number(text) : text;
    check(this.validate, values, this.part, this.overrideReturnCode);
    return values;
  }

  private error(message: string): ApiError {
    const kind = (this.overrideReturnCode !== undefined && errorKindOfReturnCode(this.overrideReturnCode)) || PART_ERROR[this.part];
    return new ApiError(kind, message);
  }
}

/** The component schema name of a response (through components/responses when it is a $ref). */
function responseSchemaName(response: ResponseObject): string {
  const resolved = response.$ref ? resolveRef(apiDocument.components.responses, response.$ref) : response;
  if (!resolved.content) throw new Error(`payctl-api.json: response ${response.$ref ?? ''} has no JSON content`);
  return localRefName(resolved.content['application/json'].schema.$ref);
}

export interface CompiledOperation {
  operationId: string;
  method: string;
  pathTemplate: string;
  /** `security: []`: no bearer token (POST /auth). */
  isPublic: boolean;
  /** Accepts x-subaccount-id to run in a sub-account's context. */
  takesSubaccount: boolean;
  successStatus: number;
  path: ParameterSet;
  query: ParameterSet;
  /** Validates a parsed body (and fills schema defaults in); undefined when the operation takes none. */
  validateBody?: (body: unknown) => void;
  /** status → component schema name of the documented answers ('default' for any other status) */
  answerSchemas: Record<string, string>;
}

let compiled: CompiledOperation[] | undefined;
let processAjv: Ajv2020 | undefined;
/** One Ajv for the process's requests and answers: a component schema both use is compiled once. */
const sharedAjv = (): Ajv2020 => (processAjv ??= createApiAjv());

/**
 * Why `body`, answered with `status` by `operation` (undefined: no route), is not
 * what the document promises, or undefined when it is. A success must be one of
 * the operation's documented statuses and match its schema; any other answer
 * must have the error shape.
 */
export function answerViolation(operation: CompiledOperation | undefined, status: number, body: unknown): string | undefined {
  let schemaName = 'ApiErrorBody';
  if (operation && status < 300) {
    const documented = operation.answerSchemas[String(status)];
    if (!documented) return `status ${status} is not documented for ${operation.method} ${operation.pathTemplate}`;
    schemaName = documented;
  }
  const validate = schemaValidator(sharedAjv(), schemaName);
  if (validate(body)) return undefined;
  const error = firstError(validate);
  return `does not match ${schemaName}: ${error.instancePath || '(root)'} ${error.message ?? error.keyword}`;
}

/** Every operation of the document, compiled on first use and shared by every sandbox of the process. */
export function compiledOperations(): CompiledOperation[] {
  if (compiled) return compiled;
  const ajv = sharedAjv();
  const parameterOf = (ref: { $ref: string }) => resolveRef(apiDocument.components.parameters, ref.$ref);
  compiled = [];
  for (const [pathTemplate, methods] of Object.entries(apiDocument.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      const parameters = (operation.parameters ?? []).map(parameterOf);
      const inLocation = (location: ParameterLocation) => parameters.filter((parameter) => parameter.in === location);
      const bodyRef = operation.requestBody?.content['application/json'].schema.$ref;
      // getSchema compiles the schema (once per Ajv instance): left to the first body.
      const bodyValidator = bodyRef ? () => schemaValidator(ajv, localRefName(bodyRef)) : undefined;
      compiled.push({
        operationId: operation.operationId,
        method: method.toUpperCase(),
        pathTemplate,
        isPublic: Array.isArray(operation.security) && operation.security.length === 0,
        takesSubaccount: inLocation('header').some((parameter) => parameter.name === 'x-subaccount-id'),
        successStatus: Number(Object.keys(operation.responses).find((status) => status.startsWith('2'))),
        path: new ParameterSet(ajv, inLocation('path'), 'path'),
        query: new ParameterSet(ajv, inLocation('query'), 'query', operation['x-query-return-code']),
        validateBody: bodyValidator && ((body: unknown) => check(bodyValidator(), body, 'body')),
        answerSchemas: Object.fromEntries(Object.entries(operation.responses).map(([status, response]) => [status, responseSchemaName(response)])),
      });
    }
  }
  return compiled;
}
