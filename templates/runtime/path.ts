/**
 * Path parameters are checked and written in their OpenAPI style (`simple`, `label`, `matrix`),
 * every name and value percent-encoded, before any request is built, so a value can never change
 * which resource a request addresses.
 */
import { InvalidRequestError } from "./errors.js";

/** OpenAPI's `style` and `explode` of a path parameter. */
export interface PathStyle {
  style: "simple" | "label" | "matrix";
  explode: boolean;
}

/** OpenAPI's default for a path parameter. */
const SIMPLE: PathStyle = { style: "simple", explode: false };

/**
 * Written text that would empty or climb the path. encodeURIComponent leaves `.` as it is (and a
 * `%2E` would not help: URL parsers read it as a dot too), so these are refused.
 */
const DOT_SEGMENTS: ReadonlySet<string> = new Set(["", ".", ".."]);

function refuse(name: string, reason: string): never {
  throw new InvalidRequestError(`path parameter "${name}" ${reason}`, { field: `path.${name}` });
}

function encode(name: string, text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    // encodeURIComponent throws on lone UTF-16 surrogates.
    return refuse(name, "must be well-formed Unicode");
  }
}

/** A string, finite number, bigint or boolean as text (else `nonFinite` is refused); undefined for anything else. */
function primitiveText(name: string, value: unknown, nonFinite: string): string | undefined {
  switch (typeof value) {
    case "string":
      return value;
    case "number":
      if (!Number.isFinite(value)) refuse(name, nonFinite);
      return String(value);
    case "bigint":
    case "boolean":
      return String(value);
    default:
      return undefined;
  }
}

/** An item of an array, or a property's value, as encoded text. */
function itemText(name: string, value: unknown): string {
  const text = primitiveText(name, value, "must hold only finite numbers");
  if (text === undefined) refuse(name, "must hold only strings, numbers, bigints or booleans");
  return encode(name, text);
}

/** `;name=value`, or `;name` for an empty value (RFC 6570's path-style expansion). */
function matrixPair(name: string, value: string): string {
  return value === "" ? `;${name}` : `;${name}=${value}`;
}

/**
 * The parameter written as OpenAPI's style table says, e.g. for `color`:
 *
 * | style  | explode | `"blue"`      | `["blue","black"]`          | `{ R: 100, G: 200 }` |
 * | simple | either  | `blue`        | `blue,black`                | `R,100,G,200` (exploded: `R=100,G=200`) |
 * | label  | false   | `.blue`       | `.blue,black`               | `.R,100,G,200` |
 * | label  | true    | `.blue`       | `.blue.black`               | `.R=100.G=200` |
 * | matrix | false   | `;color=blue` | `;color=blue,black`         | `;color=R,100,G,200` |
 * | matrix | true    | `;color=blue` | `;color=blue;color=black`   | `;R=100;G=200` |
 *
 * An empty array or object is RFC 6570's undefined: nothing (simple), `.` (label), `;color`
 * (matrix). Properties whose value is undefined or null are left out. Refused, naming the
 * parameter: a missing value, one written as an empty, `.` or `..` segment (a simple empty string,
 * array or object; a label of `""` or `"."`), a non-finite number, an array or object holding
 * anything but primitives, ill-formed Unicode.
 */
export function encodePathParameter(name: string, value: unknown, style: PathStyle = SIMPLE): string {
  if (value === undefined || value === null) return refuse(name, "is required");
  const primitive = primitiveText(name, value, "must be a finite number");
  let written: string;
  if (primitive !== undefined) {
    const text = encode(name, primitive);
    written = style.style === "simple" ? text : style.style === "label" ? `.${text}` : matrixPair(encode(name, name), text);
    if (DOT_SEGMENTS.has(written)) {
      refuse(name, written === text ? (text === "" ? "must not be empty" : `must not be "${text}"`) : `must not be ${JSON.stringify(primitive)}: label style writes it as the path segment "${written}"`);
    }
    return written;
  }
  if (typeof value !== "object") return refuse(name, "must be a string, number, bigint, boolean, array or object");

  // An array's items, or an object's pairs (undefined and null properties left out), encoded.
  const pairs: Array<[string, string]> | undefined = Array.isArray(value)
    ? undefined
    : Object.entries(value as Record<string, unknown>).flatMap(([key, item]) => (item === undefined || item === null ? [] : [[encode(name, key), itemText(name, item)] as [string, string]]));
  const items = pairs === undefined ? (value as unknown[]).map((item) => itemText(name, item)) : pairs.flat();
  const assigned = (separator: string) => (pairs as Array<[string, string]>).map(([key, item]) => `${key}=${item}`).join(separator);
  const exploded = style.explode && pairs !== undefined;
  if (style.style === "simple") {
    written = exploded ? assigned(",") : items.join(",");
  } else if (style.style === "label") {
    written = `.${exploded ? assigned(".") : items.join(style.explode ? "." : ",")}`;
  } else {
    const matrixName = encode(name, name);
    if (items.length === 0) written = `;${matrixName}`;
    else if (exploded) written = (pairs as Array<[string, string]>).map(([key, item]) => matrixPair(key, item)).join("");
    else if (style.explode) written = items.map((item) => matrixPair(matrixName, item)).join("");
    else written = matrixPair(matrixName, items.join(","));
  }
  if (DOT_SEGMENTS.has(written)) {
    const kind = Array.isArray(value) ? "array" : "object";
    refuse(name, items.length === 0 ? `must not be an empty ${kind} in ${style.style} style` : written === "" ? "must not be written as an empty path segment" : `must not be written as the path segment "${written}"`);
  }
  return written;
}

/** A path template split once: literal text at even indexes, parameter names at odd ones. */
const TEMPLATES = new Map<string, readonly string[]>();

/** Replaces every `{name}` in `template` with the parameter written in its style (default: simple). */
export function buildPath(template: string, params: Record<string, unknown>, styles?: Readonly<Record<string, PathStyle>>): string {
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
    const value = Object.hasOwn(params, name) ? params[name] : undefined;
    const style = styles !== undefined && Object.hasOwn(styles, name) ? styles[name] : undefined;
    path += encodePathParameter(name, value, style) + (parts[i + 1] as string);
  }
  return path;
}
