/**
 * Path parameters are checked and percent-encoded before any request is
 * built, so a value can never change which resource a request addresses.
 */
import { InvalidRequestError } from "./errors.js";

/** Values that encodeURIComponent leaves as they are and that would empty or climb the path. */
const DOT_SEGMENTS: ReadonlySet<string> = new Set(["", ".", ".."]);

function refuse(name: string, reason: string): never {
  throw new InvalidRequestError(`path parameter "${name}" ${reason}`, { field: `path.${name}` });
}

export function encodePathParameter(name: string, value: unknown): string {
  let text: string;
  switch (typeof value) {
    case "string":
      text = value;
      break;
    case "number":
      if (!Number.isFinite(value)) refuse(name, "must be a finite number");
      text = String(value);
      break;
    case "bigint":
    case "boolean":
      text = String(value);
      break;
    case "undefined":
      return refuse(name, "is required");
    default:
      return refuse(name, value === null ? "is required" : "must be a string, number, bigint or boolean");
  }

  if (DOT_SEGMENTS.has(text)) refuse(name, text === "" ? "must not be empty" : `must not be "${text}"`);
  try {
    return encodeURIComponent(text);
  } catch {
    // encodeURIComponent throws on lone UTF-16 surrogates.
    return refuse(name, "must be well-formed Unicode");
  }
}

/** A path template split once: literal text at even indexes, parameter names at odd ones. */
const TEMPLATES = new Map<string, readonly string[]>();

/** Replaces every `{name}` in `template` with the encoded parameter. */
export function buildPath(template: string, params: Record<string, unknown>): string {
  let parts = TEMPLATES.get(template);
  if (parts === undefined) {
    parts = template.split(/\{([^{}]+)\}/);
    // Templates come from the generated client: a handful, but keep the cache bounded anyway.
    if (TEMPLATES.size < 1_000) TEMPLATES.set(template, parts);
  }
  let path = parts[0] as string;
  for (let i = 1; i < parts.length; i += 2) {
    const name = parts[i] as string;
    // Own properties only: a parameter named "constructor" must not find Object.
    path += encodePathParameter(name, Object.hasOwn(params, name) ? params[name] : undefined) + (parts[i + 1] as string);
  }
  return path;
}
