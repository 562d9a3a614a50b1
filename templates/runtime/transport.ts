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
import { checkTimeout } from "./signals.js";
import type { CallOptions, PreparedCall, PreparedRequest, ReusableBody, TransportConfig } from "./transport-types.js";
import { sanitizeUrl } from "./urls.js";

// The generated index exports the logger type from here.
export type { Logger } from "./transport-types.js";

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
