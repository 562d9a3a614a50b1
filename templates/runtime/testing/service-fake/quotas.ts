/**
 * Per-user request quotas over several windows (each starts at a user's first request in it), as
 * `RateLimit` and `RateLimit-Policy` headers that count down; over one, the request is refused
 * with `Retry-After`.
 */

/** A window: `quota` requests per `seconds`, named in the headers. */
export interface Quota {
  name: string;
  quota: number;
  seconds: number;
}

/** The service's default windows (this project's own figures). */
export const DEFAULT_QUOTAS: readonly Quota[] = [
  { name: "minute", quota: 1000, seconds: 60 },
  { name: "hour", quota: 10000, seconds: 3600 },
  { name: "day", quota: 100000, seconds: 86400 },
];

interface Window extends Quota {
  used: number;
  startedAt: number | undefined;
}

export class Quotas {
  #quotas: readonly Quota[];
  readonly #windows = new Map<string, Window[]>();

  constructor(quotas: readonly Quota[] = DEFAULT_QUOTAS) {
    this.#quotas = quotas;
  }

  /** Replaces the windows of every user (their counts start again); `[]` sends no rate-limit header. */
  set(quotas: readonly Quota[]): void {
    this.#quotas = quotas;
    this.#windows.clear();
  }

  /** Counts a request of `user` in every window; the exceeded window and its wait in seconds, if any (then nothing is counted). */
  consume(user: string, now: number): { name: string; retryAfter: number } | undefined {
    const windows = this.#of(user, now);
    const exceeded = windows.find((window) => window.used >= window.quota);
    if (exceeded) return { name: exceeded.name, retryAfter: Math.max(1, Math.ceil((exceeded.startedAt! + exceeded.seconds * 1000 - now) / 1000)) };
    for (const window of windows) {
      window.startedAt ??= now;
      window.used += 1;
    }
    return undefined;
  }

  /** The `RateLimit` and `RateLimit-Policy` headers of `user` now (none without windows). */
  headers(user: string, now: number): Record<string, string> {
    const windows = this.#of(user, now);
    if (windows.length === 0) return {};
    const reset = (window: Window) => (window.startedAt === undefined ? window.seconds : Math.max(0, Math.ceil((window.startedAt + window.seconds * 1000 - now) / 1000)));
    return {
      RateLimit: windows.map((window) => `"${window.name}";r=${Math.max(0, window.quota - window.used)};t=${reset(window)}`).join(", "),
      "RateLimit-Policy": windows.map((window) => `"${window.name}";q=${window.quota};w=${window.seconds}`).join(", "),
    };
  }

  /** The user's windows, those that have run out started again. */
  #of(user: string, now: number): Window[] {
    let windows = this.#windows.get(user);
    if (windows === undefined) {
      windows = this.#quotas.map((quota) => ({ ...quota, used: 0, startedAt: undefined }));
      this.#windows.set(user, windows);
    }
    for (const window of windows) {
      if (window.startedAt !== undefined && now >= window.startedAt + window.seconds * 1000) Object.assign(window, { startedAt: undefined, used: 0 });
    }
    return windows;
  }
}
