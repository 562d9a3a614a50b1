/**
 * JSON pointers (RFC 6901), the runtime's one home for them: escaping a segment (the generated
 * validators build issue paths with it), undoing that, and the field path (`body.input.duration`)
 * messages show for a pointer. No imports: the validators' runtime stays free of the client's.
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
