/**
 * Idempotency keys: an operation whose contract declares a header for one (`Idempotency-Key` and
 * the like) sends one key per call, the caller's or one made here, in the headers every attempt
 * sends, so a server that saw an earlier attempt does the work once. Such a call may then be retried
 * like a GET (retry.ts); without a key, a POST that may have reached the server is never resent.
 */
import { InvalidRequestError } from "./errors.js";
import { isHeaderValue } from "./headers.js";

/**
 * Puts the call's key in `headers` (lower-case names; a key the caller gave, as the header
 * parameter or among the call's headers, is sent as it is) and says whether the call may be
 * retried as idempotent. `optOut` (the call's `idempotencyKey: false`): no key is made, and the call
 * is retried only where its method allows.
 */
export function withIdempotencyKey(header: string, headers: Record<string, string>, optOut: boolean): boolean {
  if (optOut) return false;
  const given = headers[header];
  if (given === undefined) {
    headers[header] = newKey();
    return true;
  }
  // Checked here, without the value in the message: fetch would refuse it in an error quoting it.
  if (given === "" || !isHeaderValue(given)) {
    throw new InvalidRequestError(`header parameter "${header}" (the idempotency key) must be a non-empty header value: no control characters, nothing beyond Latin-1`, { field: `header.${header}` });
  }
  return true;
}

/**
 * A random UUID (version 4). `crypto.randomUUID` exists in Node and in a browser's secure contexts
 * only; `getRandomValues`, in every context, makes the same from 16 random bytes.
 */
function newKey(): string {
  const { crypto } = globalThis;
  if (typeof crypto.randomUUID === "function") return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = [...bytes].map((byte) => byte.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
