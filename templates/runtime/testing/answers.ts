/**
 * What the test kit answers with: a scripted or documented answer turned into a `Response`, after
 * its delay on the test's clock, or the fault it asks for (the connection refused or dropped before
 * the answer, cut in the middle of its body, never answered).
 */
import { mediaTypeKind } from "../media-types.js";
import type { TestClock } from "./test-clock.js";

/** A documented response of an operation, as the generator read it from the contract. */
export interface ExampleResponse {
  /** As the contract writes it: `200`, `4XX`, `default`. */
  status: string;
  mediaType?: string | undefined;
  body?: unknown;
  headers?: Readonly<Record<string, string>> | undefined;
}

/**
 * How a request fails instead of being answered: `network` (the connection dropped before any
 * answer: it may have reached the server), `refused` (it never opened: nothing was sent), `abort`
 * (an AbortError, as a fetch whose connection was aborted), `reset` (the headers come, then the
 * body breaks off halfway), `hang` (no answer until the request's signal aborts: a timeout).
 */
export type TestFault = "network" | "refused" | "abort" | "reset" | "hang";

/** One scripted answer; every field is optional, the rest comes from the contract. */
export interface TestAnswer {
  /** Default: the contract's first success status (a 429 with `retryAfterSeconds`). */
  status?: number | undefined;
  /** A JSON value, a string or bytes; default: the contract's example for the status, else a problem body for an error. */
  body?: unknown;
  /** Added to (and over) the contract's documented headers for the status. */
  headers?: Readonly<Record<string, string>> | undefined;
  /** Waited on the kit's clock before the answer (or the fault) comes. */
  delayMs?: number | undefined;
  fault?: TestFault | undefined;
  /** A 429 asking to wait this long: `Retry-After`, and `RateLimit`/`RateLimit-Policy` as the contract writes them. */
  retryAfterSeconds?: number | undefined;
  /** How many requests this answer serves before the next one's turn; default 1 (`Infinity`: every one from now on). */
  times?: number | undefined;
}

/** Statuses whose response has no body (fetch refuses one). */
const NULL_BODY_STATUSES: ReadonlySet<number> = new Set([101, 103, 204, 205, 304]);

/** The documented response for `status`: exactly, else its range (`4XX`), else `default`. */
export function documented(responses: readonly ExampleResponse[], status: number): ExampleResponse | undefined {
  const text = String(status);
  return (
    responses.find((response) => response.status === text) ??
    responses.find((response) => response.status.toUpperCase() === `${text[0]}XX`) ??
    responses.find((response) => response.status === "default")
  );
}

/** The status an operation answers by default: its first success, else 200. */
export function successStatus(responses: readonly ExampleResponse[]): number {
  const success = responses.find((response) => /^2/.test(response.status));
  if (success === undefined) return 200;
  return /^\d{3}$/.test(success.status) ? Number(success.status) : 200;
}

/** A Response from an answer and the contract's documented one for its status. */
export function buildResponse(status: number, answer: TestAnswer, example: ExampleResponse | undefined): Response {
  const headers = new Headers(example?.headers as Record<string, string> | undefined);
  for (const [name, value] of Object.entries(answer.headers ?? {})) headers.set(name, value);
  if (NULL_BODY_STATUSES.has(status)) return new Response(null, { status, headers });
  let body = "body" in answer ? answer.body : example?.body;
  let mediaType = example?.mediaType;
  if (body === undefined && status >= 400) {
    body = { type: "about:blank", title: statusTitle(status), status };
    mediaType = "application/problem+json";
  }
  if (body === undefined) return new Response(null, { status, headers });
  if (body instanceof Uint8Array || body instanceof ArrayBuffer || body instanceof Blob || body instanceof ReadableStream) {
    if (!headers.has("content-type")) headers.set("content-type", mediaType ?? "application/octet-stream");
    return new Response(body as BodyInit, { status, headers });
  }
  const kind = mediaType === undefined ? (typeof body === "string" ? "text" : "json") : mediaTypeKind(mediaType);
  if (!headers.has("content-type")) headers.set("content-type", mediaType ?? (kind === "json" ? "application/json" : "text/plain"));
  const text = kind !== "json" && typeof body === "string" ? body : JSON.stringify(body);
  return new Response(text, { status, headers });
}

/** Waits the answer's delay, then fails as its fault says, or gives `response` (a `reset` one cut halfway). */
export async function deliver(answer: TestAnswer, request: Request, clock: TestClock, response: () => Response | Promise<Response>): Promise<Response> {
  if (answer.delayMs !== undefined && answer.delayMs > 0) await clock.sleep(answer.delayMs, request.signal);
  if (request.signal.aborted) throw request.signal.reason;
  switch (answer.fault) {
    case "network":
      throw new TypeError("fetch failed", { cause: systemError("ECONNRESET", "socket hang up") });
    case "refused":
      throw new TypeError("fetch failed", { cause: systemError("ECONNREFUSED", "connect ECONNREFUSED") });
    case "abort":
      throw new DOMException("The operation was aborted.", "AbortError");
    case "hang":
      return new Promise<Response>((_, reject) => request.signal.addEventListener("abort", () => reject(request.signal.reason), { once: true }));
    case "reset":
      return cutHalfway(await response());
    default:
      return response();
  }
}

/** The same answer whose body stops with an error after half its bytes, as a dropped connection does. */
async function cutHalfway(response: Response): Promise<Response> {
  const bytes = new Uint8Array(await response.arrayBuffer());
  const half = bytes.subarray(0, Math.floor(bytes.byteLength / 2));
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      if (half.byteLength > 0) controller.enqueue(half);
    },
    pull(controller) {
      controller.error(new TypeError("terminated", { cause: systemError("ECONNRESET", "other side closed") }));
    },
  });
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  return new Response(body, { status: response.status, statusText: response.statusText, headers });
}

function systemError(code: string, message: string): Error {
  return Object.assign(new Error(message), { code });
}

function statusTitle(status: number): string {
  const titles: Record<number, string> = { 400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 405: "Method Not Allowed", 409: "Conflict", 422: "Unprocessable Content", 429: "Too Many Requests", 500: "Internal Server Error", 502: "Bad Gateway", 503: "Service Unavailable", 504: "Gateway Timeout" };
  return titles[status] ?? `Status ${status}`;
}
