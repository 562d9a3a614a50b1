/**
 * The fetch handed to openapi-fetch: adds authentication, a per-attempt
 * timeout, cancellation and safe retries. Returns every response (non-2xx
 * included) and throws only the typed errors of ./errors.js.
 */
import { readBodyText } from "./error-response.js";
import { AbortedError, ConnectionError, InvalidRequestError, TimeoutError } from "./errors.js";
import type { SanitizedCause } from "./errors.js";
import { redactSecrets } from "./redact.js";
import { sanitizeUrl } from "./urls.js";
import { parseRetryAfter } from "./rate-limit.js";

export interface Logger {
  debug?(message: string, fields?: Record<string, unknown>): void;
  warn?(message: string, fields?: Record<string, unknown>): void;
}

export interface TransportConfig {
  apiKey: string;
  /** Default `globalThis.fetch`, looked up at call time so it can be replaced later. */
  fetch?: ((request: Request) => Promise<Response>) | undefined;
  /**
   * Per attempt, until the response has been read (its headers, and its body as the client reads
   * it); 0 disables it. Default 60 000.
   */
  timeoutMs?: number | undefined;
  /** Default 2. */
  maxRetries?: number | undefined;
  /** Default 500. */
  retryBaseDelayMs?: number | undefined;
  /** Default 8 000. */
  retryMaxDelayMs?: number | undefined;
  /** A 429 asking to wait longer than this is returned, not retried. Default 60 000. */
  maxRetryAfterMs?: number | undefined;
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
  operationId?: string | undefined;
  /** Overrides the method's own idempotency, e.g. for a POST with an idempotency key. */
  idempotent?: boolean | undefined;
}

export const DEFAULT_TIMEOUT_MS = 60_000;
const DEFAULT_MAX_RETRIES = 2;
const DEFAULT_RETRY_BASE_DELAY_MS = 500;
const DEFAULT_RETRY_MAX_DELAY_MS = 8_000;
const DEFAULT_MAX_RETRY_AFTER_MS = 60_000;
/** The longest delay setTimeout keeps: it runs a longer one at once. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

const IDEMPOTENT_METHODS: ReadonlySet<string> = new Set(["GET", "HEAD", "OPTIONS", "DELETE", "PUT"]);
const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 502, 503, 504]);
/** Failures that prove the request never left this machine, so even a POST may be resent. */
const NOT_SENT_CODES: ReadonlySet<string> = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN"]);

/**
 * A fetch for any Request: a copy of it with the key set (any Authorization the caller set is
 * replaced) is sent on every attempt. The body is read once so that every attempt sends the
 * same bytes.
 */
export function createTransportFetch(config: TransportConfig, call: CallOptions = {}): (input: Request) => Promise<Response> {
  return copyingFetch(config, call);
}

/** `createTransportFetch`, telling `onAttempts` about each call's attempts (the prepared path holds their body phase). */
function copyingFetch(config: TransportConfig, call: CallOptions, onAttempts?: (attempts: Attempts) => void): (input: Request) => Promise<Response> {
  return async function transportFetch(input: Request): Promise<Response> {
    // Both the call options and the Request (openapi-fetch's `signal` option) may carry a signal.
    const callerSignals = [call.signal, input.signal].filter((signal): signal is AbortSignal => signal !== undefined);
    const abortedSignal = callerSignals.find((signal) => signal.aborted);
    if (abortedSignal !== undefined) throw new AbortedError({ method: input.method, url: sanitizeUrl(input.url), reason: abortedSignal.reason });
    const headers = new Headers(input.headers);
    for (const [name, value] of Object.entries(authenticationHeaders(config))) headers.set(name, value);
    const body = input.body === null ? undefined : await input.arrayBuffer();
    const attempts = new Attempts(config, call, input, callerSignals, { kind: "copy", headers, body }, onAttempts !== undefined);
    onAttempts?.(attempts);
    return attempts.run();
  };
}

/** A non-2xx response whose body the transport read (at most 64 KiB, within the attempt's timeout). */
export interface BufferedErrorBody {
  text: string;
  /** The response's URL (the Response handed on is a new one, which has none). */
  url: string;
}

const bufferedErrorBodies = new WeakMap<Response, BufferedErrorBody>();

/** The raw body of a non-2xx response the transport returned, as it arrived (cut at 64 KiB). */
export function bufferedErrorBody(response: Response): BufferedErrorBody | undefined {
  return bufferedErrorBodies.get(response);
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
  /**
   * The typed error for a failure while reading a 2xx body: the timeout and the caller's signal
   * still run while it is read, and abort it.
   */
  bodyFailure(error: unknown): Error;
  /** Stops the timeout and detaches the caller's signal once the body has been read (or given up). */
  finish(): void;
}

/**
 * Prepares one call. The caller builds the Request with `authenticationHeaders(config)` (computed
 * once per client) set last, over any caller header: this path sends it without adding them.
 */
export function prepareCall(config: TransportConfig, call: CallOptions & { body?: ReusableBody } = {}): PreparedCall {
  checkTimeout("timeoutMs", call.timeoutMs);
  const first = new AbortController();
  const viaInit = config.fetch === undefined;
  let used = false;
  // The attempts whose response the client is reading (the last ones, if the fetch was called twice).
  let latest: Attempts | undefined;
  const track = (attempts: Attempts): void => {
    latest?.finish();
    latest = attempts;
  };
  return {
    signal: viaInit ? undefined : first.signal,
    fetch(input: Request): Promise<Response> {
      // Once: a second call of this fetch (a middleware resending) takes the copying path.
      if (used || (input.body !== null && call.body === undefined)) return copyingFetch(config, call, track)(input);
      used = true;
      if (call.signal?.aborted) {
        return Promise.reject(new AbortedError({ method: input.method, url: sanitizeUrl(input.url), reason: call.signal.reason }));
      }
      const callerSignals = call.signal === undefined ? NO_SIGNALS : [call.signal];
      const attempts = new Attempts(config, call, input, callerSignals, { kind: "prepared", first, viaInit, body: call.body }, true);
      track(attempts);
      return attempts.run();
    },
    bodyFailure(error: unknown): Error {
      if (latest !== undefined) return latest.bodyFailure(error);
      return error instanceof Error ? error : new Error(String(error));
    },
    finish(): void {
      latest?.finish();
    },
  };
}

const NO_SIGNALS: readonly AbortSignal[] = [];

/**
 * A timeout is a number of milliseconds, 0 or more (`Infinity` allowed). NaN or a negative number
 * is refused: compared with anything it is false, so it would silently mean no timeout at all.
 */
export function checkTimeout(field: string, value: number | undefined): void {
  if (value === undefined) return;
  if (typeof value !== "number" || Number.isNaN(value) || value < 0) {
    throw new InvalidRequestError(`${field} must be a number of milliseconds, 0 or more (Infinity allowed), not ${typeof value === "number" ? String(value) : typeof value}`, { field });
  }
}

/** The headers that authenticate a request, checked so a bad key never reaches a Headers error message. */
export function authenticationHeaders(config: TransportConfig): Record<string, string> {
  const authorization = `Bearer ${config.apiKey}`;
  if (!isHeaderValue(authorization)) {
    // The platform's message would quote the invalid value, which here is the key.
    throw new InvalidRequestError("apiKey contains characters that are not allowed in an HTTP header", { field: "apiKey" });
  }
  if (config.userAgent === undefined) return { Authorization: authorization };
  if (!isHeaderValue(config.userAgent)) {
    throw new InvalidRequestError("userAgent contains characters that are not allowed in an HTTP header", { field: "userAgent" });
  }
  return { Authorization: authorization, "X-Client-Name": config.userAgent };
}

/**
 * Whether `fetch` sends the text as a header value: no control character but tab (NUL, CR and LF
 * would split or end the header; Node's fetch refuses the others on every call) and nothing beyond
 * Latin-1 (headers are byte strings).
 */
export function isHeaderValue(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c > 255 || (c < 32 && c !== 9) || c === 127) return false;
  }
  return true;
}

/** How the attempts of a call get their Request. */
type Source =
  /** A copy of the caller's Request per attempt, with our headers and the body read up front. */
  | { kind: "copy"; headers: Headers; body: ArrayBuffer | undefined }
  /**
   * The Request the client built: sent as it is the first time (aborted by `first`); with
   * `viaInit`, the signal (and on a retry the body) go to the platform's fetch as `init`.
   */
  | { kind: "prepared"; first: AbortController; viaInit: boolean; body: ReusableBody | undefined };

/** One attempt's guards: its controller, the timeout timer and the links from the caller's signals. */
interface Guard {
  controller: AbortController;
  timedOut: boolean;
  dispose(): void;
}

/** The attempts of one call: timeouts, caller aborts, retries and their waits, logging. */
class Attempts {
  private readonly method: string;
  private readonly idempotent: boolean;
  private readonly timeoutMs: number;
  private readonly maxRetries: number;
  private sanitized: string | undefined;
  /** The guard of the 2xx response handed on, while its body is read (only when `holdBody`). */
  private held: Guard | undefined;

  /**
   * @param holdBody Keep the timeout and the caller's signal on a 2xx response until `finish()`, so
   *   they also bound the reading of its body. Without it (a bare transport fetch, whose caller
   *   reads the body out of sight) they stop when the headers arrive.
   */
  constructor(
    private readonly config: TransportConfig,
    call: CallOptions,
    private readonly input: Request,
    private readonly callerSignals: readonly AbortSignal[],
    private readonly source: Source,
    private readonly holdBody = false,
  ) {
    this.method = input.method.toUpperCase();
    this.idempotent = call.idempotent ?? IDEMPOTENT_METHODS.has(this.method);
    // setTimeout fires at once for delays past 2^31 − 1 ms; longer timeouts mean "no sooner than that".
    this.timeoutMs = Math.min(call.timeoutMs ?? config.timeoutMs ?? DEFAULT_TIMEOUT_MS, MAX_TIMER_MS);
    this.maxRetries = call.maxRetries ?? config.maxRetries ?? DEFAULT_MAX_RETRIES;
  }

  finish(): void {
    this.held?.dispose();
    this.held = undefined;
  }

  /** The typed error for a failure while the caller read a 2xx body. */
  bodyFailure(error: unknown): Error {
    const guard = this.held;
    this.finish();
    const callerAbort = this.callerSignals.find((signal) => signal.aborted);
    if (callerAbort !== undefined) return new AbortedError({ method: this.method, url: this.url, reason: callerAbort.reason });
    if (guard?.timedOut) return new TimeoutError({ method: this.method, url: this.url, timeoutMs: this.timeoutMs });
    return new ConnectionError({ method: this.method, url: this.url, cause: sanitizeCause(error, this.config.apiKey) });
  }

  /** Sanitised only when a log line or an error needs it: most calls need neither. */
  private get url(): string {
    return (this.sanitized ??= sanitizeUrl(this.input.url));
  }

  private aborted(): AbortedError {
    return new AbortedError({ method: this.method, url: this.url, reason: this.callerSignals.find((signal) => signal.aborted)?.reason });
  }

  private log(fields: Record<string, unknown>): void {
    const logger = this.config.logger;
    logger?.debug?.(logMessage(this.config, "request attempt"), { method: this.method, url: this.url, ...fields });
  }

  async run(): Promise<Response> {
    const { config, method } = this;
    const maxRetryAfterMs = config.maxRetryAfterMs ?? DEFAULT_MAX_RETRY_AFTER_MS;
    for (let attempt = 1; ; attempt++) {
      const retriesLeft = attempt <= this.maxRetries;
      let delayMs: number | undefined;
      try {
        const { response, guard } = await this.send(attempt);
        if (retriesLeft && this.idempotent && RETRYABLE_STATUSES.has(response.status)) {
          delayMs = retryDelayForResponse(response, attempt, config, maxRetryAfterMs);
          if (delayMs === undefined) {
            config.logger?.warn?.(logMessage(config, "Retry-After exceeds maxRetryAfterMs; not retrying"), {
              method,
              url: this.url,
              retryAfter: response.headers.get("retry-after"),
              maxRetryAfterMs,
            });
          }
        }
        if (config.logger?.debug !== undefined) this.log({ attempt, status: response.status, delayMs });
        if (delayMs === undefined) return await this.handOn(response, guard);
        guard.dispose();
        await response.body?.cancel().catch(() => undefined); // frees the connection for reuse
      } catch (error) {
        if (!(retriesLeft && isRetryableFailure(error, this.idempotent))) {
          this.log({ attempt, error: describeFailure(error) });
          throw error;
        }
        delayMs = backoffDelayMs(attempt, config);
        this.log({ attempt, error: describeFailure(error), delayMs });
      }
      const wait = linkSignals(this.callerSignals);
      try {
        await sleep(delayMs, wait.controller.signal);
      } catch {
        throw this.aborted();
      } finally {
        wait.dispose();
      }
    }
  }

  /**
   * The response the caller gets. A 2xx goes on as it is, its guard held while the client reads
   * the body (or dropped, without `holdBody`). A non-2xx body is read here, within the timeout and
   * at most 64 KiB of it, so a stalled or endless error body cannot hang the call or fill memory.
   */
  private async handOn(response: Response, guard: Guard): Promise<Response> {
    if (response.ok) {
      if (this.holdBody) this.held = guard;
      else guard.dispose();
      return response;
    }
    try {
      // A body cut short by the timeout or a dropped connection still explains the status.
      const text = await readBodyText(response);
      const callerAbort = this.callerSignals.find((signal) => signal.aborted);
      if (callerAbort !== undefined) throw new AbortedError({ method: this.method, url: this.url, reason: callerAbort.reason });
      const buffered = new Response(text === "" ? null : text, { status: response.status, statusText: response.statusText, headers: response.headers });
      bufferedErrorBodies.set(buffered, { text, url: response.url });
      return buffered;
    } finally {
      guard.dispose();
    }
  }

  /**
   * One attempt under its own controller, fed by the caller's signals and the timeout timer. On a
   * response, the guard that keeps them is returned with it; on a failure it is disposed.
   */
  private async send(attempt: number): Promise<{ response: Response; guard: Guard }> {
    const { config, timeoutMs, callerSignals, source, input } = this;
    const controller = source.kind === "prepared" && attempt === 1 ? source.first : new AbortController();
    const detach = callerSignals.length === 0 ? undefined : follow(controller, callerSignals);
    const guard: Guard = {
      controller,
      timedOut: false,
      dispose() {
        clearTimeout(timer);
        detach?.();
      },
    };
    const timer =
      timeoutMs > 0
        ? setTimeout(() => {
            guard.timedOut = true;
            controller.abort();
          }, timeoutMs)
        : undefined;
    try {
      return { response: await this.fetchOnce(attempt, controller), guard };
    } catch (error) {
      guard.dispose();
      const callerAbort = callerSignals.find((signal) => signal.aborted);
      const { method, url } = this;
      if (callerAbort !== undefined) throw new AbortedError({ method, url, reason: callerAbort.reason });
      if (guard.timedOut) throw new TimeoutError({ method, url, timeoutMs });
      throw new ConnectionError({ method, url, cause: sanitizeCause(error, config.apiKey) });
    }
  }

  private fetchOnce(attempt: number, controller: AbortController): Promise<Response> {
    const { config, source, input } = this;
    if (source.kind === "copy") {
      const request = new Request(input, { headers: source.headers, body: source.body, signal: controller.signal });
      return (config.fetch ?? globalThis.fetch)(request);
    }
    // A retry needs the body again: the first attempt read the Request's own.
    const retryBody = attempt === 1 ? undefined : source.body;
    const init: RequestInit = retryBody === undefined ? { signal: controller.signal } : { body: retryBody, signal: controller.signal };
    if (retryBody instanceof FormData) {
      // Encoded anew with a new boundary: the first attempt's multipart Content-Type would not match it.
      const headers = new Headers(input.headers);
      headers.delete("content-type");
      init.headers = headers;
    }
    if (source.viaInit) return globalThis.fetch(input, init);
    if (attempt === 1) return (config.fetch ?? globalThis.fetch)(input);
    return (config.fetch ?? globalThis.fetch)(new Request(input, init));
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

/** A log message, after the client's `logName` when it has one. */
function logMessage(config: TransportConfig, text: string): string {
  return config.logName === undefined ? text : `${config.logName} ${text}`;
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

/**
 * Resolves after `ms`; rejects with an AbortedError as soon as `signal` aborts, leaving no timer or
 * listener behind. Waits past setTimeout's limit (about 24.8 days) are slept in steps.
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new AbortedError({ reason: signal.reason }));
      return;
    }
    let left = ms;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new AbortedError({ reason: signal?.reason }));
    };
    const step = (): void => {
      const delay = Math.min(left, MAX_TIMER_MS);
      left -= delay;
      timer = setTimeout(() => {
        if (left > 0) return step();
        signal?.removeEventListener("abort", onAbort);
        resolve();
      }, delay);
    };
    step();
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** Aborts `controller` when any of `signals` does; returns the function that detaches it again. */
function follow(controller: AbortController, signals: readonly AbortSignal[]): () => void {
  const listeners = signals.map((source) => {
    const onAbort = (): void => controller.abort(source.reason);
    if (source.aborted) onAbort();
    else source.addEventListener("abort", onAbort, { once: true });
    return { source, onAbort };
  });
  return () => {
    for (const { source, onAbort } of listeners) source.removeEventListener("abort", onAbort);
  };
}

/**
 * A controller that aborts when any of `signals` does (and can be aborted on
 * its own); `dispose` detaches it, so long-lived caller signals collect no listeners.
 */
export function linkSignals(signals: readonly AbortSignal[]): { controller: AbortController; dispose(): void } {
  const controller = new AbortController();
  return { controller, dispose: follow(controller, signals) };
}
