/**
 * What must hold after every fault, whatever the call and whatever the server did: no job
 * submitted again once it may have reached a server, every error typed, no key anywhere an error
 * or a log line shows it, and nothing left running (timers, sockets, abort listeners, warnings).
 */
import { createHook } from "node:async_hooks";
import { getEventListeners } from "node:events";
import type { FaultRequest } from "./fault-server.ts";
import { leaks, surfacesOf } from "../support/secret-echoes.ts";

/** A job submission (`run` or `runsync` of any model). */
const SUBMISSION = /^\/v2\/[^/]+\/(run|runsync)$/;

/**
 * Submissions of a job (the same body) that followed one that may have made it (anything but a
 * 429 or a redirect: an answer, a reset, a cut body, a silence), across every server of the case.
 */
export function resubmissions(requests: readonly FaultRequest[]): string[] {
  const submissions = requests.filter((request) => request.method === "POST" && SUBMISSION.test(request.path)).sort((a, b) => a.at - b.at);
  const found: string[] = [];
  const mayHaveRun = new Map<string, FaultRequest>();
  for (const request of submissions) {
    const earlier = mayHaveRun.get(request.body);
    if (earlier !== undefined) found.push(`${request.path} ${request.body} at ${request.at} ms, after one that may have run at ${earlier.at} ms`);
    else if (request.outcome === "may-have-run") mayHaveRun.set(request.body, request);
  }
  return found;
}

/** The errors a call gave: the one it threw, and each failed item of a batch it returned. */
export function errorsOf(outcome: { ok: boolean; value?: unknown; error?: unknown }): unknown[] {
  if (!outcome.ok) return [outcome.error];
  const items = (outcome.value as { items?: Array<{ ok: boolean; error?: unknown }> } | undefined)?.items;
  return Array.isArray(items) ? items.filter((item) => !item.ok).map((item) => item.error) : [];
}

/** Errors that are not instances of a library's base class (each generated package has its own), described. */
export function untypedErrors(errors: readonly unknown[], bases: ReadonlyArray<abstract new (...args: never[]) => Error>): string[] {
  return errors.filter((error) => !bases.some((base) => error instanceof base)).map((error) => (error instanceof Error ? `${error.name}: ${error.message}` : `${typeof error}: ${String(error)}`));
}

/** Where the key shows, in any spelling: errors (every surface, down the cause chain) and log lines. */
export function keyShown(errors: readonly unknown[], logLines: readonly string[], needles: readonly string[]): string[] {
  return leaks([...errors.flatMap((error) => surfacesOf(error)), ...logLines], needles);
}

/** The kinds of resource a call may leave behind: timers and sockets (and their connects and lookups). */
const TRACKED: ReadonlySet<string> = new Set(["Timeout", "TCPWRAP", "TCPCONNECTWRAP", "GETADDRINFOREQWRAP"]);

/**
 * Records the timers and sockets created from now on, until each is destroyed; `alive()` lists
 * those still there that keep the process running (an unref'd one, such as an idle pooled socket
 * of the platform's fetch, does not). Destruction is reported a turn of the event loop late.
 */
export function trackResources(): { alive(): string[]; stop(): void } {
  const live = new Map<number, { type: string; resource: { hasRef?: () => boolean } }>();
  const hook = createHook({
    init(id, type, _trigger, resource) {
      if (TRACKED.has(type)) live.set(id, { type, resource: resource as { hasRef?: () => boolean } });
    },
    destroy(id) {
      live.delete(id);
    },
  }).enable();
  return {
    alive: () => [...live.values()].filter(({ resource }) => resource.hasRef?.() !== false).map(({ type }) => type),
    stop: () => void hook.disable(),
  };
}

/** Abort listeners still attached to the caller's signal. */
export function signalListeners(signal: AbortSignal): number {
  return getEventListeners(signal, "abort").length;
}

/** Collects the process warnings (MaxListenersExceededWarning...) emitted until `stop()`. */
export function collectWarnings(): { warnings: string[]; stop(): void } {
  const warnings: string[] = [];
  const listener = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
  process.on("warning", listener);
  return { warnings, stop: () => process.off("warning", listener) };
}
