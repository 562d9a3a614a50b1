/**
 * JSON pointers (RFC 6901), the runtime's one home for them: escaping a segment (the generated
 * validators build issue paths with it), undoing that, the field path (`body.input.duration`)
 * messages show for a pointer, and reading the value a pointer names. No imports: the validators' runtime stays free of the client's.
 */

/** Escapes a property name for a JSON pointer (RFC 6901): `~` → `~0`, `/` → `~1`. */
export function escapeSegment(segment: string): string {
  return segment.indexOf("~") === -1 && segment.indexOf("/") === -1
    ? segment
    : segment.replace(/~/g, "~0").replace(/\//g, "~1");
}

/** Undoes `escapeSegment`. Order matters (RFC 6901 §4): "~01" must become "~1", not "/". */
export function unescapeSegment(segment: string): string {
  return segment.replace(/~1/g, "/").replace(/~0/g, "~");
}

/** `body` + `/input/duration` → `body.input.duration`; JSON pointer escapes undone. */
export function fieldPath(prefix: string, pointer: string): string {
  const segments = pointer.split("/").slice(1).map(unescapeSegment);
  return [prefix, ...segments].filter(Boolean).join(".");
}

/** The value at `segments` (a pointer's segments, unescaped) in `document`, or undefined when a step is missing (own properties only). */
export function valueAtSegments(document: unknown, segments: readonly string[]): unknown {
  let node: unknown = document;
  for (const segment of segments) {
    if (node === null || typeof node !== "object" || !Object.prototype.hasOwnProperty.call(node, segment)) return undefined;
    node = (node as Record<string, unknown>)[segment];
  }
  return node;
}

/** The value at `pointer` in `document`, or undefined when a step is missing. */
export function valueAt(document: unknown, pointer: string): unknown {
  return pointer === "" ? document : valueAtSegments(document, pointer.split("/").slice(1).map(unescapeSegment));
}
