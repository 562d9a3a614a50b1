/**
 * Timers and abort signals: an abortable sleep, signals linked without leaving listeners behind,
 * setTimeout's limit, and the check every timeout option goes through.
 */
import { AbortedError, InvalidRequestError } from "./errors.js";

/** The longest delay setTimeout keeps: it runs a longer one at once. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

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
