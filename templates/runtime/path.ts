/**
 * Path parameters are checked and percent-encoded before any request is
 * built, so a value can never change which resource a request addresses.
 */
import { InvalidRequestError } from "./errors.js";

/** Values that encodeURIComponent leaves as they are and that would empty or climb the path. */
const DOT_SEGMENTS: ReadonlySet<string> = new Set(["", ".", ".."]);

export function encodePathParameter(name: string, value: unknown): string {
  const refuse = (reason: string): never => {
    throw new InvalidRequestError(`path parameter "${name}" ${reason}`, { field: `path.${name}` });
  };

  let text: string;
  switch (typeof value) {
    case "string":
      text = value;
      break;
    case "number":
      if (!Number.isFinite(value)) refuse("must be a finite number");
      text = String(value);
      break;
    case "bigint":
    case "boolean":
      text = String(value);
      break;
    case "undefined":
      return refuse("is required");
    default:
      return refuse(value === null ? "is required" : "must be a string, number, bigint or boolean");
  }

  if (DOT_SEGMENTS.has(text)) refuse(text === "" ? "must not be empty" : `must not be "${text}"`);
  try {
    return encodeURIComponent(text);
  } catch {
    // encodeURIComponent throws on lone UTF-16 surrogates.
    return refuse("must be well-formed Unicode");
  }
}

/** Replaces every `{name}` in `template` with the encoded parameter. */
export function buildPath(template: string, params: Record<string, unknown>): string {
  return template.replace(/\{([^{}]+)\}/g, (_placeholder, name: string) =>
    // Own properties only: a parameter named "constructor" must not find Object.
    encodePathParameter(name, Object.hasOwn(params, name) ? params[name] : undefined),
  );
}
