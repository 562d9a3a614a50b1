/**
 * A gate that keeps many requests (a batch) within the rate limits the server reports in its
 * `RateLimit` headers (parsed by rate-limit.ts), so that an honest quota never answers 429.
 */
import type { RateLimitState } from "./rate-limit.js";
import { abortable, sleep as abortableSleep } from "./signals.js";

/**
 * Keeps a batch under the limits the server reports. Per window it keeps an estimate of the
 * requests left and when the window resets: each request sent takes one; each answer's `RateLimit`
 * can only lower the estimate (an answer that arrives late, computed before requests still in
 * flight, must not raise it) unless it speaks of a later period. At a reset the window starts again
 * at its quota (`RateLimit-Policy`), not unlimited, so waiting workers do not all go at once. With
 * none left, a request waits for the reset: an honest quota then never answers 429.
 */
export class RateGate {
  readonly #windows = new Map<string, { remaining: number; resetAt: number; quota: number | undefined; windowMs: number | undefined }>();
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
    const now = this.#now();
    let delay = 0;
    for (const [name, window] of this.#windows) {
      if (now >= window.resetAt) {
        // A new period: its quota, when the policy gave one; otherwise nothing is known any more.
        if (window.quota === undefined) {
          this.#windows.delete(name);
          continue;
        }
        window.remaining = window.quota;
        window.resetAt = window.windowMs === undefined ? Infinity : window.resetAt + Math.ceil((now - window.resetAt + 1) / window.windowMs) * window.windowMs;
      }
      if (window.remaining <= 0) delay = Math.max(delay, window.resetAt - now);
    }
    return Number.isFinite(delay) ? Math.max(0, delay) : 0;
  }

  /**
   * Waits for a request's turn and takes it. False, without taking one, when the limits would hold
   * it past `deadline`.
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
      const resetAt = now + resetSeconds * 1000;
      // Requests still in flight may not be counted in this answer yet: assume they are not.
      const serverView = remaining - this.#inFlight;
      const known = this.#windows.get(name);
      const windowMs = windowSeconds === undefined ? known?.windowMs : windowSeconds * 1000;
      // `t` is whole seconds, so answers of one period differ in resetAt by up to a second.
      if (known !== undefined && resetAt < known.resetAt - 1_000) continue; // an earlier period's answer, arriving late
      if (known === undefined || resetAt > known.resetAt + 1_000) {
        this.#windows.set(name, { remaining: serverView, resetAt, quota: quota ?? known?.quota, windowMs });
      } else {
        known.remaining = Math.min(known.remaining, serverView);
        // The later of the two: a reset reckoned here from the window's length may run ahead of the server's.
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
