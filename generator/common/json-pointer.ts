/**
 * JSON pointers (RFC 6901), the generator's one home for them: building, parsing, escaping a segment.
 */
import { ContractError } from "./errors.ts";

/** Builds a JSON pointer from unescaped segments: `pointer("paths", "/pods")` is `/paths/~1pods`. */
export function pointer(...segments: (string | number)[]): string {
  return segments.map((segment) => `/${escapeSegment(String(segment))}`).join("");
}

/**
 * Splits a JSON pointer into unescaped segments. Also accepts a URI fragment as
 * found in `$ref` (`#/components/schemas/Pod`), which is percent-decoded first (RFC 6901 §6).
 */
export function parsePointer(p: string): string[] {
  const isFragment = p.startsWith("#");
  const raw = isFragment ? p.slice(1) : p;
  let jsonPointer = raw;
  if (isFragment) {
    try {
      jsonPointer = decodeURIComponent(raw);
    } catch {
      throw new ContractError(raw, "malformed percent-encoding in JSON pointer fragment");
    }
  }
  if (jsonPointer === "") return [];
  if (!jsonPointer.startsWith("/")) {
    throw new ContractError(raw, 'invalid JSON pointer: must be empty or start with "/"');
  }
  return jsonPointer
    .slice(1)
    .split("/")
    .map((segment) => {
      // "~" may only start "~0" or "~1"; anything else is a malformed pointer, not a literal.
      if (/~(?![01])/.test(segment)) {
        throw new ContractError(raw, `invalid JSON pointer: bad escape in segment "${segment}"`);
      }
      return unescapeSegment(segment);
    });
}

/** Undoes `escapeSegment`. Order matters (RFC 6901 §4): "~01" must become "~1", not "/". */
export function unescapeSegment(segment: string): string {
  return segment.replaceAll("~1", "/").replaceAll("~0", "~");
}

/** Escapes one segment: `~` → `~0`, `/` → `~1`. */
export function escapeSegment(segment: string): string {
  return segment.replaceAll("~", "~0").replaceAll("/", "~1");
}

/** A JSON pointer as a `$ref` (a URI fragment): each segment percent-encoded, so `parsePointer` reads it back. */
export function pointerRef(p: string): string {
  return `#${p.split("/").map(encodeURIComponent).join("/")}`;
}
