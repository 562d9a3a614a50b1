/**
 * The fetch handed to openapi-fetch: adds authentication, a per-attempt
 * timeout, cancellation and safe retries. Returns every response (non-2xx
 * included) and throws only the typed errors of ./errors.js.
 */
import {
  AbortedError,
  ConnectionError,
  InvalidRequestError,
  TimeoutError,
  redactSecrets,
  sanitizeUrl,
} from "./errors.js";
import type { SanitizedCause } from "./errors.js";
import { parseRetryAfter } from "./rate-limit.js";

export interface Logger {
  debug?(message: string, fields?: Record<string, unknown>): void;
  warn?(message: string, fields?: Record<string, unknown>): void;
}

export interface TransportConfig {
  apiKey: string;
  /** Default `globalThis.fetch`, looked up at call time so it can be replaced later. */
  fetch?: (request: Request) => Promise<Response>;
  /** Per attempt, until the response headers arrive; 0 disables it. Default 60 000. */
  timeoutMs?: number;
  /** Default 2. */
  maxRetries?: number;
  /** Default 500. */
  retryBaseDelayMs?: number;
  /** Default 8 000. */
  retryMaxDelayMs?: number;
  /** A 429 asking to wait longer than this is returned, not retried. Default 60 000. */
  maxRetryAfterMs?: number;
  logger?: Logger;
  /** For tests; default Math.random. */
  random?: () => number;
  /** Sent as `X-Client-Name`: browsers forbid setting User-Agent. */
  userAgent?: string;
}

export interface CallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  maxRetries?: number;
  operationId?: string;
  /** Overrides the method's own idempotency, e.g. for a POST with an idempotency key. */
  idempotent?: boolean;
}

const DEFAULT_TIMEOUT_MS = 60_000;
const DEFAULT_MAX_RETRIES = 2;
const DEFAULT_RETRY_BASE_DELAY_MS = 500;
const DEFAULT_RETRY_MAX_DELAY_MS = 8_000;
const DEFAULT_MAX_RETRY_AFTER_MS = 60_000;

const IDEMPOTENT_METHODS: ReadonlySet<string> = new Set(["GET", "HEAD", "OPTIONS", "DELETE", "PUT"]);
const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 502, 503, 504]);
/** Failures that prove the request never left this machine, so even a POST may be resent. */
const NOT_SENT_CODES: ReadonlySet<string> = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN"]);

export function createTransportFetch(config: TransportConfig, call: CallOptions = {}): (input: Request) => Promise<Response> {
  return async function transportFetch(input: Request): Promise<Response> {
    const method = input.method.toUpperCase();
    // Sanitised only when a log line or an error needs it: most calls need neither.
    let sanitized: string | undefined;
    const target = {
      method,
      get url(): string {
        return (sanitized ??= sanitizeUrl(input.url));
      },
    };
    const timeoutMs = call.timeoutMs ?? config.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const maxRetries = call.maxRetries ?? config.maxRetries ?? DEFAULT_MAX_RETRIES;
    const maxRetryAfterMs = config.maxRetryAfterMs ?? DEFAULT_MAX_RETRY_AFTER_MS;
    const idempotent = call.idempotent ?? IDEMPOTENT_METHODS.has(method);
    const log = (fields: Record<string, unknown>): void =>
      config.logger?.debug?.("gpu-cloud request attempt", { method, url: target.url, ...fields });

    // Both the call options and the Request (openapi-fetch's `signal` option) may carry a signal.
    const callerSignals = [call.signal, input.signal].filter((signal): signal is AbortSignal => signal !== undefined);
    const aborted = (): AbortedError =>
      new AbortedError({ method, url: target.url, reason: callerSignals.find((signal) => signal.aborted)?.reason });

    if (callerSignals.some((signal) => signal.aborted)) throw aborted();
    // Read the body once so that every attempt can send the same bytes.
    const init = {
      headers: authenticatedHeaders(input.headers, config),
      body: input.body === null ? undefined : await input.arrayBuffer(),
    };

    for (let attempt = 1; ; attempt++) {
      const retriesLeft = attempt <= maxRetries;
      let delayMs: number | undefined;
      try {
        const response = await sendAttempt(config, input, init, callerSignals, timeoutMs, target);
        if (retriesLeft && idempotent && RETRYABLE_STATUSES.has(response.status)) {
          delayMs = retryDelayForResponse(response, attempt, config, maxRetryAfterMs);
          if (delayMs === undefined) {
            config.logger?.warn?.("gpu-cloud Retry-After exceeds maxRetryAfterMs; not retrying", {
              method,
              url: target.url,
              retryAfter: response.headers.get("retry-after"),
              maxRetryAfterMs,
            });
          }
        }
        log({ attempt, status: response.status, delayMs });
        if (delayMs === undefined) return response;
        await response.body?.cancel().catch(() => undefined); // frees the connection for reuse
      } catch (error) {
        if (!(retriesLeft && isRetryableFailure(error, idempotent))) {
          log({ attempt, error: describeFailure(error) });
          throw error;
        }
        delayMs = backoffDelayMs(attempt, config);
        log({ attempt, error: describeFailure(error), delayMs });
      }
      const wait = linkSignals(callerSignals);
      try {
        await sleep(delayMs, wait.controller.signal);
      } catch {
        throw aborted();
      } finally {
        wait.dispose();
      }
    }
  };
}

/** A copy of the request headers with ours set, overwriting any caller-provided credentials. */
function authenticatedHeaders(original: Headers, config: TransportConfig): Headers {
  const headers = new Headers(original);
  try {
    headers.set("Authorization", `Bearer ${config.apiKey}`);
  } catch {
    // The platform's message quotes the invalid value, which here is the key.
    throw new InvalidRequestError("apiKey contains characters that are not allowed in an HTTP header", {
      field: "apiKey",
    });
  }
  if (config.userAgent !== undefined) headers.set("X-Client-Name", config.userAgent);
  return headers;
}

/**
 * One attempt under its own AbortController, fed by the caller's signals and
 * the timeout timer; both are detached whatever happens.
 */
async function sendAttempt(
  config: TransportConfig,
  input: Request,
  init: { headers: Headers; body: ArrayBuffer | undefined },
  callerSignals: readonly AbortSignal[],
  timeoutMs: number,
  target: { method: string; url: string },
): Promise<Response> {
  const attempt = linkSignals(callerSignals);
  let timedOut = false;
  const timer =
    timeoutMs > 0
      ? setTimeout(() => {
          timedOut = true;
          attempt.controller.abort();
        }, timeoutMs)
      : undefined;
  try {
    const fetchImpl = config.fetch ?? globalThis.fetch;
    return await fetchImpl(new Request(input, { ...init, signal: attempt.controller.signal }));
  } catch (error) {
    const callerAbort = callerSignals.find((signal) => signal.aborted);
    const { method, url } = target;
    if (callerAbort !== undefined) throw new AbortedError({ method, url, reason: callerAbort.reason });
    if (timedOut) throw new TimeoutError({ method, url, timeoutMs });
    throw new ConnectionError({ method, url, cause: sanitizeCause(error, config.apiKey) });
  } finally {
    clearTimeout(timer);
    attempt.dispose();
  }
}

/** Undefined when the server asks for a longer wait than we accept. */
function retryDelayForResponse(
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

function isRetryableFailure(error: unknown, idempotent: boolean): boolean {
  if (error instanceof ConnectionError) {
    return idempotent || (error.cause.code !== undefined && NOT_SENT_CODES.has(error.cause.code));
  }
  // A timed-out request may have been processed: only resend it when that is harmless.
  return error instanceof TimeoutError && idempotent;
}

function describeFailure(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/**
 * Name, message and code of the most specific error in the cause chain
 * (Node's fetch throws "fetch failed" with the system error as its cause).
 */
function sanitizeCause(error: unknown, apiKey: string): SanitizedCause {
  let specific: unknown = error;
  let code: string | undefined;
  for (let depth = 0; depth < 5 && typeof specific === "object" && specific !== null; depth++) {
    const candidate = specific as { code?: unknown; cause?: unknown };
    if (code === undefined && typeof candidate.code === "string") code = candidate.code;
    if (!(candidate.cause instanceof Error)) break;
    specific = candidate.cause;
  }
  const name = specific instanceof Error ? specific.name : "Error";
  const message = specific instanceof Error ? specific.message : String(specific);
  return { name, message: redactSecrets(message, [apiKey]), ...(code === undefined ? {} : { code }) };
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

/** Resolves after `ms`; rejects with an AbortedError as soon as `signal` aborts, leaving no timer or listener behind. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new AbortedError({ reason: signal.reason }));
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new AbortedError({ reason: signal?.reason }));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * A controller that aborts when any of `signals` does (and can be aborted on
 * its own); `dispose` detaches it, so long-lived caller signals collect no listeners.
 */
function linkSignals(signals: readonly AbortSignal[]): { controller: AbortController; dispose(): void } {
  const controller = new AbortController();
  const listeners = signals.map((source) => {
    const onAbort = (): void => controller.abort(source.reason);
    if (source.aborted) onAbort();
    else source.addEventListener("abort", onAbort, { once: true });
    return { source, onAbort };
  });
  return {
    controller,
    dispose: () => {
      for (const { source, onAbort } of listeners) source.removeEventListener("abort", onAbort);
    },
  };
}
