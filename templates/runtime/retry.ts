/**
 * The one retry rule. An idempotent call (IDEMPOTENT_METHODS, or `idempotent: true`: one that
 * sends an idempotency key, idempotency.ts) is sent again after a 429, 502, 503 or 504, and after
 * any failure of an attempt: a network error, a timeout, a body cut or stalled (the body is read
 * within the attempt). A call that is not idempotent is sent again only when its failure proves
 * nothing reached a server: its connection was refused (or its host not found) on the first hop.
 * The wait is what the server asks (`requestedWaitMs`) within `maxRetryAfterMs`, else an
 * exponential backoff.
 */
import { ConnectionError, TimeoutError } from "./errors.js";
import { requestedWaitMs } from "./rate-limit.js";
import type { TransportConfig } from "./transport-types.js";

export const DEFAULT_MAX_RETRIES = 2;
const DEFAULT_RETRY_BASE_DELAY_MS = 500;
const DEFAULT_RETRY_MAX_DELAY_MS = 8_000;
export const DEFAULT_MAX_RETRY_AFTER_MS = 60_000;

export const IDEMPOTENT_METHODS: ReadonlySet<string> = new Set(["GET", "HEAD", "OPTIONS", "DELETE", "PUT"]);
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 502, 503, 504]);
/** Failures that prove a connection never opened, so the request did not leave this machine. */
const NOT_SENT_CODES: ReadonlySet<string> = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN"]);

/**
 * The wait before sending again after a retryable status: what the server asks, or the backoff when
 * it asks nothing. `tooLong` when it asks more than `maxRetryAfterMs`: then the response is the answer.
 */
export function retryDelayForResponse(
  response: Response,
  attempt: number,
  config: TransportConfig,
  maxRetryAfterMs: number,
  now: number = Date.now(),
): { delayMs: number } | { tooLong: number } {
  const asked = requestedWaitMs(response.status, response.headers, now);
  if (asked === undefined) return { delayMs: backoffDelayMs(attempt, config) };
  return asked <= maxRetryAfterMs ? { delayMs: asked } : { tooLong: asked };
}

/**
 * Whether a failed attempt may be sent again. `firstHop`: it failed before any answer, on the
 * first hop (no redirect followed out of the transport's sight), so a refused connection there
 * proves that nothing was sent.
 */
export function isRetryableFailure(error: unknown, idempotent: boolean, firstHop: boolean): boolean {
  if (error instanceof ConnectionError) {
    return idempotent || (firstHop && error.cause.code !== undefined && NOT_SENT_CODES.has(error.cause.code));
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
