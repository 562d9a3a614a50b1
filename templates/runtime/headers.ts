/**
 * Request headers: the ones that authenticate a request, checked before any is sent, and the
 * caller's, copied as strings without any header the client's credentials go in.
 */
import { InvalidRequestError } from "./errors.js";
import type { TransportConfig } from "./transport.js";

/**
 * The headers a bare transport adds (`Authorization: Bearer` when it has a key, `X-Client-Name`),
 * checked so a bad key never reaches a Headers error message.
 */
export function authenticationHeaders(config: Pick<TransportConfig, "apiKey" | "userAgent">): Record<string, string> {
  const headers: Record<string, string> = {};
  if (config.apiKey !== undefined) {
    const authorization = `Bearer ${config.apiKey}`;
    if (!isHeaderValue(authorization)) {
      // The platform's message would quote the invalid value, which here is the key.
      throw new InvalidRequestError("apiKey contains characters that are not allowed in an HTTP header", { field: "apiKey" });
    }
    headers["Authorization"] = authorization;
  }
  if (config.userAgent === undefined) return headers;
  if (!isHeaderValue(config.userAgent)) {
    throw new InvalidRequestError("userAgent contains characters that are not allowed in an HTTP header", { field: "userAgent" });
  }
  headers["X-Client-Name"] = config.userAgent;
  return headers;
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

/**
 * Copies headers as strings, leaving out undefined and null, and any header (in any case) named in
 * `credentialHeaders` (lowercase): the client's credentials are always the ones sent.
 */
export function copyHeaders(from: object, into: Record<string, string>, credentialHeaders: ReadonlySet<string> = AUTHORIZATION_ONLY): void {
  for (const [name, value] of Object.entries(from)) {
    if (value === undefined || value === null || credentialHeaders.has(name.toLowerCase())) continue;
    into[name] = String(value);
  }
}
