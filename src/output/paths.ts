/** Reads `a.b.c` out of nested objects. */
export function getPath(value: unknown, path: string): unknown {
  let current = value;
  for (const key of path.split('.')) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/** Builds the nested object holding only the given dot paths, in their order. */
export function pickPaths(value: unknown, paths: readonly string[]): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const path of paths) {
    const keys = path.split('.');
    const leaf = keys.pop() ?? path;
    let target = result;
    keys.forEach((key) => {
      if (typeof target[key] !== 'object' || target[key] === null) target[key] = {};
      target = target[key] as Record<string, unknown>;
    });
    const found = getPath(value, path);
    target[leaf] = found === undefined ? null : found;
  }
  return result;
}

/** Every leaf dot path of a value, in key order (arrays count as leaves). */
export function leafPaths(value: unknown, prefix = ''): string[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return prefix ? [prefix] : [];
  return Object.entries(value).flatMap(([key, inner]) => leafPaths(inner, prefix ? `${prefix}.${key}` : key));
}
