/**
 * The attempts of one call: each under its own timeout and the caller's signal, retried as retry.ts
 * allows, logged without secrets. An attempt ends when its response has been read: a 2xx body whole
 * (`maxResponseBytes` at most), a non-2xx one up to MAX_RAW_BODY_BYTES. So a body cut, stalled or
 * endless is the attempt's failure, typed and retried by the one rule, and nothing hangs or fills
 * memory; the caller gets what was read, as an Answer.
 */
import { readBodyText } from "./body-text.js";
import { SYSTEM_CLOCK } from "./clock.js";
import { SdkError } from "./error-base.js";
import { AbortedError, ConnectionError, ResponseTooLargeError, TimeoutError } from "./errors.js";
import type { SanitizedCause } from "./errors.js";
import { SENSITIVE_HEADERS } from "./headers.js";
import { hookList } from "./hooks.js";
import type { ClientHooks, HookAttempt } from "./hooks.js";
import { MAX_REDIRECTS, nextHop } from "./redirects.js";
import type { Hop } from "./redirects.js";
import { redactSecrets } from "./redact.js";
import { requestIdOf } from "./request-id.js";
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
import type { Answer, CallOptions, PreparedRequest, ReusableBody, TransportConfig } from "./transport-types.js";
import { sanitizeUrl } from "./urls.js";

/** Per attempt, unless the config or the call sets another. */
export const DEFAULT_TIMEOUT_MS = 60_000;
/** The most of a 2xx body read, unless the config or the call sets another. */
export const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

/**
 * Node, Deno and Bun answer `redirect: "manual"` with the redirect itself, which the transport can
 * follow, and say why a connection failed. A browser hides the redirect (an opaque response) and
 * never says: there the platform follows redirects, and no failure counts as unsent.
 */
const FOLLOWS_REDIRECTS_ITSELF = typeof (globalThis as { process?: { versions?: { node?: unknown } } }).process?.versions?.node === "string";

/** One attempt's guards: its controller, the timeout timer and the links from the caller's signals. */
interface Guard {
  controller: AbortController;
  timedOut: boolean;
  /** Stops the timeout only: the caller's signal still ends the body. */
  stopTimer(): void;
  dispose(): void;
}

/** The attempts of one call: timeouts, caller aborts, redirects, retries and their waits, logging. */
export class CallAttempts {
  private readonly method: string;
  private readonly redirect: RequestRedirect;
  private readonly callerSignals: readonly AbortSignal[];
  private readonly idempotent: boolean;
  private readonly timeoutMs: number;
  private readonly maxRetries: number;
  private readonly maxResponseBytes: number;
  private readonly streamBody: boolean;
  /** Redirects are followed here (with `redirect: "manual"`), hop by hop: see FOLLOWS_REDIRECTS_ITSELF. */
  private readonly followsRedirects: boolean;
  private sanitized: string | undefined;
  /** Set by an attempt that failed before any answer, on a first hop no redirect hid: nothing was sent if the connection was refused. */
  private firstHopFailure = false;
  /** The app's hooks, in order; undefined when there are none (the calls then skip them at no cost). */
  private readonly hooks: readonly ClientHooks[] | undefined;
  private readonly operationId: string | undefined;
  /** When the current attempt was sent, and when its answer's headers came (performance.now()), for the hooks. */
  private sentAt = 0;
  private answeredAt = 0;
  /** Set when a hook threw: its error ends the call as it is, never retried. */
  private hookFailed = false;

  /** `body`: the request's body in a form a retry or a redirect can send again. */
  constructor(
    private readonly config: TransportConfig,
    call: CallOptions,
    private readonly target: string,
    private readonly request: PreparedRequest,
    private readonly body: ReusableBody | undefined,
  ) {
    this.method = request.method.toUpperCase();
    this.redirect = request.redirect ?? "follow";
    this.callerSignals = call.signal === undefined ? NO_SIGNALS : [call.signal];
    this.idempotent = call.idempotent ?? IDEMPOTENT_METHODS.has(this.method);
    // setTimeout fires at once for delays past 2^31 − 1 ms; longer timeouts mean "no sooner than that".
    this.timeoutMs = Math.min(call.timeoutMs ?? config.timeoutMs ?? DEFAULT_TIMEOUT_MS, MAX_TIMER_MS);
    this.maxRetries = call.maxRetries ?? config.maxRetries ?? DEFAULT_MAX_RETRIES;
    this.maxResponseBytes = call.maxResponseBytes ?? config.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    this.streamBody = call.streamBody === true;
    // An idempotent call is sent again after any failure: which hop failed does not matter to it.
    this.followsRedirects = !this.idempotent && this.redirect === "follow" && FOLLOWS_REDIRECTS_ITSELF;
    this.hooks = hookList(config.hooks);
    this.operationId = call.operationId;
  }

  /** Sanitised only when a log line or an error needs it: most calls need neither. */
  private get url(): string {
    return (this.sanitized ??= sanitizeUrl(this.target, secretsOf(this.config)));
  }

  private aborted(): AbortedError {
    return new AbortedError({ method: this.method, url: this.url, reason: this.callerSignals.find((signal) => signal.aborted)?.reason });
  }

  private log(fields: Record<string, unknown>): void {
    const logger = this.config.logger;
    logger?.debug?.(logMessage(this.config, "request attempt"), { method: this.method, url: this.url, ...fields });
  }

  async run(): Promise<Answer> {
    const { config, method } = this;
    const maxRetryAfterMs = config.maxRetryAfterMs ?? DEFAULT_MAX_RETRY_AFTER_MS;
    for (let attempt = 1; ; attempt++) {
      const retriesLeft = attempt <= this.maxRetries;
      let delayMs: number | undefined;
      this.firstHopFailure = false;
      try {
        const { response, guard } = await this.send(attempt);
        if (this.hooks !== undefined) this.answeredAt = performance.now();
        try {
          if (retriesLeft && this.idempotent && RETRYABLE_STATUSES.has(response.status)) {
            const retry = retryDelayForResponse(response, attempt, config, maxRetryAfterMs, (config.clock ?? SYSTEM_CLOCK).now());
            if ("delayMs" in retry) delayMs = retry.delayMs;
            else {
              config.logger?.warn?.(logMessage(config, "the server asks to wait longer than maxRetryAfterMs; not retrying"), {
                method,
                url: this.url,
                status: response.status,
                requestedWaitMs: retry.tooLong,
                maxRetryAfterMs,
              });
            }
          }
          if (config.logger?.debug !== undefined) this.log({ attempt, status: response.status, delayMs, requestId: requestIdOf(response.headers) });
        } catch (error) {
          // A logger that throws: the attempt's timer and connection are let go before its error goes on.
          guard.dispose();
          await response.body?.cancel().catch(() => undefined);
          throw error;
        }
        if (delayMs === undefined) {
          const answer = await this.read(response, guard, attempt);
          if (this.hooks !== undefined) {
            try {
              await this.answered(answer, attempt);
            } catch (error) {
              // A hook that throws on a stream's headers: the unread body and its guard are let go first.
              const stream = answer.ok ? answer.stream : undefined;
              await stream?.body?.cancel().catch(() => undefined);
              stream?.release();
              throw error;
            }
          }
          return answer;
        }
        guard.dispose();
        await response.body?.cancel().catch(() => undefined); // frees the connection for reuse
        if (this.hooks !== undefined) await this.answered(response, attempt);
      } catch (error) {
        if (this.hookFailed || !(retriesLeft && isRetryableFailure(error, this.idempotent, this.firstHopFailure))) {
          this.log({ attempt, error: describeFailure(error) });
          throw error;
        }
        delayMs = backoffDelayMs(attempt, config);
        this.log({ attempt, error: describeFailure(error), delayMs });
      }
      const wait = linkSignals(this.callerSignals);
      try {
        await sleep(delayMs, wait.controller.signal, config.clock);
      } catch {
        throw this.aborted();
      } finally {
        wait.dispose();
      }
    }
  }

  /**
   * The answer the caller gets, its body read within the attempt's guard. A 2xx body whole, at
   * most `maxResponseBytes`; a non-2xx body at most 64 KiB of it, what arrived of it when it breaks
   * off or stalls (it still explains the status).
   */
  private async read(response: Response, guard: Guard, attempt: number): Promise<Answer> {
    if (response.ok && this.streamBody) {
      // The attempt ends at the headers: how long the body may take is the reader's to decide.
      guard.stopTimer();
      const { status, statusText, headers, url } = response;
      return { ok: true, status, statusText, headers, url, chunks: [], stream: { body: response.body, release: () => guard.dispose() } };
    }
    try {
      const { status, statusText, headers, url } = response;
      if (response.ok) return { ok: true, status, statusText, headers, url, chunks: await this.readWhole(response, guard.controller.signal) };
      const text = await readBodyText(response);
      const callerAbort = this.callerSignals.find((signal) => signal.aborted);
      if (callerAbort !== undefined) throw new AbortedError({ method: this.method, url: this.url, reason: callerAbort.reason });
      return { ok: false, status, statusText, headers, url, text };
    } catch (error) {
      throw await this.failed(this.failure(error, guard), attempt);
    } finally {
      guard.dispose();
    }
  }

  /**
   * A 2xx body's chunks, `maxResponseBytes` at most (a longer one stops the read, one chunk past
   * the limit at most, and drops the connection). The guard's abort cancels the read even when a
   * custom fetch gave a body that does not follow the signal.
   */
  private async readWhole(response: Response, signal: AbortSignal): Promise<Uint8Array[]> {
    const limit = this.maxResponseBytes;
    const tooLarge = (): ResponseTooLargeError =>
      new ResponseTooLargeError({ status: response.status, method: this.method, url: this.url, maxResponseBytes: limit });
    const chunks: Uint8Array[] = [];
    if (response.body === null) return chunks;
    // Content-Length counts the bytes sent: the body read is those only when they are not encoded.
    const declared = response.headers.get("content-encoding") === null ? response.headers.get("content-length") : null;
    if (declared !== null && /^\d+$/.test(declared) && Number(declared) > limit) {
      await response.body.cancel().catch(() => undefined);
      throw tooLarge();
    }
    if (signal.aborted) {
      await response.body.cancel().catch(() => undefined);
      throw signal.reason;
    }
    if (declared !== null && /^\d+$/.test(declared) && this.config.fetch === undefined) {
      // The platform's fetch reads no more than Content-Length and stops with the attempt's signal,
      // which it was given: the body in one read, without a reader and a listener of our own.
      const bytes = new Uint8Array(await response.arrayBuffer());
      if (signal.aborted) throw signal.reason;
      return bytes.byteLength === 0 ? chunks : [bytes];
    }
    const reader = response.body.getReader();
    const onAbort = (): void => void reader.cancel().catch(() => undefined);
    signal.addEventListener("abort", onAbort, { once: true });
    try {
      let size = 0;
      for (;;) {
        const { done, value } = await reader.read();
        // A read cancelled by the abort ends as if the body had: it did not.
        if (signal.aborted) throw signal.reason;
        if (done) return chunks;
        size += value.byteLength;
        if (size > limit) {
          await reader.cancel().catch(() => undefined);
          throw tooLarge();
        }
        chunks.push(value);
      }
    } finally {
      signal.removeEventListener("abort", onAbort);
    }
  }

  /** The typed error for an attempt's failure: the caller's abort, the timeout, or the network. */
  private failure(error: unknown, guard: Guard): SdkError {
    if (error instanceof SdkError) return error;
    const callerAbort = this.callerSignals.find((signal) => signal.aborted);
    const { method, url } = this;
    if (callerAbort !== undefined) return new AbortedError({ method, url, reason: callerAbort.reason });
    if (guard.timedOut) return new TimeoutError({ method, url, timeoutMs: this.timeoutMs });
    return new ConnectionError({ method, url, cause: sanitizeCause(error, secretsOf(this.config)) });
  }

  /**
   * One attempt under its own controller, fed by the caller's signals and the timeout timer, up to
   * the headers of its last hop. On a response, the guard that keeps them is returned with it; on a
   * failure it is disposed.
   */
  private async send(attempt: number): Promise<{ response: Response; guard: Guard }> {
    const { timeoutMs, callerSignals } = this;
    const clock = this.config.clock ?? SYSTEM_CLOCK;
    // Before the attempt's timer starts: a hook's own time is not the request's.
    const headers = this.hooks === undefined ? undefined : await this.beforeSend(attempt);
    const controller = new AbortController();
    const detach = callerSignals.length === 0 ? undefined : follow(controller, callerSignals);
    const guard: Guard = {
      controller,
      timedOut: false,
      stopTimer() {
        clock.clearTimeout(timer);
      },
      dispose() {
        clock.clearTimeout(timer);
        detach?.();
      },
    };
    const timer =
      timeoutMs > 0
        ? clock.setTimeout(() => {
            guard.timedOut = true;
            controller.abort();
          }, timeoutMs)
        : undefined;
    let answered = false;
    if (this.hooks !== undefined) this.sentAt = performance.now();
    try {
      let response = await this.fetchOnce(attempt, controller, headers);
      answered = true;
      if (this.followsRedirects) response = await this.followRedirects(response, controller, headers);
      return { response, guard };
    } catch (error) {
      guard.dispose();
      // With the platform following redirects, a refusal may come from a later hop: not proof.
      this.firstHopFailure = !answered && (this.followsRedirects || this.redirect !== "follow");
      throw await this.failed(this.failure(error, guard), attempt);
    }
  }

  private hookAttempt(attempt: number): HookAttempt {
    return { operationId: this.operationId, attempt, method: this.method, url: this.url };
  }

  /**
   * Runs the `onRequest` hooks on the attempt's headers less those a credential may be in (by name,
   * or holding one in any spelling), and returns what the attempt sends: the hooks' headers, then those.
   */
  private async beforeSend(attempt: number): Promise<Headers> {
    const { config } = this;
    const credentialHeaders = config.credentialHeaders ?? DEFAULT_CREDENTIAL_HEADERS;
    const shown = new Headers();
    const kept: Array<[string, string]> = [];
    for (const [name, value] of new Headers(this.request.headers)) {
      if (this.hiddenFromHooks(name, value)) kept.push([name, value]);
      else shown.append(name, value);
    }
    const request = { ...this.hookAttempt(attempt), headers: shown };
    await this.runHooks(async (hooks) => hooks.onRequest?.(request));
    const sent = new Headers(request.headers);
    const overridden = [...credentialHeaders].filter((name) => sent.has(name));
    if (overridden.length > 0) {
      config.logger?.warn?.(logMessage(config, "a hook set a header the client's credentials go in; the client's own is sent"), { method: this.method, url: this.url, headers: overridden });
    }
    for (const name of credentialHeaders) sent.delete(name);
    // A header a hook set may be the caller's credential (the contract declaring none): blanked from here on.
    if (config.rememberCredentialHeader !== undefined) for (const [name, value] of sent) config.rememberCredentialHeader(name, value);
    for (const [name] of kept) sent.delete(name);
    for (const [name, value] of kept) sent.append(name, value);
    return sent;
  }

  /**
   * Whether hooks must not see a header: one credentials go in, one that can carry them (cookies),
   * or one holding a credential, written as it is or encoded (base64, percent, JSON…).
   */
  private hiddenFromHooks(name: string, value: string): boolean {
    if ((this.config.credentialHeaders ?? DEFAULT_CREDENTIAL_HEADERS).has(name) || SENSITIVE_HEADERS.has(name)) return true;
    const secrets = secretsOf(this.config);
    return secrets.length > 0 && redactSecrets(value, secrets) !== value;
  }

  /**
   * Runs the `onResponse` hooks once the attempt is over (its body read, or let go before a retry),
   * so their time is not the request's. They see the headers less those that can carry a credential.
   */
  private async answered(response: Pick<Answer, "status" | "headers">, attempt: number): Promise<void> {
    const headers = new Headers();
    for (const [name, value] of response.headers) if (!this.hiddenFromHooks(name, value)) headers.append(name, value);
    const answer = { ...this.hookAttempt(attempt), status: response.status, headers, requestId: requestIdOf(response.headers), durationMs: this.answeredAt - this.sentAt };
    await this.runHooks(async (hooks) => hooks.onResponse?.(answer));
  }

  /** Runs one kind of hook of each set, in order; one that throws is marked, so its error is not retried. */
  private async runHooks(run: (hooks: ClientHooks) => Promise<void> | void): Promise<void> {
    try {
      for (const hooks of this.hooks!) await run(hooks);
    } catch (error) {
      this.hookFailed = true;
      throw error;
    }
  }

  /** Runs the `onError` hooks on an attempt's typed failure, and returns it. */
  private async failed(error: SdkError, attempt: number): Promise<SdkError> {
    if (this.hooks === undefined) return error;
    const failure = { ...this.hookAttempt(attempt), error, durationMs: performance.now() - this.sentAt };
    await this.runHooks(async (hooks) => hooks.onError?.(failure));
    return error;
  }

  /** Follows the redirects `response` starts, as fetch would, each hop under the attempt's controller. */
  private async followRedirects(response: Response, controller: AbortController, headers: Headers | undefined): Promise<Response> {
    let hop: Hop = { url: this.target, method: this.method, headers: headers ?? new Headers(this.request.headers), withBody: this.body !== undefined };
    for (let redirects = 1; ; redirects++) {
      const next = nextHop(response, hop);
      if (next === undefined) return response;
      await response.body?.cancel().catch(() => undefined);
      if (redirects > MAX_REDIRECTS) throw new TypeError(`more than ${MAX_REDIRECTS} redirects`);
      const init: RequestInit = { method: next.method, headers: next.headers, signal: controller.signal, redirect: "manual" };
      if (next.withBody) this.withBody(init, next.headers);
      response = await (this.config.fetch === undefined ? globalThis.fetch(next.url, init) : this.config.fetch(new Request(next.url, init)));
      hop = next;
    }
  }

  /** Puts the call's body in `init`, for a retry or a redirect (the first send consumed the Request's own). */
  private withBody(init: RequestInit, headers: Headers | undefined): void {
    const body = this.body;
    init.body = body;
    if (body instanceof FormData) {
      // Encoded anew with a new boundary: the first send's multipart Content-Type would not match it.
      const copy = new Headers(headers ?? this.request.headers);
      copy.delete("content-type");
      init.headers = copy;
    }
  }

  /** One send of the attempt; `headers`, when the hooks made them, replace the call's. */
  private fetchOnce(attempt: number, controller: AbortController, headers: Headers | undefined): Promise<Response> {
    const { config, request } = this;
    const redirect = this.followsRedirects ? "manual" : this.redirect;
    const init: RequestInit = { method: request.method, headers: headers ?? request.headers, signal: controller.signal, redirect };
    if (attempt === 1) init.body = request.body;
    else if (this.body !== undefined) this.withBody(init, headers);
    // The platform's fetch builds the one Request itself; a custom fetch is given one.
    return config.fetch === undefined ? globalThis.fetch(this.target, init) : config.fetch(new Request(this.target, init));
  }
}

const NO_SECRETS: readonly string[] = [];
const NO_SIGNALS: readonly AbortSignal[] = [];
const DEFAULT_CREDENTIAL_HEADERS: ReadonlySet<string> = new Set(["authorization"]);

/** The credentials to blank out of what a call's errors and log lines show. */
export function secretsOf(config: TransportConfig): readonly string[] {
  return config.secrets ?? NO_SECRETS;
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
