/**
 * The attempts of one call: each under its own timeout and the caller's signal, retried as retry.ts
 * allows, logged without secrets. A non-2xx body is read here (MAX_RAW_BODY_BYTES at most) so that
 * neither a stalled nor an endless error body can hang the call.
 */
import { readBodyText } from "./error-response.js";
import { AbortedError, ConnectionError, TimeoutError } from "./errors.js";
import type { SanitizedCause } from "./errors.js";
import { redactSecrets } from "./redact.js";
import {
  DEFAULT_MAX_RETRIES,
  DEFAULT_MAX_RETRY_AFTER_MS,
  IDEMPOTENT_METHODS,
  RETRYABLE_STATUSES,
  backoffDelayMs,
  isRetryableFailure,
  retryDelayForResponse,
} from "./retry.js";
import { MAX_TIMER_MS, follow, linkSignals, sleep } from "./signals.js";
import type { CallOptions, ReusableBody, TransportConfig } from "./transport.js";
import { sanitizeUrl } from "./urls.js";

/** Per attempt, unless the config or the call sets another. */
export const DEFAULT_TIMEOUT_MS = 60_000;

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
export class CallAttempts {
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
    return new ConnectionError({ method: this.method, url: this.url, cause: sanitizeCause(error, secretsOf(this.config)) });
  }

  /** Sanitised only when a log line or an error needs it: most calls need neither. */
  private get url(): string {
    return (this.sanitized ??= sanitizeUrl(this.input.url, secretsOf(this.config)));
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
      throw new ConnectionError({ method, url, cause: sanitizeCause(error, secretsOf(config)) });
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

const NO_SECRETS: readonly string[] = [];

/** The credentials to blank out of what a call's errors and log lines show. */
export function secretsOf(config: TransportConfig): readonly string[] {
  return config.secrets ?? (config.apiKey === undefined ? NO_SECRETS : [config.apiKey]);
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
function sanitizeCause(error: unknown, secrets: readonly string[]): SanitizedCause {
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
  return { name, message: redactSecrets(message, secrets), ...(code === undefined ? {} : { code }) };
}
