/**
 * Following a running job's partial outputs: the stream operation polled at the wait's pace, each
 * chunk handed out once, until the job ends. An async iterator, so `for await` reads it and
 * `break` (or the signal) stops the polling.
 */
import { ClientCore } from "../client-core.js";
import { AbortedError } from "../errors.js";
import { NotFoundError, RateLimitError } from "../api-errors.js";
import type { JobClient, ModelCatalog } from "./types.js";
import { DEFAULT_WAIT_TIMEOUT_MS, JobExpiredError, JobWaitError, checkWaitOptions, isTerminal } from "./wait.js";
import { MAX_RATE_LIMIT_WAIT_MS } from "./rate-gate.js";
import { deadlineSignal, sleep as abortableSleep } from "../signals.js";

/** One piece of a job's output, as the model wrote it, with the worker's figures when it sent any. */
export interface StreamChunk {
  output: unknown;
  metrics?: unknown;
}

export interface StreamOptions {
  /** Pause between calls of the stream operation; default 2 000 ms (the service's advice for polling). */
  intervalMs?: number | undefined;
  /** Give up after this long (default 30 minutes; `Infinity` follows the job as long as it runs). */
  timeoutMs?: number | undefined;
  signal?: AbortSignal | undefined;
  /** For tests: the clock and the pause (default Date.now and an abortable setTimeout). */
  now?(): number;
  sleep?(ms: number, signal?: AbortSignal): Promise<void>;
}

/**
 * Yields the job's chunks as the stream operation hands them out, and returns the status it ended
 * with. A 429 waits its `Retry-After`; a 404 is a `JobExpiredError`; timeout and abort throw a
 * `JobWaitError` (nothing is sent after it, or after the caller's `break`).
 */
export async function* streamJob(
  client: Pick<JobClient, "streamModelJob" | "core">,
  catalog: ModelCatalog,
  model: string,
  jobId: string,
  options: StreamOptions = {},
): AsyncGenerator<StreamChunk, string, undefined> {
  checkWaitOptions(options);
  const call = client.streamModelJob;
  if (call === undefined) throw new TypeError("this API has no stream operation");
  const { now = Date.now, sleep: pause = abortableSleep } = ClientCore.timed(client.core ?? client, options);
  const intervalMs = options.intervalMs ?? 2_000;
  const started = now();
  const deadline = started + (options.timeoutMs ?? DEFAULT_WAIT_TIMEOUT_MS);
  let polls = 0;
  let lastStatus: string | undefined;
  const stop = (kind: "timeout" | "aborted") =>
    new JobWaitError(kind, { jobId, lastJob: lastStatus === undefined ? undefined : { id: jobId, status: lastStatus }, polls, elapsedMs: now() - started });

  for (;;) {
    let wait = intervalMs;
    let answer: { status: string; stream?: StreamChunk[] } | undefined;
    const bound = deadlineSignal(options.signal, deadline - now());
    try {
      answer = (await call.call(client, model, jobId, { signal: bound.signal })).data;
      polls += 1;
      lastStatus = answer.status;
    } catch (error) {
      if (error instanceof RateLimitError) wait = Math.min(Math.max(error.retryAfterMs ?? intervalMs, intervalMs), MAX_RATE_LIMIT_WAIT_MS);
      else if (error instanceof NotFoundError) throw new JobExpiredError(model, jobId, catalog.resultRetentionSeconds);
      else if (bound.expired()) throw stop("timeout");
      else if (error instanceof AbortedError) throw stop("aborted");
      else throw error;
    } finally {
      // Before any yield: a consumer that stops reading must not keep a timer or a listener alive.
      bound.dispose();
    }
    if (answer !== undefined) {
      for (const chunk of Array.isArray(answer.stream) ? answer.stream : []) yield chunk;
      if (isTerminal(catalog, answer.status)) return answer.status;
    }
    const remaining = deadline - now();
    if (remaining <= 0) throw stop("timeout");
    try {
      await pause(Math.min(wait, remaining), options.signal);
    } catch (error) {
      if (error instanceof AbortedError) throw stop("aborted");
      throw error;
    }
  }
}
