/**
 * A gate that keeps many requests (a batch) within the rate limits the server reports in its
 * `RateLimit` headers (parsed by rate-limit.ts), so that an honest quota never answers 429; the cap
 * on what a server may make the job helpers wait, and the error of a job the limits hold too long.
 */
import { SdkError, nameClass } from "./error-base.js";
import type { RateLimitState } from "./rate-limit.js";
import { abortable, sleep as abortableSleep } from "./signals.js";

/**
 * The longest pause the job helpers take on the service's word (a window's reset, a Retry-After):
 * a day, the longest window the service reports. A longer one is a broken header: it is cut to this.
 */
export const MAX_RATE_LIMIT_WAIT_MS = 24 * 3600 * 1000;

/**
 * What holds the next request at the gate: the window, the pause, and the window's reset in seconds
 * as the server reported it, before the cap (after a reset, as reckoned from the window's length).
 */
export interface GateHold {
  window: string;
  delayMs: number;
  reportedResetSeconds: number;
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
  readonly timeoutMs: number;

  constructor(hold: GateHold | undefined, timeoutMs: number) {
    const capped = hold !== undefined && hold.reportedResetSeconds * 1000 > MAX_RATE_LIMIT_WAIT_MS;
    const window = hold === undefined ? "" : ` (window "${hold.window}", reset in ${hold.reportedResetSeconds} s${capped ? `, counted as ${MAX_RATE_LIMIT_WAIT_MS / 1000} s` : ""})`;
    const wait = hold === undefined ? "" : ` ${Math.ceil(hold.delayMs / 1000)} s,`;
    super("rate_limit", `the service's rate limit${window} would hold this job's submission${wait} past its timeoutMs of ${timeoutMs} ms; nothing was sent`);
    this.window = hold?.window;
    this.waitMs = hold?.delayMs ?? 0;
    this.reportedResetSeconds = hold?.reportedResetSeconds;
    this.capped = capped;
    this.timeoutMs = timeoutMs;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), window: this.window, waitMs: this.waitMs, reportedResetSeconds: this.reportedResetSeconds, capped: this.capped, timeoutMs: this.timeoutMs };
  }
}

/**
 * Keeps a batch under the limits the server reports. Per window it keeps an estimate of the
 * requests left and when the window resets: each request sent takes one; each answer's `RateLimit`
 * can only lower the estimate (an answer that arrives late, computed before requests still in
 * flight, must not raise it) unless it speaks of a later period. At a reset the window starts again
 * at its quota (`RateLimit-Policy`), not unlimited, so waiting workers do not all go at once. With
 * none left, a request waits for the reset: an honest quota then never answers 429.
 */
export class RateGate {
  readonly #windows = new Map<string, { remaining: number; resetAt: number; quota: number | undefined; windowMs: number | undefined; reportedResetSeconds: number }>();
  #inFlight = 0;
  /** Settled by the first answer (or failure); undefined from then on. */
  #firstAnswer: { promise: Promise<void>; resolve(): void } | undefined;
  readonly #now: () => number;
  readonly #sleep: (ms: number, signal?: AbortSignal) => Promise<void>;

  constructor(now: () => number = Date.now, sleep: (ms: number, signal?: AbortSignal) => Promise<void> = abortableSleep) {
    this.#now = now;
    this.#sleep = sleep;
    let resolve!: () => void;
    const promise = new Promise<void>((settle) => (resolve = settle));
    this.#firstAnswer = { promise, resolve };
  }

  /** Milliseconds until a request may be sent (0: now). */
  delayMs(): number {
    return this.holding()?.delayMs ?? 0;
  }

  /** What holds the next request, the window that holds it longest; undefined when it may go now. */
  holding(): GateHold | undefined {
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
    return hold;
  }

  /**
   * Waits for a request's turn and takes it. False, without taking one, when the limits would hold
   * it past `deadline` (`holding()` then says why).
   */
  async acquire(signal?: AbortSignal, deadline = Infinity): Promise<boolean> {
    // Until a first answer tells the limits, one request at a time: a burst could overrun a small quota.
    while (this.#firstAnswer !== undefined && this.#inFlight > 0) await abortable(this.#firstAnswer.promise, signal);
    for (let delay = this.delayMs(); delay > 0; delay = this.delayMs()) {
      if (this.#now() + delay > deadline) return false;
      await this.#sleep(delay, signal);
    }
    this.#inFlight += 1;
    for (const window of this.#windows.values()) window.remaining -= 1;
    return true;
  }

  release(rateLimit: RateLimitState | undefined): void {
    this.#inFlight -= 1;
    this.#firstAnswer?.resolve();
    this.#firstAnswer = undefined;
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

/** The `rateLimit` of an answer or an error; anything may be thrown, `undefined` included. */
export function rateLimitOf(value: unknown): RateLimitState | undefined {
  return typeof value === "object" && value !== null ? (value as { rateLimit?: RateLimitState }).rateLimit : undefined;
}
