/**
 * The model endpoints' own limits per operation (the segment after the model: run, status,
 * cancel…): requests per window, windows aligned on the clock as the service counts them, and
 * requests in flight at once; over them, 429 with `Retry-After` and no rate-limit header.
 */

export interface EndpointLimit {
  requests: number;
  windowSeconds: number;
  concurrent?: number | undefined;
}

export class EndpointLimits {
  readonly #limits: Readonly<Record<string, EndpointLimit>>;
  /** Per operation of `holdUntilInFlight`, once its first answer went: the answers held, or "released". */
  readonly #holdUntil: Readonly<Record<string, number>>;
  readonly #held = new Map<string, Array<() => void> | "released">();
  readonly #windows = new Map<string, { start: number; used: number }>();
  readonly #inFlight = new Map<string, number>();
  /** The most requests of each operation seen in flight at once. */
  readonly peakInFlight = new Map<string, number>();

  constructor(limits: Readonly<Record<string, EndpointLimit>> = {}, holdUntilInFlight: Readonly<Record<string, number>> = {}) {
    this.#limits = limits;
    this.#holdUntil = holdUntilInFlight;
  }

  /**
   * Counts a request of `operation` on `model`: the refusal (its wait in seconds and why) when it is
   * over a limit, else a function to call once it is answered.
   */
  enter(model: string, operation: string, now: number): { retryAfter: number; detail: string } | (() => void) {
    const limit = Object.hasOwn(this.#limits, operation) ? this.#limits[operation] : undefined;
    if (limit === undefined) return () => undefined;
    const inFlight = (this.#inFlight.get(operation) ?? 0) + 1;
    if (limit.concurrent !== undefined && inFlight > limit.concurrent) return { retryAfter: 1, detail: `more than ${limit.concurrent} ${operation} requests at once` };
    const windowMs = limit.windowSeconds * 1000;
    const start = Math.floor(now / windowMs) * windowMs;
    const key = `${model}/${operation}`;
    const window = this.#windows.get(key)?.start === start ? this.#windows.get(key)! : { start, used: 0 };
    this.#windows.set(key, window);
    if (window.used >= limit.requests) {
      return { retryAfter: Math.max(1, Math.ceil((start + windowMs - now) / 1000)), detail: `more than ${limit.requests} ${operation} requests in ${limit.windowSeconds} s` };
    }
    window.used += 1;
    this.#inFlight.set(operation, inFlight);
    this.peakInFlight.set(operation, Math.max(this.peakInFlight.get(operation) ?? 0, inFlight));
    return () => this.#inFlight.set(operation, this.#inFlight.get(operation)! - 1);
  }

  /**
   * Resolves when the answer of a request of `operation` may go: at once, except for an operation
   * of `holdUntilInFlight` whose first answer went, whose answers wait until that many of its
   * requests are in flight (then every held answer goes, and none is held again).
   */
  hold(operation: string): Promise<void> {
    const until = Object.hasOwn(this.#holdUntil, operation) ? this.#holdUntil[operation] : undefined;
    const held = this.#held.get(operation);
    if (until === undefined || held === "released") return Promise.resolve();
    if (held === undefined) {
      this.#held.set(operation, []);
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      held.push(resolve);
      if ((this.#inFlight.get(operation) ?? 0) < until) return;
      this.#held.set(operation, "released");
      for (const go of held) go();
    });
  }
}
