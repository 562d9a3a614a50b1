/**
 * Time a test controls: a `Clock` (../clock.ts) whose timers fire when the test's time reaches
 * them, not the machine's. Given to the client as its `clock` option and to the test kit, a 429
 * asking to wait 12 s is waited on this clock: the test's time moves 12 s, the machine's does not.
 *
 * By default the clock moves itself: whenever timers are pending and everything else has had a
 * turn (the platform's event loop), it jumps to the next one. With `{ autoAdvance: false }` it
 * moves only when the test calls `advance(ms)` or `runAll()`.
 */
import type { Clock } from "../clock.js";

/** 2025-01-01T00:00:00Z: a fixed start, so a test's dates are the same on every run. */
const DEFAULT_START = 1_735_689_600_000;
/** The platform's setTimeout as it was when the kit loaded: a test that then fakes the globals (vi.useFakeTimers) does not stop this clock. */
const platformSetTimeout = globalThis.setTimeout;
/** Timers fired in one `runAll()` before it gives up on a timer that always sets another. */
const MAX_RUN = 100_000;

interface Timer {
  id: number;
  at: number;
  callback: () => void;
}

export interface TestClockOptions {
  /** Where the clock starts, in milliseconds since the epoch (a number or a Date); default 2025-01-01T00:00:00Z. */
  start?: number | Date | undefined;
  /** Jump to the next timer whenever nothing else is left to run; default true. */
  autoAdvance?: boolean | undefined;
}

export class TestClock implements Clock {
  #now: number;
  readonly #start: number;
  readonly #timers: Timer[] = [];
  #nextId = 1;
  readonly #auto: boolean;
  #scheduled = false;

  constructor(options: TestClockOptions = {}) {
    const start = options.start instanceof Date ? options.start.getTime() : (options.start ?? DEFAULT_START);
    this.#now = this.#start = start;
    this.#auto = options.autoAdvance ?? true;
    // Bound, so the methods can be handed out on their own (`{ now: clock.now }`).
    this.now = this.now.bind(this);
    this.setTimeout = this.setTimeout.bind(this);
    this.clearTimeout = this.clearTimeout.bind(this);
    this.sleep = this.sleep.bind(this);
  }

  /** The test's time, in milliseconds since the epoch. */
  now(): number {
    return this.#now;
  }

  /** How far the test's time has moved since the clock started, in milliseconds. */
  get elapsedMs(): number {
    return this.#now - this.#start;
  }

  /** Timers not yet fired. */
  get pending(): number {
    return this.#timers.length;
  }

  setTimeout(callback: () => void, ms: number): unknown {
    const delay = Number.isFinite(ms) && ms > 0 ? ms : 0;
    const timer = { id: this.#nextId++, at: this.#now + delay, callback };
    this.#timers.push(timer);
    this.#wake();
    return timer.id;
  }

  clearTimeout(handle: unknown): void {
    const index = this.#timers.findIndex((timer) => timer.id === handle);
    if (index !== -1) this.#timers.splice(index, 1);
  }

  /** Resolves once `ms` of the test's time have passed; rejects with the signal's reason when it aborts first. */
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const onAbort = (): void => {
        this.clearTimeout(id);
        reject(signal!.reason);
      };
      const id = this.setTimeout(() => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      }, ms);
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  }

  /**
   * Moves the test's time `ms` ahead, firing each timer due on the way in order (one that a fired
   * timer sets is fired too when it falls due in the same span), letting the code each wakes run
   * before the next.
   */
  async advance(ms: number): Promise<void> {
    // What is already running first sets the timers it is about to wait on.
    await settle();
    const until = this.#now + Math.max(0, ms);
    for (let next = this.#earliest(); next !== undefined && next.at <= until; next = this.#earliest()) {
      this.#fire(next);
      await settle();
    }
    this.#now = Math.max(this.#now, until);
  }

  /** Fires every pending timer, and those they set, in time order, letting the code each wakes run before the next. */
  async runAll(): Promise<void> {
    await settle();
    for (let fired = 0; this.#timers.length > 0; fired++) {
      if (fired >= MAX_RUN) throw new Error(`TestClock.runAll: still timers after ${MAX_RUN} fired (a timer that always sets another?)`);
      this.#fire(this.#earliest()!);
      await settle();
    }
  }

  #earliest(): Timer | undefined {
    let first: Timer | undefined;
    for (const timer of this.#timers) if (first === undefined || timer.at < first.at || (timer.at === first.at && timer.id < first.id)) first = timer;
    return first;
  }

  #fire(timer: Timer): void {
    this.clearTimeout(timer.id);
    this.#now = Math.max(this.#now, timer.at);
    timer.callback();
  }

  /** With auto-advance, one step at a time on the platform's event loop: what is running finishes first. */
  #wake(): void {
    if (!this.#auto || this.#scheduled) return;
    this.#scheduled = true;
    void settle().then(() => {
      this.#scheduled = false;
      const next = this.#earliest();
      if (next === undefined) return;
      this.#fire(next);
      if (this.#timers.length > 0) this.#wake();
    });
  }
}

/**
 * A few turns of the platform's event loop (its own timers, not the test's): promise chains and
 * stream reads woken by a fired timer run to their next wait before the test's time moves on.
 */
function settle(): Promise<void> {
  return new Promise((resolve) => {
    let turns = 3;
    const turn = (): void => {
      if (--turns === 0) resolve();
      else platformSetTimeout(turn, 0);
    };
    platformSetTimeout(turn, 0);
  });
}
