/**
 * A problem in the contract, located by a JSON pointer (RFC 6901) into the file
 * that holds it. The CLI prints `message` as is, never a stack trace.
 */
export class ContractError extends Error {
  /** The problem without the location prefix, for callers that format locations themselves. */
  readonly reason: string;

  constructor(
    readonly pointer: string,
    message: string,
    readonly file?: string,
  ) {
    super(`${file ?? ""}#${pointer}: ${message}`);
    this.name = "ContractError";
    this.reason = message;
  }
}

/**
 * A refusal about how the generator was asked to run (an output folder holding other files, a
 * path that is not a folder), not a bug: the CLI prints `message` as is, never a stack trace.
 */
export class UsageError extends Error {
  override readonly name = "UsageError";
}

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
      // Order matters (RFC 6901 §4): "~01" must become "~1", not "/".
      return segment.replaceAll("~1", "/").replaceAll("~0", "~");
    });
}

function escapeSegment(segment: string): string {
  return segment.replaceAll("~", "~0").replaceAll("/", "~1");
}
