/**
 * The fetch handed to openapi-fetch: adds authentication (headers.ts), then runs the call's
 * attempts (attempts.ts: a per-attempt timeout, cancellation, redirects, the body read within the
 * attempt, and safe retries). Returns every response (non-2xx included), its body read, and throws
 * only the typed errors of ./errors.js.
 */
import { CallAttempts, secretsOf } from "./attempts.js";
import { checkMaxResponseBytes } from "./client-options.js";
import { AbortedError } from "./errors.js";
import { authenticationHeaders } from "./headers.js";
import { checkTimeout } from "./signals.js";
import { sanitizeUrl } from "./urls.js";

export interface Logger {
  debug?(message: string, fields?: Record<string, unknown>): void;
  warn?(message: string, fields?: Record<string, unknown>): void;
}

export interface TransportConfig {
  /** Sent as `Authorization: Bearer` by a bare transport; the generated client sets its credentials itself. */
  apiKey?: string | undefined;
  /**
   * Every credential in the forms it is sent in, blanked out of errors and log lines (URLs and
   * causes included). Default: the `apiKey`.
   */
  secrets?: readonly string[] | undefined;
  /**
   * Default `globalThis.fetch`, looked up at call time so it can be replaced later. A custom one
   * must honour the Request's `signal` and `redirect` (the transport follows some redirects itself).
   */
  fetch?: ((request: Request) => Promise<Response>) | undefined;
  /**
   * Per attempt, until the response has been read (its headers and its body, which the transport
   * reads within the attempt); 0 disables it. Default 60 000.
   */
  timeoutMs?: number | undefined;
  /** Default 2. */
  maxRetries?: number | undefined;
  /** Default 500. */
  retryBaseDelayMs?: number | undefined;
  /** Default 8 000. */
  retryMaxDelayMs?: number | undefined;
  /** A 429 or 503 asking to wait longer than this is returned, not retried. Default 60 000. */
  maxRetryAfterMs?: number | undefined;
  /**
   * The most of a 2xx body read: a longer one (or one that never ends) stops there with a
   * `ResponseTooLargeError`. Default 64 MiB.
   */
  maxResponseBytes?: number | undefined;
  logger?: Logger | undefined;
  /** For tests; default Math.random. */
  random?: (() => number) | undefined;
  /** Sent as `X-Client-Name`: browsers forbid setting User-Agent. */
  userAgent?: string | undefined;
  /** Starts every log message: the generated client sets its package name. */
  logName?: string | undefined;
}

export interface CallOptions {
  signal?: AbortSignal | undefined;
  timeoutMs?: number | undefined;
  maxRetries?: number | undefined;
  maxResponseBytes?: number | undefined;
  operationId?: string | undefined;
  /** Overrides the method's own idempotency, e.g. for a POST with an idempotency key. */
  idempotent?: boolean | undefined;
}

/**
 * A fetch for any Request: a copy of it with the key set when the config has one (any
 * Authorization the caller set is then replaced) is sent on every attempt. The body is read once so
 * that every attempt sends the same bytes.
 */
export function createTransportFetch(config: TransportConfig, call: CallOptions = {}): (input: Request) => Promise<Response> {
  return async function transportFetch(input: Request): Promise<Response> {
    // Both the call options and the Request (openapi-fetch's `signal` option) may carry a signal.
    const callerSignals = [call.signal, input.signal].filter((signal): signal is AbortSignal => signal !== undefined);
    const abortedSignal = callerSignals.find((signal) => signal.aborted);
    if (abortedSignal !== undefined) throw new AbortedError({ method: input.method, url: sanitizeUrl(input.url, secretsOf(config)), reason: abortedSignal.reason });
    const headers = new Headers(input.headers);
    for (const [name, value] of Object.entries(authenticationHeaders(config))) headers.set(name, value);
    const body = input.body === null ? undefined : await input.arrayBuffer();
    return new CallAttempts(config, call, input, callerSignals, { kind: "copy", headers, body }).run();
  };
}

/** A body that can be sent again as it is: not a stream, which is read once. */
export type ReusableBody = Exclude<BodyInit, ReadableStream>;

/**
 * One call prepared before its Request exists (the generated client's path): for a custom fetch,
 * the signal to build the Request with, and the fetch to hand it to. The first attempt sends that
 * Request as it is, with no copy; a retry sends it again with the reusable body.
 */
export interface PreparedCall {
  /**
   * The signal to build the Request with, when a custom `fetch` is configured (it only sees the
   * Request). With the platform's fetch it is undefined: the signal goes to `fetch(request, { signal })`
   * instead, which spares a Request that follows a signal (the costliest part of building one).
   */
  signal: AbortSignal | undefined;
  fetch: (input: Request) => Promise<Response>;
}

/**
 * Prepares one call. The caller builds the Request with its credentials' headers (computed once
 * per client) set last, over any caller header: this path sends it without adding them.
 */
export function prepareCall(config: TransportConfig, call: CallOptions & { body?: ReusableBody } = {}): PreparedCall {
  checkTimeout("timeoutMs", call.timeoutMs);
  checkMaxResponseBytes(call.maxResponseBytes);
  const first = new AbortController();
  const viaInit = config.fetch === undefined;
  let used = false;
  return {
    signal: viaInit ? undefined : first.signal,
    fetch(input: Request): Promise<Response> {
      // Once: a second call of this fetch (a middleware resending) takes the copying path.
      if (used || (input.body !== null && call.body === undefined)) return createTransportFetch(config, call)(input);
      used = true;
      if (call.signal?.aborted) {
        return Promise.reject(new AbortedError({ method: input.method, url: sanitizeUrl(input.url, secretsOf(config)), reason: call.signal.reason }));
      }
      const callerSignals = call.signal === undefined ? NO_SIGNALS : [call.signal];
      return new CallAttempts(config, call, input, callerSignals, { kind: "prepared", first, viaInit, body: call.body }).run();
    },
  };
}

const NO_SIGNALS: readonly AbortSignal[] = [];
