/**
 * The transport: one call prepared, then its attempts run (attempts.ts: a per-attempt timeout,
 * cancellation, redirects, the body read within the attempt, and safe retries). It hands back the
 * answer it read (non-2xx included) and throws only the typed errors of ./errors.js. It adds no
 * header: the client core prepares every one, its credentials included.
 */
import { CallAttempts, secretsOf } from "./attempts.js";
import { checkMaxResponseBytes } from "./client-options.js";
import { AbortedError } from "./errors.js";
import { checkTimeout } from "./signals.js";
import type { Answer, CallOptions, PreparedCall, PreparedRequest, ReusableBody, TransportConfig } from "./transport-types.js";
import { sanitizeUrl } from "./urls.js";

// The generated index exports the logger type from here.
export type { Logger } from "./transport-types.js";

/** Prepares one call; `body`, when given, is the request's body in a form every attempt can send. */
export function prepareCall(config: TransportConfig, call: CallOptions & { body?: ReusableBody } = {}): PreparedCall {
  checkTimeout("timeoutMs", call.timeoutMs);
  checkMaxResponseBytes(call.maxResponseBytes);
  return {
    async fetch(url: string, request: PreparedRequest): Promise<Answer> {
      if (call.signal?.aborted) throw new AbortedError({ method: request.method.toUpperCase(), url: sanitizeUrl(url, secretsOf(config)), reason: call.signal.reason });
      let body = call.body;
      if (request.body !== undefined && body === undefined) {
        // A stream is read once: its bytes, read before the first attempt, go with every attempt.
        body = await new Response(request.body).arrayBuffer();
        request = { ...request, body };
      }
      return new CallAttempts(config, call, url, request, body).run();
    },
  };
}
