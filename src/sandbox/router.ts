/** A small router over the operations of the OpenAPI document: literal segments win over parameters. */
import type { CompiledOperation } from './openapi.js';

interface Route {
  operation: CompiledOperation;
  /** literal segment, or null where the template has a parameter */
  segments: Array<string | null>;
  parameterNames: string[];
}

export type RouteMatch =
  | { kind: 'found'; operation: CompiledOperation; rawParams: Record<string, string> }
  | { kind: 'methodNotAllowed'; allowed: string[] }
  | { kind: 'notFound' };

const splitPath = (path: string) => path.split('/').slice(1);

export class Router {
  private readonly routes: Route[];

  constructor(operations: readonly CompiledOperation[]) {
    this.routes = operations.map((operation) => {
      const templateSegments = splitPath(operation.pathTemplate);
      return {
        operation,
        segments: templateSegments.map((segment) => (segment.startsWith('{') ? null : segment)),
        parameterNames: templateSegments.filter((segment) => segment.startsWith('{')).map((segment) => segment.slice(1, -1)),
      };
    });
    // More literal segments first, so /withdrawals/balance is not read as /withdrawals/{withdrawalId}.
    this.routes.sort((a, b) => literalCount(b) - literalCount(a));
  }

  match(method: string, pathname: string): RouteMatch {
    const segments = splitPath(pathname);
    const allowed: string[] = [];
    for (const route of this.routes) {
      const values = matchSegments(route, segments);
      if (!values) continue;
      if (route.operation.method !== method) {
        allowed.push(route.operation.method);
        continue;
      }
      const rawParams: Record<string, string> = {};
      route.parameterNames.forEach((name, i) => (rawParams[name] = values[i]!));
      return { kind: 'found', operation: route.operation, rawParams };
    }
    return allowed.length ? { kind: 'methodNotAllowed', allowed: [...new Set(allowed)] } : { kind: 'notFound' };
  }

  /** The operation a request URL (path and query) names, if any. */
  operationOf(method: string, url: string): CompiledOperation | undefined {
    const queryStart = url.indexOf('?');
    const match = this.match(method, queryStart < 0 ? url : url.slice(0, queryStart));
    return match.kind === 'found' ? match.operation : undefined;
  }
}

const literalCount = (route: Route) => route.segments.filter((segment) => segment !== null).length;

/** The decoded parameter values when `segments` fit the route, else undefined. */
function matchSegments(route: Route, segments: readonly string[]): string[] | undefined {
  if (segments.length !== route.segments.length) return undefined;
  const values: string[] = [];
  for (let i = 0; i < segments.length; i++) {
    const expected = route.segments[i];
    const actual = segments[i]!;
    if (expected === null) {
      if (actual === '') return undefined;
      values.push(safeDecode(actual));
    } else if (expected !== actual) {
      return undefined;
    }
  }
  return values;
}

/** A malformed escape is kept as typed: it then fails the parameter's schema instead of throwing. */
function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
