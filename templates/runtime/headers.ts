/**
 * Request headers: the ones that authenticate a request, checked before any is sent, and the
 * caller's, copied as strings without any `Authorization` (the client's key is always the one sent).
 */
import { InvalidRequestError } from "./errors.js";
import type { TransportConfig } from "./transport.js";

/** The headers that authenticate a request, checked so a bad key never reaches a Headers error message. */
export function authenticationHeaders(config: TransportConfig): Record<string, string> {
  const authorization = `Bearer ${config.apiKey}`;
  if (!isHeaderValue(authorization)) {
    // The platform's message would quote the invalid value, which here is the key.
    throw new InvalidRequestError("apiKey contains characters that are not allowed in an HTTP header", { field: "apiKey" });
  }
  if (config.userAgent === undefined) return { Authorization: authorization };
  if (!isHeaderValue(config.userAgent)) {
    throw new InvalidRequestError("userAgent contains characters that are not allowed in an HTTP header", { field: "userAgent" });
  }
  return { Authorization: authorization, "X-Client-Name": config.userAgent };
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

/**
 * Copies headers as strings, leaving out undefined and null; any `Authorization` (in any case) is
 * dropped: the client's key is always the one sent.
 */
export function copyHeaders(from: object, into: Record<string, string>): void {
  for (const [name, value] of Object.entries(from)) {
    if (value === undefined || value === null || name.toLowerCase() === "authorization") continue;
    into[name] = String(value);
  }
}
