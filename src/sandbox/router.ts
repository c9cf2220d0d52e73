/** A small router over the operations of the OpenAPI document: literal segments win over parameters. */
import type { CompiledOperation } from './openapi.js';

interface Route {
  operation: CompiledOperation;
  /** literal segment, or the name of the template's parameter */
  segments: Array<string | { parameter: string }>;
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
      const segments = splitPath(operation.pathTemplate).map((segment) => (segment.startsWith('{') ? { parameter: segment.slice(1, -1) } : segment));
      return { operation, segments };
    });
    // More literal segments first, so /withdrawals/balance is not read as /withdrawals/{withdrawalId}.
    this.routes.sort((a, b) => literalCount(b) - literalCount(a));
  }

  match(method: string, pathname: string): RouteMatch {
    const segments = splitPath(pathname);
    const allowed: string[] = [];
    for (const route of this.routes) {
      const rawParams = matchSegments(route, segments);
      if (!rawParams) continue;
      if (route.operation.method !== method) {
        allowed.push(route.operation.method);
        continue;
      }
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

const literalCount = (route: Route) => route.segments.filter((segment) => typeof segment === 'string').length;

/** The decoded parameter values by name when `segments` fit the route, else undefined. */
function matchSegments(route: Route, segments: readonly string[]): Record<string, string> | undefined {
  if (segments.length !== route.segments.length) return undefined;
  const values: Record<string, string> = {};
  for (const [i, actual] of segments.entries()) {
    const expected = route.segments[i];
    if (typeof expected === 'object') {
      if (actual === '') return undefined;
      values[expected.parameter] = safeDecode(actual);
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
