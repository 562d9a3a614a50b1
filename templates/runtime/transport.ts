/**
 * The client's fetch: adds authentication (headers.ts), then runs the call's
 * attempts (attempts.ts: a per-attempt timeout, cancellation, redirects, the body read within the
 * attempt, and safe retries). Returns every response (non-2xx included), its body read, and throws
 * only the typed errors of ./errors.js.
 */
import { CallAttempts, secretsOf } from "./attempts.js";
import { checkMaxResponseBytes } from "./client-options.js";
import { AbortedError } from "./errors.js";
import { authenticationHeaders } from "./headers.js";
import type { ClientHooks } from "./hooks.js";
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
  /**
   * Run around every attempt (hooks.ts): `onRequest` before it is sent, `onResponse` when its
   * answer arrives, `onError` when it fails. A list runs in its order.
   */
  hooks?: ClientHooks | readonly ClientHooks[] | undefined;
  /** Lower-case names of the headers credentials go in: hooks neither see nor set them. Default: `authorization`. */
  credentialHeaders?: ReadonlySet<string> | undefined;
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
    return new CallAttempts(config, call, input, callerSignals, { kind: "copy", request: input, headers, body }).run();
  };
}

/** A body that can be sent again as it is: not a stream, which is read once. */
export type ReusableBody = Exclude<BodyInit, ReadableStream>;

/** What the generated client sends: its URL and init, from which the transport builds each attempt. */
export interface PreparedRequest {
  method: string;
  /** With the credentials' headers set last, over any caller header: the transport adds none. */
  headers: Record<string, string>;
  body?: BodyInit | undefined;
  redirect?: RequestRedirect | undefined;
}

/**
 * One call prepared before anything is built: the transport hands the URL and init to the
 * platform's fetch as they are (which builds the one Request), or builds a Request for a custom
 * fetch; a retry sends them again with the reusable body.
 */
export interface PreparedCall {
  fetch(url: string, request: PreparedRequest): Promise<Response>;
}

/** Prepares one call. */
export function prepareCall(config: TransportConfig, call: CallOptions & { body?: ReusableBody } = {}): PreparedCall {
  checkTimeout("timeoutMs", call.timeoutMs);
  checkMaxResponseBytes(call.maxResponseBytes);
  return {
    async fetch(url: string, request: PreparedRequest): Promise<Response> {
      const method = request.method.toUpperCase();
      if (call.signal?.aborted) throw new AbortedError({ method, url: sanitizeUrl(url, secretsOf(config)), reason: call.signal.reason });
      let body = call.body;
      if (request.body !== undefined && body === undefined) {
        // A stream is read once: its bytes, read before the first attempt, go with every attempt.
        body = await new Response(request.body).arrayBuffer();
        request = { ...request, body };
      }
      const callerSignals = call.signal === undefined ? NO_SIGNALS : [call.signal];
      const input = { url, method, redirect: request.redirect ?? "follow", headers: request.headers };
      return new CallAttempts(config, call, input, callerSignals, { kind: "prepared", request, body }).run();
    },
  };
}

const NO_SIGNALS: readonly AbortSignal[] = [];
