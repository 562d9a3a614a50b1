/**
 * Which operation a request is for, and its parameters as the operation's validator takes them
 * (`{ path, query, header, cookie, body }`), read back from what the client wrote. A server's base
 * path is unknown here, so a path template matches the end of the request's path; where several
 * do, the one with the most literal text wins.
 */
import { mediaTypeKind } from "../media-types.js";
import type { OperationParams, OperationSpec } from "../operation-spec.js";
import type { ValidationIssue } from "../validation.js";

/** Parameter names per location, as the contract writes them. */
export type ParameterNames = Readonly<Partial<Record<"path" | "query" | "header" | "cookie", readonly string[]>>>;

/** A compiled path template: its segments' patterns and the names they capture. */
export interface Route {
  spec: OperationSpec;
  segments: ReadonlyArray<{ pattern: RegExp; names: readonly string[] }>;
  /** Literal characters of the template: the more, the more specific. */
  weight: number;
}

export function compileRoute(spec: OperationSpec): Route {
  const parts = spec.path.split("/").filter((part) => part !== "");
  let weight = 0;
  const segments = parts.map((part) => {
    const names: string[] = [];
    let source = "";
    for (const piece of part.split(/(\{[^}]*\})/)) {
      if (piece.startsWith("{") && piece.endsWith("}")) {
        names.push(piece.slice(1, -1));
        source += "([^/]+?)";
      } else {
        weight += piece.length;
        source += piece.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      }
    }
    return { pattern: new RegExp(`^${source}$`), names };
  });
  return { spec, segments, weight };
}

/** The path parameters (still percent-encoded) when `route` matches the end of `pathname`. */
export function matchRoute(route: Route, pathname: string): Record<string, string> | undefined {
  const parts = pathname.split("/").filter((part) => part !== "");
  const offset = parts.length - route.segments.length;
  if (offset < 0) return undefined;
  const captured: Record<string, string> = {};
  for (const [index, segment] of route.segments.entries()) {
    const match = segment.pattern.exec(parts[offset + index]!);
    if (match === null) return undefined;
    segment.names.forEach((name, n) => define(captured, name, match[n + 1]!));
  }
  return captured;
}

/** A request's parameters and body, grouped as the operation's validator takes them. */
export async function readParams(request: Request, spec: OperationSpec, names: ParameterNames, pathParams: Record<string, string>): Promise<{ params: OperationParams; unreadBody: boolean }> {
  const url = new URL(request.url);
  const params: OperationParams = {};
  const path: Record<string, unknown> = {};
  for (const [name, text] of Object.entries(pathParams)) define(path, name, pathValue(name, decode(text), spec.pathStyles?.[name]?.style));
  if (Object.keys(path).length > 0) params.path = path;
  const query: Record<string, unknown> = {};
  for (const name of names.query ?? []) {
    const style = spec.queryStyles?.[name];
    if (style?.style === "deepObject") {
      const object: Record<string, string> = {};
      for (const [key, value] of url.searchParams) {
        const inner = key.startsWith(`${name}[`) && key.endsWith("]") ? key.slice(name.length + 1, -1) : undefined;
        if (inner !== undefined) define(object, inner, value);
      }
      if (Object.keys(object).length > 0) define(query, name, object);
      continue;
    }
    const values = url.searchParams.getAll(name);
    if (values.length === 1) define(query, name, values[0]);
    else if (values.length > 1) define(query, name, values);
  }
  if (Object.keys(query).length > 0) params.query = query;
  const header: Record<string, unknown> = {};
  for (const name of names.header ?? []) {
    const value = request.headers.get(name);
    if (value !== null) define(header, name, value);
  }
  if (Object.keys(header).length > 0) params.header = header;
  const cookies = readCookies(request.headers.get("cookie"));
  const cookie: Record<string, unknown> = {};
  for (const name of names.cookie ?? []) if (cookies.has(name)) define(cookie, name, cookies.get(name));
  if (Object.keys(cookie).length > 0) params.cookie = cookie;
  for (const [location, parameters] of Object.entries(spec.contentParameters ?? {})) {
    const group = (params as Record<string, Record<string, unknown> | undefined>)[location];
    for (const [name, mediaType] of Object.entries(parameters ?? {})) {
      if (group?.[name] !== undefined && mediaTypeKind(mediaType) === "json") group[name] = parseJson(String(group[name]));
    }
  }
  const body = await readBody(request, spec.requestMediaType);
  if (body.value !== undefined) params.body = body.value;
  return { params, unreadBody: body.unread };
}

/**
 * The issues of `params`, after trying, for each parameter an issue names, the values its text could
 * have meant (a number, a boolean, a list written with commas…): the wire holds only text.
 */
export function checkParams(validate: ((params: unknown) => ValidationIssue[]) | undefined, params: OperationParams, spec: OperationSpec): ValidationIssue[] {
  if (validate === undefined) return [];
  let issues = validate(params);
  const tried = new Set<string>();
  for (let issue = nextParameterIssue(issues, tried); issue !== undefined; issue = nextParameterIssue(issues, tried)) {
    const [location, name] = issue;
    tried.add(`${location}/${name}`);
    const group = (params as Record<string, Record<string, unknown>>)[location]!;
    const given = group[name];
    const separator = location === "query" ? querySeparator(spec.queryStyles?.[name]?.style) : ",";
    for (const candidate of readings(given, separator)) {
      group[name] = candidate;
      const next = validate(params);
      if (!next.some((found) => parameterOf(found.path)?.join("/") === `${location}/${name}`)) {
        issues = next;
        break;
      }
      group[name] = given;
    }
  }
  return issues;
}

/** The first issue about a parameter (`/query/limit…`) not tried yet: its location and name. */
function nextParameterIssue(issues: readonly ValidationIssue[], tried: ReadonlySet<string>): [string, string] | undefined {
  for (const issue of issues) {
    const parameter = parameterOf(issue.path);
    if (parameter !== undefined && !tried.has(parameter.join("/"))) return parameter;
  }
  return undefined;
}

function parameterOf(pointer: string): [string, string] | undefined {
  const [, location, name] = pointer.split("/");
  if (location === undefined || name === undefined || !["path", "query", "header", "cookie"].includes(location)) return undefined;
  return [location, name.replace(/~1/g, "/").replace(/~0/g, "~")];
}

function querySeparator(style: string | undefined): string {
  return style === "spaceDelimited" ? " " : style === "pipeDelimited" ? "|" : ",";
}

/** What a parameter's text may stand for, most literal first. */
function readings(given: unknown, separator: string): unknown[] {
  if (Array.isArray(given)) return [given.map(scalar)];
  if (typeof given !== "string") return [];
  const parts = given === "" ? [] : given.split(separator);
  return [scalar(given), parts.map(scalar), parts, [given], [scalar(given)], pairs(parts)];
}

/** `a,1,b,2` (an object written without explode) as `{ a: 1, b: 2 }`. */
function pairs(parts: readonly string[]): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  for (let index = 0; index + 1 < parts.length; index += 2) define(object, parts[index]!, scalar(parts[index + 1]!));
  return object;
}

function scalar(text: unknown): unknown {
  if (typeof text !== "string") return text;
  if (/^-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?$/.test(text)) return Number(text);
  if (text === "true" || text === "false") return text === "true";
  if (text === "null") return null;
  return text;
}

function pathValue(name: string, text: string, style: string | undefined): string {
  if (style === "label" && text.startsWith(".")) return text.slice(1);
  if (style === "matrix" && text.startsWith(`;${name}=`)) return text.slice(name.length + 2);
  return text;
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Sets an own property, whatever its name (`__proto__` included, which assignment would take as the prototype). */
function define(object: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function readCookies(header: string | null): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const pair of header?.split(";") ?? []) {
    const at = pair.indexOf("=");
    if (at > 0) cookies.set(pair.slice(0, at).trim(), decode(pair.slice(at + 1).trim()));
  }
  return cookies;
}

/**
 * The body as the validator takes it: JSON parsed, text, a form as an object. Bytes (and a JSON body
 * that does not parse, kept as its text) are `unread`: the kit says so rather than check them.
 */
async function readBody(request: Request, mediaType: string | undefined): Promise<{ value: unknown; unread: boolean }> {
  if (request.body === null) return { value: undefined, unread: false };
  const kind = mediaTypeKind(mediaType ?? request.headers.get("content-type") ?? "application/octet-stream");
  if (kind === "json") {
    const text = await request.text();
    if (text === "") return { value: undefined, unread: false };
    try {
      return { value: JSON.parse(text), unread: false };
    } catch {
      return { value: text, unread: false };
    }
  }
  if (kind === "text") return { value: await request.text(), unread: false };
  if (kind === "form") {
    const value: Record<string, unknown> = {};
    for (const [name, entry] of new URLSearchParams(await request.text())) define(value, name, entry);
    return { value, unread: false };
  }
  if (kind === "multipart") {
    const form = await request.formData();
    const value: Record<string, unknown> = {};
    for (const [name, entry] of form) {
      const previous = value[name];
      define(value, name, previous === undefined ? entry : Array.isArray(previous) ? [...previous, entry] : [previous, entry]);
    }
    return { value, unread: true };
  }
  await request.arrayBuffer();
  return { value: undefined, unread: true };
}
