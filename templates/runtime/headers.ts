/**
 * Request headers: the client's name, checked before any is sent, the caller's
 * and the header parameters (written in OpenAPI's `simple` style) without any header the client's
 * credentials go in, and the cookie parameters' `Cookie` header.
 */
import { InvalidRequestError } from "./errors.js";

/** Headers that can carry credentials: an error never keeps them, a hook never sees them. */
export const SENSITIVE_HEADERS: ReadonlySet<string> = new Set(["authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key"]);

/** Names a caller's own credential goes in by custom (`X-Auth-Token`, `Private-Token`, `X-Goog-Api-Key`…), beside SENSITIVE_HEADERS. */
const CREDENTIAL_NAME = /api[-_]?key|auth|token|secret|passw|session/i;

/** Whether a header the caller sets (per call, in the client's options or in a hook) may carry a credential, whose value is then redacted like a declared one. */
export function isCredentialHeader(name: string): boolean {
  return SENSITIVE_HEADERS.has(name.toLowerCase()) || CREDENTIAL_NAME.test(name);
}

/**
 * `X-Client-Name` when a `userAgent` is configured (browsers forbid setting User-Agent), checked so
 * a bad value is refused naming the option rather than failing on every call.
 */
export function clientNameHeaders(userAgent: string | undefined): Record<string, string> {
  if (userAgent === undefined) return {};
  if (!isHeaderValue(userAgent)) {
    throw new InvalidRequestError("userAgent contains characters that are not allowed in an HTTP header", { field: "userAgent" });
  }
  return { "X-Client-Name": userAgent };
}

/**
 * Whether `fetch` sends the text as a header value: no control character but tab (NUL, CR and LF
 * would split or end the header; Node's fetch refuses the others on every call) and nothing beyond
 * Latin-1 (headers are byte strings).
 */
export function isHeaderValue(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c > 255 || (c < 32 && c !== 9) || c === 127) return false;
  }
  return true;
}

const AUTHORIZATION_ONLY: ReadonlySet<string> = new Set(["authorization"]);

/** OpenAPI's `explode` of a header parameter, whose only style is `simple`. */
export interface HeaderStyle {
  explode: boolean;
}

/** An item of an array, or a property's value, as text: only primitives have one. */
function headerItem(name: string, value: unknown): string {
  if (value === null || (typeof value !== "string" && typeof value !== "number" && typeof value !== "bigint" && typeof value !== "boolean")) {
    throw new InvalidRequestError(`header parameter "${name}" must hold only strings, numbers, bigints or booleans`, { field: `header.${name}` });
  }
  return String(value);
}

/**
 * A header value in OpenAPI's `simple` style: a primitive as it is, an array `a,b`, an object
 * `k,v,k2,v2` (exploded: `k=v,k2=v2`); an empty array or object is an empty value, and an object's
 * properties whose value is undefined or null are left out. Not percent-encoded: a header is not
 * part of a URL.
 */
export function headerValue(name: string, value: unknown, style: HeaderStyle | undefined): string {
  if (typeof value !== "object" || value === null) return String(value);
  if (Array.isArray(value)) return value.map((item) => headerItem(name, item)).join(",");
  const entries = Object.entries(value as Record<string, unknown>).filter(([, item]) => item !== undefined && item !== null);
  if (style?.explode === true) return entries.map(([key, item]) => `${key}=${headerItem(name, item)}`).join(",");
  return entries.flatMap(([key, item]) => [key, headerItem(name, item)]).join(",");
}

/**
 * Copies headers, each written by `headerValue` (in its style from `styles`), leaving out undefined
 * and null, and any header (in any case) named in `credentialHeaders` (lowercase): the client's
 * credentials are always the ones sent.
 */
export function copyHeaders(
  from: object,
  into: Record<string, string>,
  credentialHeaders: ReadonlySet<string> = AUTHORIZATION_ONLY,
  styles?: Readonly<Record<string, HeaderStyle>>,
): void {
  for (const [name, value] of Object.entries(from)) {
    if (value === undefined || value === null || credentialHeaders.has(name.toLowerCase())) continue;
    // Lower case: a later name in another case replaces it, as Headers#set would, rather than both being sent.
    into[name.toLowerCase()] = headerValue(name, value, styles !== undefined && Object.hasOwn(styles, name) ? styles[name] : undefined);
  }
}

/** OpenAPI's `explode` of a cookie parameter, whose only style is `form`. */
export interface CookieStyle {
  explode: boolean;
}

/**
 * What RFC 6265 lets a cookie value hold (cookie-octet) less `%`, which starts an escape; a name
 * also loses `=`. Anything else is percent-encoded (UTF-8), so a value never ends its pair.
 */
const NOT_COOKIE_VALUE = /[^\x21\x23\x24\x26-\x2B\x2D-\x3A\x3C-\x5B\x5D-\x7E]/gu;
const NOT_COOKIE_NAME = /[^\x21\x23\x24\x26-\x2B\x2D-\x3A\x3C\x3E-\x5B\x5D-\x7E]/gu;

function cookieText(text: string, disallowed: RegExp, parameter: string): string {
  try {
    return text.replace(disallowed, encodeURIComponent);
  } catch {
    // encodeURIComponent throws on lone UTF-16 surrogates.
    throw new InvalidRequestError(`cookie parameter "${parameter}" must be well-formed Unicode`, { field: `cookie.${parameter}` });
  }
}

/**
 * The cookie parameters as one `Cookie` header value, each written in OpenAPI's `form` style:
 * `name=value`; an array `name=a,b` (exploded: `name=a; name=b`); an object `name=k,v,k2,v2`
 * (exploded: `k=v; k2=v2`). Undefined and null values, and empty arrays, are left out.
 */
export function cookieHeader(cookies: object, styles: Readonly<Record<string, CookieStyle>> | undefined): string {
  const pairs: string[] = [];
  const pair = (name: string, value: string, parameter: string) => pairs.push(`${cookieText(name, NOT_COOKIE_NAME, parameter)}=${value}`);
  const value = (item: unknown, parameter: string) => cookieText(String(item), NOT_COOKIE_VALUE, parameter);
  for (const [name, given] of Object.entries(cookies)) {
    if (given === undefined || given === null) continue;
    const explode = styles?.[name]?.explode ?? true;
    if (Array.isArray(given)) {
      if (given.length === 0) continue;
      if (explode) for (const item of given) pair(name, value(item, name), name);
      else pair(name, given.map((item) => value(item, name)).join(","), name);
    } else if (typeof given === "object") {
      const entries = Object.entries(given as Record<string, unknown>).filter(([, item]) => item !== undefined);
      if (explode) for (const [key, item] of entries) pair(key, value(item, name), name);
      else pair(name, entries.flatMap(([key, item]) => [value(key, name), value(item, name)]).join(","), name);
    } else {
      pair(name, value(given, name), name);
    }
  }
  return pairs.join("; ");
}

/** Adds cookie pairs to the `Cookie` header, after any the caller set (the record holds lower-case names: copyHeaders). */
export function appendCookies(headers: Record<string, string>, cookies: string): void {
  if (cookies === "") return;
  headers["cookie"] = headers["cookie"] === undefined ? cookies : `${headers["cookie"]}; ${cookies}`;
}
