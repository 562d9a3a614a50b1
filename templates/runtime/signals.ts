/**
 * Timers and abort signals: an abortable sleep, signals linked without leaving listeners behind, a
 * deadline as a signal, setTimeout's limit, and the check every timeout option goes through.
 */
import { SYSTEM_CLOCK } from "./clock.js";
import type { Clock } from "./clock.js";
import { AbortedError } from "./errors.js";
import { checkNumber } from "./option-checks.js";

/** The longest delay setTimeout keeps: it runs a longer one at once. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * A timeout is a number of milliseconds, 0 or more (`Infinity` allowed). NaN or a negative number
 * is refused: compared with anything it is false, so it would silently mean no timeout at all.
 */
export function checkTimeout(field: string, value: number | undefined): void {
  checkNumber(field, value, { unit: "milliseconds", min: 0, infinity: true });
}

/**
 * Resolves after `ms`; rejects with an AbortedError as soon as `signal` aborts, leaving no timer or
 * listener behind. Waits past setTimeout's limit (about 24.8 days) are slept in steps. `clock`: whose
 * time passes (the client's `clock` option).
 */
export function sleep(ms: number, signal?: AbortSignal, clock: Clock = SYSTEM_CLOCK): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new AbortedError({ reason: signal.reason }));
      return;
    }
    let left = ms;
    let timer: unknown;
    const onAbort = (): void => {
      clock.clearTimeout(timer);
      reject(new AbortedError({ reason: signal?.reason }));
    };
    const step = (): void => {
      const delay = Math.min(left, MAX_TIMER_MS);
      left -= delay;
      timer = clock.setTimeout(() => {
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
export function follow(controller: AbortController, signals: readonly AbortSignal[]): () => void {
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

/**
 * Signals for many tasks that all end with `signal`, linked through one listener on it however many
 * run at once (one link each would add a listener per task, and Node warns past ten). `open()`
 * gives a task its signal and `close()` to unlink it; `dispose()` removes the one listener.
 */
export function fanOut(signal: AbortSignal | undefined): { open(): { signal: AbortSignal | undefined; close(): void }; dispose(): void } {
  if (signal === undefined) return { open: () => ({ signal: undefined, close: () => undefined }), dispose: () => undefined };
  const linked = new Set<AbortController>();
  const onAbort = (): void => {
    for (const controller of linked) controller.abort(signal.reason);
  };
  signal.addEventListener("abort", onAbort, { once: true });
  return {
    open() {
      const controller = new AbortController();
      if (signal.aborted) controller.abort(signal.reason);
      else linked.add(controller);
      return { signal: controller.signal, close: () => void linked.delete(controller) };
    },
    dispose: () => signal.removeEventListener("abort", onAbort),
  };
}

/** `promise`, or an AbortedError as soon as `signal` aborts (leaving no listener behind). */
export function abortable(promise: Promise<void>, signal: AbortSignal | undefined): Promise<void> {
  if (signal === undefined) return promise;
  if (signal.aborted) return Promise.reject(new AbortedError({ reason: signal.reason }));
  return new Promise<void>((resolve, reject) => {
    const onAbort = (): void => reject(new AbortedError({ reason: signal.reason }));
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    });
  });
}

/**
 * A signal that aborts with `signal` or once `ms` have passed (never, for an infinite `ms`);
 * `expired()` tells the second case apart. `dispose` clears the timer and the link.
 */
export function deadlineSignal(signal: AbortSignal | undefined, ms: number, clock: Clock = SYSTEM_CLOCK): { signal: AbortSignal | undefined; expired(): boolean; dispose(): void } {
  if (!Number.isFinite(ms)) return { signal, expired: () => false, dispose: () => undefined };
  const link = linkSignals(signal === undefined ? [] : [signal]);
  let expired = false;
  const timer = clock.setTimeout(() => {
    expired = true;
    link.controller.abort();
  }, Math.max(0, Math.min(ms, MAX_TIMER_MS)));
  return {
    signal: link.controller.signal,
    expired: () => expired,
    dispose() {
      clock.clearTimeout(timer);
      link.dispose();
    },
  };
}
