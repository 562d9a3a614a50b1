/**
 * Schemas as the emitter reads them: plain JSON, own members only (a schema's `constructor` or
 * `__proto__` member is data, never `Object.prototype`'s).
 */
export type SchemaObject = Record<string, unknown>;

export function isObject(value: unknown): value is SchemaObject {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** The value at a JSON pointer, reading own members only (never `Object.prototype`). */
export function valueAt(root: unknown, segments: readonly string[]): unknown {
  let current: unknown = root;
  for (const segment of segments) {
    if (Array.isArray(current)) {
      current = /^(0|[1-9]\d*)$/.test(segment) ? current[Number(segment)] : undefined;
    } else if (isObject(current)) {
      current = Object.hasOwn(current, segment) ? current[segment] : undefined;
    } else {
      return undefined;
    }
  }
  return current;
}
