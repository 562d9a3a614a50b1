/**
 * A gate that keeps many requests (a batch) within the rate limits the server reports in its
 * `RateLimit` headers (parsed by rate-limit.ts) and the limits the contract documents per operation
 * (`x-request-limits`), so that an honest quota never answers 429; the cap on what a server may
 * make the job helpers wait, and the error of a job the limits hold too long.
 */
import { SdkError, blankOwnFields, nameClass } from "../error-base.js";
import type { RateLimitState } from "../rate-limit.js";
import { abortable, sleep as abortableSleep } from "../signals.js";

/**
 * The longest pause the job helpers take on the service's word (a window's reset, a Retry-After):
 * a day, the longest window the service reports. A longer one is a broken header: it is cut to this.
 */
export const MAX_RATE_LIMIT_WAIT_MS = 24 * 3600 * 1000;

/** What the contract says the service takes of an operation (its `x-request-limits`). */
export interface RequestLimit {
  readonly requests: number;
  readonly windowSeconds: number;
  /** Requests in flight at once. */
  readonly concurrent?: number | undefined;
}

/**
 * What holds the next request at the gate: the window, the pause, and the window's reset in seconds
 * as the server reported it, before the cap (after a reset, as reckoned from the window's length).
 * A limit of the contract (`source: "contract"`) is named by its operation, its reset reckoned
 * here; `atOnce` when it is the number in flight that held it (`delayMs` is then how long it did).
 */
export interface GateHold {
  window: string;
  delayMs: number;
  reportedResetSeconds: number;
  source?: "contract" | undefined;
  /** The contract's limit that holds the request. */
  limit?: RequestLimit | undefined;
  atOnce?: boolean | undefined;
}

/** The contract's limit of one operation, as the gate keeps it: when each request of the last window went, how many are in flight. */
interface OperationPace {
  readonly limit: RequestLimit;
  /** Oldest first; none older than the window. */
  readonly sentAt: number[];
  inFlight: number;
  /** Requests waiting for one in flight to end; each ending wakes them all, to look again. */
  readonly waiting: Array<() => void>;
}

/**
 * The rate limits the server reported would hold a job's submission past its `timeoutMs`, so it
 * was not sent. A reset reported beyond a day counts as a day (`capped`).
 */
export class RateLimitWaitError extends SdkError {
  static {
    nameClass(this, "RateLimitWaitError");
  }
  readonly window: string | undefined;
  /** How long the gate would have held the submission. */
  readonly waitMs: number;
  /** The window's reset as the server reported it, in seconds (before the cap). */
  readonly reportedResetSeconds: number | undefined;
  readonly capped: boolean;
  /** Whose limit held it: the server's `RateLimit` window, or the contract's `x-request-limits` (`window` is then the operation). */
  readonly source: "server" | "contract" | undefined;
  readonly timeoutMs: number;

  constructor(hold: GateHold | undefined, timeoutMs: number) {
    const capped = hold !== undefined && hold.reportedResetSeconds * 1000 > MAX_RATE_LIMIT_WAIT_MS;
    const wait = hold === undefined ? "" : ` ${Math.ceil(hold.delayMs / 1000)} s,`;
    const held = hold?.atOnce ? `held this job's submission${wait}` : `would hold this job's submission${wait}`;
    super("rate_limit", `${describeHold(hold, capped)} ${held} past its timeoutMs of ${timeoutMs} ms; nothing was sent`);
    this.window = hold?.window;
    this.waitMs = hold?.delayMs ?? 0;
    this.reportedResetSeconds = hold?.reportedResetSeconds;
    this.capped = capped;
    this.source = hold === undefined ? undefined : (hold.source ?? "server");
    this.timeoutMs = timeoutMs;
    blankOwnFields(this);
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), window: this.window, waitMs: this.waitMs, reportedResetSeconds: this.reportedResetSeconds, capped: this.capped, source: this.source, timeoutMs: this.timeoutMs };
  }
}

function describeHold(hold: GateHold | undefined, capped: boolean): string {
  if (hold === undefined) return "the service's rate limit";
  if (hold.source === "contract" && hold.limit !== undefined && hold.atOnce) {
    return `the service's documented limit of "${hold.window}" (${hold.limit.concurrent} at once)`;
  }
  if (hold.source === "contract" && hold.limit !== undefined) {
    return `the service's documented limit of "${hold.window}" (${hold.limit.requests} request${hold.limit.requests === 1 ? "" : "s"} per ${hold.limit.windowSeconds} s; the next turn in ${hold.reportedResetSeconds} s)`;
  }
  return `the service's rate limit (window "${hold.window}", reset in ${hold.reportedResetSeconds} s${capped ? `, counted as ${MAX_RATE_LIMIT_WAIT_MS / 1000} s` : ""})`;
}

/**
 * Keeps a batch under the limits the server reports. Per window it keeps an estimate of the
 * requests left and when the window resets: each request sent takes one; each answer's `RateLimit`
 * can only lower the estimate (an answer that arrives late, computed before requests still in
 * flight, must not raise it) unless it speaks of a later period. At a reset the window starts again
 * at its quota (`RateLimit-Policy`), not unlimited, so waiting workers do not all go at once. With
 * none left, a request waits for the reset: an honest quota then never answers 429.
 *
 * The contract's limits of each operation (`limits`, by the name `acquire` is given) hold too: no
 * more requests in any span of the window than it allows (a span, not the server's aligned windows,
 * which the client cannot see: within every span means within every window), and no more in
 * flight at once than `concurrent`, whatever the server's headers say: they speak of per-user
 * windows, not of an endpoint's, and a documented limit is the least the service allows (it raises
 * them with its workers), so keeping to it never meets a 429.
 */
export class RateGate {
  readonly #windows = new Map<string, { remaining: number; resetAt: number; quota: number | undefined; windowMs: number | undefined; reportedResetSeconds: number }>();
  #inFlight = 0;
  /** Settled by the first answer (or failure); undefined from then on. */
  #firstAnswer: { promise: Promise<void>; resolve(): void } | undefined;
  readonly #now: () => number;
  readonly #sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  readonly #paces = new Map<string, OperationPace>();

  constructor(
    now: () => number = Date.now,
    sleep: (ms: number, signal?: AbortSignal) => Promise<void> = abortableSleep,
    limits: Readonly<Record<string, RequestLimit | undefined>> = {},
  ) {
    this.#now = now;
    this.#sleep = sleep;
    for (const [operation, limit] of Object.entries(limits)) {
      if (limit !== undefined) this.#paces.set(operation, { limit, sentAt: [], inFlight: 0, waiting: [] });
    }
    let resolve!: () => void;
    const promise = new Promise<void>((settle) => (resolve = settle));
    this.#firstAnswer = { promise, resolve };
  }

  /** Milliseconds until a request (of `operation`, when named) may be sent (0: now). */
  delayMs(operation?: string): number {
    return this.holding(operation)?.delayMs ?? 0;
  }

  /** What holds the next request (of `operation`), the window that holds it longest; undefined when it may go now. */
  holding(operation?: string): GateHold | undefined {
    const now = this.#now();
    let hold: GateHold | undefined;
    for (const [name, window] of this.#windows) {
      if (now >= window.resetAt) {
        // A new period: its quota, when the policy gave one; otherwise nothing is known any more.
        if (window.quota === undefined) {
          this.#windows.delete(name);
          continue;
        }
        window.remaining = window.quota;
        window.resetAt = window.windowMs === undefined ? Infinity : window.resetAt + Math.ceil((now - window.resetAt + 1) / window.windowMs) * window.windowMs;
        window.reportedResetSeconds = Math.ceil((window.resetAt - now) / 1000);
      }
      const delay = window.resetAt - now;
      if (window.remaining <= 0 && Number.isFinite(delay) && delay > (hold?.delayMs ?? 0)) {
        hold = { window: name, delayMs: delay, reportedResetSeconds: window.reportedResetSeconds };
      }
    }
    const documented = this.#documentedHold(operation, now);
    return documented !== undefined && documented.delayMs > (hold?.delayMs ?? 0) ? documented : hold;
  }

  /** The contract's window of `operation`: full, until its oldest request leaves it. */
  #documentedHold(operation: string | undefined, now: number): GateHold | undefined {
    const pace = operation === undefined ? undefined : this.#paces.get(operation);
    if (pace === undefined) return undefined;
    const { requests, windowSeconds } = pace.limit;
    forget(pace, now);
    if (pace.sentAt.length < requests) return undefined;
    const delayMs = pace.sentAt[pace.sentAt.length - requests]! + windowSeconds * 1000 - now;
    return { window: operation!, delayMs, reportedResetSeconds: Math.ceil(delayMs / 1000), source: "contract", limit: pace.limit };
  }

  /**
   * Waits for a request's turn (a request of `operation`, whose contract limits then apply too) and
   * takes it: true. Without taking one, what holds it when the limits would hold it past
   * `deadline`. A wait for one of `concurrent` requests to end is not bounded ahead (each has a
   * timeout of its own), but nothing is taken once it ends past the deadline.
   */
  async acquire(signal?: AbortSignal, deadline = Infinity, operation?: string): Promise<true | GateHold> {
    // Until a first answer tells the limits, one request at a time: a burst could overrun a small quota.
    while (this.#firstAnswer !== undefined && this.#inFlight > 0) await abortable(this.#firstAnswer.promise, signal);
    const pace = operation === undefined ? undefined : this.#paces.get(operation);
    for (;;) {
      const hold = this.holding(operation);
      if (hold !== undefined && hold.delayMs > 0) {
        if (this.#now() + hold.delayMs > deadline) return hold;
        await this.#sleep(hold.delayMs, signal);
        continue;
      }
      if (pace?.limit.concurrent === undefined || pace.inFlight < pace.limit.concurrent) break;
      const since = this.#now();
      await abortable(new Promise<void>((resolve) => pace.waiting.push(resolve)), signal);
      const waited = this.#now() - since;
      if (this.#now() > deadline) return { window: operation!, delayMs: waited, reportedResetSeconds: 0, source: "contract", limit: pace.limit, atOnce: true };
    }
    this.#inFlight += 1;
    for (const window of this.#windows.values()) window.remaining -= 1;
    if (pace !== undefined) {
      pace.inFlight += 1;
      pace.sentAt.push(this.#now());
      forget(pace, this.#now());
    }
    return true;
  }

  /**
   * Gives back a turn `acquire` took for a request that was then not sent (as if it had not been
   * taken; the first answer is still awaited).
   */
  unsent(operation?: string): void {
    this.#inFlight -= 1;
    for (const window of this.#windows.values()) window.remaining += 1;
    const pace = operation === undefined ? undefined : this.#paces.get(operation);
    if (pace !== undefined) {
      pace.sentAt.pop();
      this.#free(pace);
    }
  }

  #free(pace: OperationPace): void {
    pace.inFlight -= 1;
    for (const wake of pace.waiting.splice(0)) wake();
  }

  /** Gives back the turn `acquire` took (for the same `operation`), with what the answer said of the limits. */
  release(rateLimit: RateLimitState | undefined, operation?: string): void {
    this.#inFlight -= 1;
    this.#firstAnswer?.resolve();
    this.#firstAnswer = undefined;
    const pace = operation === undefined ? undefined : this.#paces.get(operation);
    if (pace !== undefined) this.#free(pace);
    const now = this.#now();
    for (const { name, remaining, resetSeconds, quota, windowSeconds } of rateLimit?.windows ?? []) {
      if (remaining === undefined || resetSeconds === undefined) continue;
      const resetAt = now + Math.min(resetSeconds * 1000, MAX_RATE_LIMIT_WAIT_MS);
      // Requests still in flight may not be counted in this answer yet: assume they are not.
      const serverView = remaining - this.#inFlight;
      const known = this.#windows.get(name);
      const windowMs = windowSeconds === undefined ? known?.windowMs : windowSeconds * 1000;
      // `t` is whole seconds, so answers of one period differ in resetAt by up to a second.
      if (known !== undefined && resetAt < known.resetAt - 1_000) continue; // an earlier period's answer, arriving late
      if (known === undefined || resetAt > known.resetAt + 1_000) {
        this.#windows.set(name, { remaining: serverView, resetAt, quota: quota ?? known?.quota, windowMs, reportedResetSeconds: resetSeconds });
      } else {
        known.remaining = Math.min(known.remaining, serverView);
        // The later of the two: a reset reckoned here from the window's length may run ahead of the server's.
        if (resetAt >= known.resetAt) known.reportedResetSeconds = resetSeconds;
        known.resetAt = Math.max(known.resetAt, resetAt);
        known.quota = quota ?? known.quota;
        known.windowMs = windowMs;
      }
    }
  }
}

/** Drops the requests that left the contract's window (so that `sentAt` never outgrows its limit). */
function forget(pace: OperationPace, now: number): void {
  const since = now - pace.limit.windowSeconds * 1000;
  let gone = 0;
  while (gone < pace.sentAt.length && pace.sentAt[gone]! <= since) gone += 1;
  if (gone > 0) pace.sentAt.splice(0, gone);
}

/** The `rateLimit` of an answer or an error; anything may be thrown, `undefined` included. */
export function rateLimitOf(value: unknown): RateLimitState | undefined {
  return typeof value === "object" && value !== null ? (value as { rateLimit?: RateLimitState }).rateLimit : undefined;
}
