/**
 * Waiting for a pod: reads it again until its status says it runs and every TCP port it asked for
 * (SSH's `22/tcp` among them) has a public address, or its status says it will not, within a
 * timeout and a signal. `x-pod-readiness` on the read operation says where each fact is.
 */
import type { ApiResult, RequestOptions } from "../client-core.js";
import { SdkError, blankOwnFields, nameClass } from "../error-base.js";
import { checkNumber } from "../option-checks.js";
import { checkTimeout, sleep as abortableSleep } from "../signals.js";
import { valueAt } from "../json-pointer.js";

/** `x-pod-readiness`, as the generator read it. */
export interface PodReadinessSpec {
  statusFrom: string;
  /** Statuses in which the pod runs. */
  ready: readonly string[];
  /** Statuses after which it will not run without an action (a wait ends there). */
  failed: readonly string[];
  /** The ports the pod asked for (`<port>/<protocol>`), and the live mappings (`{private, public, ip}`). */
  portsFrom?: string | undefined;
  mappingsFrom?: string | undefined;
}

export const DEFAULT_POD_WAIT_TIMEOUT_MS = 10 * 60_000;
export const DEFAULT_POD_POLL_INTERVAL_MS = 5_000;

export interface PodWaitOptions {
  /** Give up after this long (default 10 minutes; `Infinity` waits for as long as it takes). */
  timeoutMs?: number | undefined;
  /** Pause between reads (default 5 000 ms). */
  intervalMs?: number | undefined;
  /** Also wait until every TCP port the pod asked for has a public address (default true). */
  waitForPorts?: boolean | undefined;
  signal?: AbortSignal | undefined;
  /** Called with each pod read. */
  onPoll?(pod: unknown, state: PodState): void;
  /** For tests: the clock and the pause (default Date.now and an abortable setTimeout). */
  now?(): number;
  sleep?(ms: number, signal?: AbortSignal): Promise<void>;
}

/** What one read of the pod says: `ready`, `failed` (a status it will not run from), or `pending`. */
export type PodState = "ready" | "failed" | "pending";

export type PodWaitReason = "failed" | "timeout" | "aborted";

/** The wait ended without a ready pod; `pod` is the last one read (if any). */
export class PodWaitError extends SdkError {
  static {
    nameClass(this, "PodWaitError");
  }
  readonly reason: PodWaitReason;
  readonly status: string | undefined;
  readonly pod: unknown;

  constructor(reason: PodWaitReason, pod: unknown, status: string | undefined, elapsedMs: number) {
    const seen = status === undefined ? "never read" : `last seen ${status}`;
    super(
      reason === "aborted" ? "aborted" : reason === "timeout" ? "timeout" : "pod_failed",
      reason === "failed" ? `the pod is ${status} and will not run without an action` : `${reason === "timeout" ? "timed out" : "aborted"} waiting for the pod after ${elapsedMs} ms (${seen})`,
    );
    this.reason = reason;
    this.status = status;
    this.pod = pod;
    blankOwnFields(this);
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), reason: this.reason, status: this.status };
  }
}

/** Where the pod stands, by the spec: its status, then (when asked) its TCP ports' public addresses. */
export function podState(pod: unknown, spec: PodReadinessSpec, waitForPorts = true): PodState {
  const status = valueAt(pod, spec.statusFrom);
  if (typeof status === "string" && spec.failed.includes(status)) return "failed";
  if (typeof status !== "string" || !spec.ready.includes(status)) return "pending";
  if (!waitForPorts || spec.portsFrom === undefined || spec.mappingsFrom === undefined) return "ready";
  return tcpPortsMapped(valueAt(pod, spec.portsFrom), valueAt(pod, spec.mappingsFrom)) ? "ready" : "pending";
}

/** Every `<n>/tcp` asked for has a mapping from private port n with a public port and an address. */
function tcpPortsMapped(asked: unknown, mappings: unknown): boolean {
  const wanted = (Array.isArray(asked) ? asked : []).flatMap((port) => {
    const match = typeof port === "string" ? /^(\d{1,5})\/tcp$/.exec(port) : null;
    return match ? [Number(match[1])] : [];
  });
  if (wanted.length === 0) return true;
  const live = Array.isArray(mappings) ? (mappings as Array<Record<string, unknown> | null>) : [];
  return wanted.every((port) =>
    live.some((mapping) => mapping !== null && typeof mapping === "object" && mapping["private"] === port && typeof mapping["public"] === "number" && typeof mapping["ip"] === "string" && mapping["ip"] !== ""),
  );
}

/**
 * Reads the pod every `intervalMs` until it is ready (resolves with it) or failed, the timeout
 * passes, or the signal aborts (throws `PodWaitError`). The read in flight gets the signal too; no
 * timer is left behind.
 */
export async function waitForPod<P>(read: (options: RequestOptions) => Promise<ApiResult<P>>, spec: PodReadinessSpec, options: PodWaitOptions = {}): Promise<P> {
  checkTimeout("timeoutMs", options.timeoutMs);
  // Zero would read the pod back to back for the whole wait.
  checkNumber("intervalMs", options.intervalMs, { unit: "milliseconds", min: 0, above: true });
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? abortableSleep;
  const timeoutMs = options.timeoutMs ?? DEFAULT_POD_WAIT_TIMEOUT_MS;
  const intervalMs = options.intervalMs ?? DEFAULT_POD_POLL_INTERVAL_MS;
  const started = now();
  const elapsed = (): number => now() - started;
  let pod: unknown;
  let status: string | undefined;
  const give = (reason: PodWaitReason): PodWaitError => new PodWaitError(reason, pod, status, elapsed());
  for (;;) {
    if (options.signal?.aborted) throw give("aborted");
    try {
      pod = (await read(options.signal ? { signal: options.signal } : {})).data;
    } catch (error) {
      if (options.signal?.aborted) throw give("aborted");
      throw error;
    }
    const seen = valueAt(pod, spec.statusFrom);
    status = typeof seen === "string" ? seen : undefined;
    const state = podState(pod, spec, options.waitForPorts ?? true);
    options.onPoll?.(pod, state);
    if (state === "ready") return pod as P;
    if (state === "failed") throw give("failed");
    const left = timeoutMs - elapsed();
    if (left <= 0) throw give("timeout");
    try {
      await sleep(Math.min(intervalMs, left), options.signal);
    } catch (error) {
      if (options.signal?.aborted) throw give("aborted");
      throw error;
    }
  }
}
