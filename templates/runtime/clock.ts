/**
 * The time a client reads and waits by: the platform's, or one a test controls (the package's
 * `testing` entry has one), given as the client's `clock` option. Every wait of the transport (a
 * retry's pause, `Retry-After`, an attempt's timeout) goes through it.
 */

export interface Clock {
  /** Milliseconds since the epoch, as `Date.now()`. */
  now(): number;
  /** As the global `setTimeout`: runs `callback` once `ms` have passed; returns what `clearTimeout` takes. */
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** The platform's timers, looked up at each call (so a test's replacement of the globals still applies). */
export const SYSTEM_CLOCK: Clock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};
