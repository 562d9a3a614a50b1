/**
 * The transport's types: its configuration, a call's options, the request the client prepares and
 * the answer the transport read. Types only, in a module of their own, so the transport's parts (attempts, retry, headers, option
 * checks) and the client core share them without importing one another or the transport.
 */
import type { Clock } from "./clock.js";
import type { ClientHooks } from "./hooks.js";

export interface Logger {
  debug?(message: string, fields?: Record<string, unknown>): void;
  warn?(message: string, fields?: Record<string, unknown>): void;
}

export interface TransportConfig {
  /**
   * Every credential in the forms it is sent in, blanked out of errors and log lines (URLs and
   * causes included). The transport sends none itself: they are in the prepared request's headers
   * or URL.
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
  /**
   * Whose time the client reads and waits by (retry pauses, `Retry-After`, each attempt's timeout):
   * default the platform's timers; a test gives one it controls (`TestClock` of the package's
   * `testing` entry), so a 429 asking to wait 12 s takes no real time.
   */
  clock?: Clock | undefined;
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
  /** Keeps for redaction a header a hook set, when its name says it may carry a credential (the client's Authenticator). */
  rememberCredentialHeader?: ((name: string, value: string) => void) | undefined;
}

export interface CallOptions {
  signal?: AbortSignal | undefined;
  timeoutMs?: number | undefined;
  maxRetries?: number | undefined;
  maxResponseBytes?: number | undefined;
  operationId?: string | undefined;
  /** Overrides the method's own idempotency, e.g. for a POST with an idempotency key. */
  idempotent?: boolean | undefined;
  /**
   * A 2xx body is the caller's to read as it comes (an event stream): the attempt ends at its
   * headers, and the answer holds the body and the `release` that lets the caller's signal go.
   */
  streamBody?: boolean | undefined;
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
  fetch(url: string, request: PreparedRequest): Promise<Answer>;
}

/** What every answer the transport hands on says besides its body. */
interface AnswerHead {
  status: number;
  statusText: string;
  headers: Headers;
  /** The URL that answered, after any redirect; empty when the fetch gave none (a Response a custom fetch made). */
  url: string;
}

/** A 2xx answer, its body read whole within the attempt (decoded), in the chunks it came in; none without a body. */
export interface SuccessAnswer extends AnswerHead {
  ok: true;
  chunks: readonly Uint8Array[];
  /** With `streamBody`: the body unread (null without one), and what to call once done with it. */
  stream?: { body: ReadableStream<Uint8Array> | null; release(): void } | undefined;
}

/** Any other status: its body as text, at most 64 KiB of it, or what arrived before it broke off or stalled. */
export interface ErrorAnswer extends AnswerHead {
  ok: false;
  text: string;
}

/**
 * The last attempt's answer, as the transport read it: a plain value, no stream left to read and
 * no platform Response kept (the client makes one only when a caller asks for it).
 */
export type Answer = SuccessAnswer | ErrorAnswer;
