/**
 * A `fetch` answered in memory by a script, for tests on vitest's fake timers: no socket, so every
 * delay (an answer's, a timeout's, a pause between retries or polls) is simulated, and what a test
 * proves about time holds however fast or loaded the machine is. A request the script leaves
 * `"silent"` is never answered: it rejects when its signal aborts, as the platform's fetch does.
 */
import { vi } from "vitest";

export interface ScriptedRequest {
  method: string;
  url: string;
  /** The path without the query. */
  path: string;
  headers: Headers;
  body: string;
  /** `Date.now()` when it arrived (the fake clock's). */
  at: number;
  /** The request's signal: a reply's body can end with it, as the platform's does. */
  signal: AbortSignal;
}

/** An answer now, an answer after `delayMs` of the fake clock, or none ever. */
export type ScriptedReply = Response | { delayMs: number; response: Response } | "silent";

export interface ScriptedFetch {
  fetch: typeof fetch;
  requests: ScriptedRequest[];
}

/** `reply` gets each request and its number (from 1). */
export function scriptedFetch(reply: (request: ScriptedRequest, n: number) => ScriptedReply): ScriptedFetch {
  const requests: ScriptedRequest[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    const recorded = { method: request.method, url: request.url, path: url.pathname, headers: request.headers, body: await request.text(), at: Date.now(), signal: request.signal };
    requests.push(recorded);
    const answer = reply(recorded, requests.length);
    const signal = request.signal;
    if (answer instanceof Response) return answer;
    return new Promise<Response>((resolve, reject) => {
      const timer = answer === "silent" ? undefined : setTimeout(() => finish(() => resolve(answer.response)), answer.delayMs);
      const onAbort = () => finish(() => reject(signal.reason));
      const finish = (settle: () => void) => {
        clearTimeout(timer);
        signal.removeEventListener("abort", onAbort);
        settle();
      };
      if (signal.aborted) return onAbort();
      signal.addEventListener("abort", onAbort);
    });
  };
  return { fetch: fetch as typeof globalThis.fetch, requests };
}

export const jsonResponse = (status: number, body: unknown, headers: Record<string, string> = {}): Response =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": status >= 400 ? "application/problem+json" : "application/json", ...headers } });

/**
 * Headers and the start of a body, then nothing more: the body errors when `request`'s signal
 * aborts (a timeout or the caller), as the platform's fetch ends one.
 */
export function stalledResponse(request: ScriptedRequest, status: number, start: string, headers: Record<string, string> = { "content-type": "application/json" }): Response {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(start));
      const onAbort = () => controller.error(request.signal.reason);
      if (request.signal.aborted) onAbort();
      else request.signal.addEventListener("abort", onAbort, { once: true });
    },
  });
  return new Response(body, { status, headers });
}

/**
 * Runs the fake clock from timer to timer until `promise` settles, then gives its outcome: the
 * time a call took is then the fake clock's, whatever the machine's speed.
 */
export async function driven<T>(promise: Promise<T>): Promise<T> {
  let settled = false;
  promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  while (!settled) await vi.advanceTimersToNextTimerAsync();
  return promise;
}
