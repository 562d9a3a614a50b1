/**
 * When a failed attempt is sent again, and after how long: an idempotent request after a 429,
 * 502, 503 or 504, a timeout or a network failure; any request whose failure proves it never left
 * this machine.
 */
import { ConnectionError, TimeoutError } from "./errors.js";
import { parseRetryAfter } from "./rate-limit.js";
import type { TransportConfig } from "./transport.js";

export const DEFAULT_MAX_RETRIES = 2;
const DEFAULT_RETRY_BASE_DELAY_MS = 500;
const DEFAULT_RETRY_MAX_DELAY_MS = 8_000;
export const DEFAULT_MAX_RETRY_AFTER_MS = 60_000;

export const IDEMPOTENT_METHODS: ReadonlySet<string> = new Set(["GET", "HEAD", "OPTIONS", "DELETE", "PUT"]);
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 502, 503, 504]);
/** Failures that prove the request never left this machine, so even a POST may be resent. */
const NOT_SENT_CODES: ReadonlySet<string> = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN"]);

/** Undefined when the server asks for a longer wait than we accept. */
export function retryDelayForResponse(
  response: Response,
  attempt: number,
  config: TransportConfig,
  maxRetryAfterMs: number,
): number | undefined {
  if (response.status === 429) {
    const retryAfterMs = parseRetryAfter(response.headers.get("retry-after"));
    if (retryAfterMs !== undefined) return retryAfterMs <= maxRetryAfterMs ? retryAfterMs : undefined;
  }
  return backoffDelayMs(attempt, config);
}

export function isRetryableFailure(error: unknown, idempotent: boolean): boolean {
  if (error instanceof ConnectionError) {
    return idempotent || (error.cause.code !== undefined && NOT_SENT_CODES.has(error.cause.code));
  }
  // A timed-out request may have been processed: only resend it when that is harmless.
  return error instanceof TimeoutError && idempotent;
}

/** Exponential backoff with full jitter: a random delay up to base·2^(attempt−1), capped. */
export function backoffDelayMs(
  attempt: number,
  config: Pick<TransportConfig, "retryBaseDelayMs" | "retryMaxDelayMs" | "random">,
): number {
  const base = config.retryBaseDelayMs ?? DEFAULT_RETRY_BASE_DELAY_MS;
  const max = config.retryMaxDelayMs ?? DEFAULT_RETRY_MAX_DELAY_MS;
  const ceiling = Math.min(max, base * 2 ** (attempt - 1));
  return Math.floor((config.random ?? Math.random)() * ceiling);
}
