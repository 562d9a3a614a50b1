/**
 * `pods logs`: a pod's log stream printed line by line. Without `--follow` it prints what the
 * server sends on one connection (no reconnection) and stops when the server closes it or goes
 * quiet; with `--follow` it keeps following, the event-stream runtime resuming after a cut with
 * `Last-Event-ID`, until the server ends the stream or the signal (Ctrl-C) aborts it.
 */
import { redactRegisteredSecrets } from "../redact.js";
import { linkSignals, sleep as abortableSleep } from "../signals.js";
import { valueAt } from "../json-pointer.js";

/** How long the stream may stay silent, without `--follow`, before the command counts it done (milliseconds). */
export const POD_LOGS_QUIET_MS = 2_000;

/** The filters `pods logs` passes on, as the contract's logs operation names them. */
export interface PodLogQuery {
  tail?: number;
  since?: string;
  source?: string;
}

/** The stream options `pods logs` sets (a subset of the event-stream runtime's, restated so this folder stands without it). */
export interface PodLogStreamOptions {
  signal?: AbortSignal | undefined;
  maxReconnects?: number | undefined;
  reconnectDelayMs?: number | undefined;
}

/** One event of the stream, as the event-stream runtime hands it over. */
export interface PodLogStreamEvent {
  id: string | undefined;
  data: unknown;
}

export interface PodLogsRun {
  open(query: PodLogQuery, options: PodLogStreamOptions): AsyncIterable<PodLogStreamEvent>;
  query: PodLogQuery;
  follow: boolean;
  json: boolean;
  write(line: string): void;
  signal?: AbortSignal | undefined;
  /** The wait that ends a quiet stream without `--follow` (default an abortable timer). */
  sleep?: ((ms: number, signal?: AbortSignal) => Promise<void>) | undefined;
  /** For tests: the wait before a reconnection (default the runtime's, or the server's `retry:`). */
  reconnectDelayMs?: number | undefined;
}

/** Prints the stream until it ends as the mode says; resolves when it did, throws the stream's failure (an abort included). */
export async function printPodLogs(run: PodLogsRun): Promise<void> {
  // The stream ends with the user's signal, or when the command finds it quiet.
  const stop = linkSignals(run.signal === undefined ? [] : [run.signal]);
  const quiet = { ended: false, end: () => ((quiet.ended = true), stop.controller.abort()) };
  const stream = run.open(run.query, {
    signal: stop.controller.signal,
    // Following resumes after any cut or close for as long as the user wants; a one-off read does not.
    maxReconnects: run.follow ? Number.POSITIVE_INFINITY : 0,
    ...(run.reconnectDelayMs !== undefined ? { reconnectDelayMs: run.reconnectDelayMs } : {}),
  });
  const iterator = stream[Symbol.asyncIterator]();
  try {
    for (;;) {
      const step = run.follow ? await iterator.next() : await nextOrQuiet(iterator, quiet, run.sleep ?? abortableSleep);
      if (step === undefined || step.done === true) return;
      run.write(formatLogEvent(step.value, run.json));
    }
  } catch (error) {
    // Only the command's own quiet timer ends the stream cleanly; the user's abort is reported as one.
    if (quiet.ended && !run.signal?.aborted) return;
    throw error;
  } finally {
    await iterator.return?.();
    stop.dispose();
  }
}

/** The next event, or undefined once the stream stayed quiet for `POD_LOGS_QUIET_MS` (the stream aborted then). */
async function nextOrQuiet(
  iterator: AsyncIterator<PodLogStreamEvent>,
  quiet: { end(): void },
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>,
): Promise<IteratorResult<PodLogStreamEvent> | undefined> {
  const timer = new AbortController();
  const next = iterator.next();
  // A timer cancelled because the event came first settles nothing.
  const silence = sleep(POD_LOGS_QUIET_MS, timer.signal).then(
    () => "quiet" as const,
    () => new Promise<never>(() => undefined),
  );
  try {
    const first = await Promise.race([next, silence]);
    if (first !== "quiet") return first;
  } finally {
    timer.abort();
  }
  quiet.end();
  // The aborted stream lets its connection go; its AbortedError is this ending, not a failure.
  await next.catch(() => undefined);
  return undefined;
}

/** One printed line: `<ts> <source> <line>`, or with `--json` the event as one line of JSON (its id with its data); credentials blanked either way. */
export function formatLogEvent(event: PodLogStreamEvent, json: boolean): string {
  const { data } = event;
  const isObject = typeof data === "object" && data !== null && !Array.isArray(data);
  if (json) return redactRegisteredSecrets(JSON.stringify(isObject ? { id: event.id, ...data } : { id: event.id, data }));
  if (!isObject) return redactRegisteredSecrets(typeof data === "string" ? data : JSON.stringify(data));
  const field = (name: string): string | undefined => {
    const value = valueAt(data, `/${name}`);
    return typeof value === "string" ? value : undefined;
  };
  const line = field("line") ?? JSON.stringify(data);
  return redactRegisteredSecrets([field("ts"), field("source"), line].filter((part) => part !== undefined).join(" "));
}
