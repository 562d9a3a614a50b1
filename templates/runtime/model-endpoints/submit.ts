/**
 * Submitting a job and waiting for it: sent exactly once (a 429, which made no job, is sent again
 * after `Retry-After`), through `run`, or `runsync` asked to wait no longer than the time left.
 */
import { SERVER_WAIT_MARGIN_MS } from "./server-wait.js";
import { ClientCore } from "../client-core.js";
import type { ApiResult } from "../client-core.js";
import { AbortedError, InvalidRequestError, TimeoutError } from "../errors.js";
import { BadRequestError, RateLimitError } from "../api-errors.js";
import { enforceCostLimit } from "./cost.js";
import { checkNumber } from "../option-checks.js";
import type { JobClient, JobLike, JobOperation, ModelCatalog, SyncRequestOptions } from "./types.js";
import { cancelJob } from "./cancel.js";
import { DEFAULT_WAIT_TIMEOUT_MS, JobFailedError, JobWaitError, checkWaitOptions, jobAnswerProblem, waitForJob } from "./wait.js";
import type { JobResult, WaitOptions } from "./wait.js";
import { MAX_RATE_LIMIT_WAIT_MS, RateLimitWaitError, rateLimitOf } from "./rate-gate.js";
import type { RateGate } from "./rate-gate.js";
import { deadlineSignal, sleep as abortableSleep } from "../signals.js";

export interface RunOptions extends WaitOptions {
  /** Use `runsync`; a job it returns unfinished is waited on with the same id. */
  sync?: boolean | undefined;
  /** Refuse, before any request, a job whose estimated cost exceeds this many USD. */
  maxCostUsd?: number | undefined;
  /**
   * When the wait ends before the job (`signal` aborts, or `timeoutMs` passes), cancel the job
   * too, so it stops billing: the `JobWaitError` says whether it was cancelled. Off by default:
   * without it the job keeps running on the service.
   */
  cancelOnAbort?: boolean | undefined;
  /**
   * Retry a job that ends `FAILED` or `TIMED_OUT` up to this many times, under the same id with
   * the retry operation (never by submitting it again), while the service keeps it; default 0.
   * The result's `attempts` (or the final `JobFailedError`'s) counts the runs.
   */
  retryFailed?: number | undefined;
  /** The submission body's members besides `input` (for this service: `webhook`, `policy`, `s3Config`), checked like the rest of the request. */
  jobOptions?: object | undefined;
}

/**
 * Submits one job (`run`, or `runsync` with `sync: true`) and waits for it. The job is submitted
 * exactly once: a submission that fails is never repeated, except after a 429, which is a refusal
 * (no job was created) and is retried after `Retry-After`. `maxCostUsd` and the other options are
 * checked before anything is sent.
 */
export async function runAndWait(
  client: JobClient,
  catalog: ModelCatalog,
  model: string,
  input: unknown,
  options: RunOptions = {},
): Promise<JobResult> {
  checkWaitOptions(options);
  checkJobOptions(client, options);
  // Before any timer or rate-limit slot starts: the client's own check of the input then finds them loaded.
  await catalog.prepare?.(model);
  enforceCostLimit(catalog, model, [input], options.maxCostUsd, 1 + (options.retryFailed ?? 0));
  return submitAndWait(client, catalog, model, input, ClientCore.timed(client.core ?? client, options));
}

/** Refuses, before any request, `cancelOnAbort` or `retryFailed` where the API lacks their operation, and a bad count. */
export function checkJobOptions(client: JobClient, options: Pick<RunOptions, "cancelOnAbort" | "retryFailed">): void {
  if (options.cancelOnAbort && client.cancelModelJob === undefined) {
    throw new InvalidRequestError("cancelOnAbort: this API has no cancel operation, so a job cannot be stopped; leave cancelOnAbort out", { field: "cancelOnAbort" });
  }
  checkNumber("retryFailed", options.retryFailed, { unit: "retries", min: 0, integer: true });
  if ((options.retryFailed ?? 0) > 0 && client.retryModelJob === undefined) {
    throw new InvalidRequestError("retryFailed: this API has no retry operation; leave retryFailed out", { field: "retryFailed" });
  }
}

/** The failure statuses the service retries under the same id. */
const RETRYABLE = new Set(["FAILED", "TIMED_OUT"]);

/** How a batch shares one rate gate: submissions take their turn in it; polls go through `polling`. */
export interface BatchGate {
  gate: RateGate;
  polling: Pick<JobClient, "getModelJob">;
  onAccepted(jobId: string): void;
  /** Whether a wait that ended before its job should cancel it, beyond `cancelOnAbort` (the batch's budget passed). */
  cancelWhen?(): boolean;
}

/**
 * Submits, then waits on the job's id, retrying a failed job under that id (`retryFailed`).
 * `timeoutMs` bounds it all, from the first attempt to submit.
 */
export async function submitAndWait(client: JobClient, catalog: ModelCatalog, model: string, input: unknown, options: RunOptions, batch?: BatchGate): Promise<JobResult> {
  const now = options.now ?? Date.now;
  const { submitted, sentAt, deadline, operation } = await submit(client, catalog, model, input, options, batch?.gate);
  const jobId = submitted.data.id;
  batch?.onAccepted(jobId);
  let latest = { answer: submitted, sentAt };
  for (let attempts = 1; ; attempts++) {
    const waitOptions = { ...options, timeoutMs: Math.max(0, deadline - now()) };
    try {
      const result = await waitForJob(batch?.polling ?? client, catalog, model, jobId, waitOptions, latest.answer, latest.sentAt, operation);
      return { ...result, attempts };
    } catch (error) {
      if (error instanceof JobFailedError) {
        if (attempts > (options.retryFailed ?? 0) || !RETRYABLE.has(error.status)) throw attempts === 1 ? error : new JobFailedError(model, error.job, { attempts });
        const retried = await retry(client, catalog, model, jobId, options, deadline, batch?.gate);
        if ("answer" in retried) {
          latest = retried;
          continue;
        }
        if ("refused" in retried) throw new JobFailedError(model, error.job, { attempts, retryRefused: retried.refused });
        // The retry got no answer (abort or timeout): the job may be queued again, and billing.
        const stopped = new JobWaitError(retried.lost, { jobId, lastJob: error.job, polls: 0, elapsedMs: now() - latest.sentAt });
        if (!(options.cancelOnAbort || batch?.cancelWhen?.() === true)) throw stopped;
        throw stopped.withCancellation(await cancelJob(client, catalog, model, jobId, now, batch?.gate));
      }
      // The job was accepted and has not ended: it bills until cancelled.
      if (!(error instanceof JobWaitError) || !(options.cancelOnAbort || batch?.cancelWhen?.() === true)) throw error;
      throw error.withCancellation(await cancelJob(client, catalog, model, jobId, now, batch?.gate));
    }
  }
}

/**
 * Queues a failed job again under its id, once: within the wait's deadline and (in a batch) the
 * retry operation's limits. What keeps it from being retried is the answer, not an exception.
 */
async function retry(
  client: JobClient,
  catalog: ModelCatalog,
  model: string,
  jobId: string,
  options: RunOptions,
  deadline: number,
  gate: RateGate | undefined,
): Promise<{ answer: ApiResult<JobLike>; sentAt: number } | { refused: string } | { lost: "timeout" | "aborted" }> {
  const now = options.now ?? Date.now;
  if (gate !== undefined && (await gate.acquire(options.signal, deadline, "retry")) !== true) {
    return { refused: "the rate limit would hold the retry past the wait's timeoutMs" };
  }
  const sentAt = now();
  const bound = deadlineSignal(options.signal, deadline - sentAt);
  try {
    const answer = await client.retryModelJob!(model, jobId, { signal: bound.signal, checkResponse: (data) => jobAnswerProblem(catalog, data) });
    gate?.release(answer.rateLimit, "retry");
    return { answer, sentAt };
  } catch (error) {
    gate?.release(rateLimitOf(error), "retry");
    if (error instanceof AbortedError || error instanceof TimeoutError) return { lost: bound.expired() || error instanceof TimeoutError ? "timeout" : "aborted" };
    return { refused: error instanceof Error ? error.message : "the retry failed" };
  } finally {
    bound.dispose();
  }
}

/** The shortest pause before submitting again after a 429, whatever `Retry-After` says. */
const MIN_RESUBMIT_DELAY_MS = 1_000;

/** What a submission without a usable answer means. */
const MAY_EXIST = "the job may have been created all the same, under an id the client never received; it was not submitted again";

/** A submission's answer must be a job with its id (and a finished job its output); otherwise the job may exist all the same. */
function submittedJobProblem(catalog: ModelCatalog): (data: unknown) => string | undefined {
  return (data) => {
    const problem = jobAnswerProblem(catalog, data);
    return problem === undefined ? undefined : `${problem}; ${MAY_EXIST}`;
  };
}

/**
 * A submission that got no answer in time (the run's `timeoutMs`, or the request's own timeout) is
 * a TimeoutError saying that the job may exist; any other failure is as it came.
 */
function unanswered(error: unknown, expired: boolean, timeoutMs: number): unknown {
  if (error instanceof TimeoutError) return new TimeoutError({ method: error.method, url: error.url, timeoutMs: error.timeoutMs, note: MAY_EXIST });
  if (expired && error instanceof AbortedError && error.method !== undefined && error.url !== undefined) {
    return new TimeoutError({ method: error.method, url: error.url, timeoutMs, note: MAY_EXIST });
  }
  return error;
}

/**
 * How a submission is sent, `remaining` ms before the run's deadline. `runsync` is asked to wait
 * what is left less a margin, within the contract's limits, and its request ends at that wait plus
 * the margin, so the service answers with the job (finished or not, but with its id) before the
 * client gives up. When even the shortest wait and its margin no longer fit, the job goes to `run`:
 * queued and answered at once, rather than billed by a runsync request cut off before its id
 * arrives. Without limits in the contract, the service holds runsync as long as it likes: the
 * request may last what is left, and with less than the margin left the job goes to `run` too.
 */
function submission(client: JobClient, catalog: ModelCatalog, options: RunOptions, remaining: number): { operation: JobOperation; call: JobClient["runModel"]; options: SyncRequestOptions } {
  const base = { signal: options.signal, maxRetries: 0, checkResponse: submittedJobProblem(catalog), jobOptions: options.jobOptions };
  if (!options.sync) return { operation: "run", call: client.runModel, options: base };
  if (client.runModelSync === undefined) throw new InvalidRequestError("sync: this API has no runsync operation; leave sync out to use run", { field: "sync" });
  const limits = catalog.syncWaitMs;
  if (remaining < (limits?.minimum ?? 0) + SERVER_WAIT_MARGIN_MS) return { operation: "run", call: client.runModel, options: base };
  if (limits === undefined) return { operation: "runsync", call: client.runModelSync, options: { ...base, timeoutMs: remaining } };
  const waitMs = Math.min(limits.maximum, Math.floor(remaining - SERVER_WAIT_MARGIN_MS));
  return { operation: "runsync", call: client.runModelSync, options: { ...base, waitMs, timeoutMs: waitMs + SERVER_WAIT_MARGIN_MS } };
}

/**
 * Submits once; a 429 (no job was made) is submitted again after `Retry-After` (at least a second,
 * at most a day), unless that would pass the deadline: then the RateLimitError is thrown. The
 * deadline starts at the first attempt, once `gate` (a batch's) lets it go, and each attempt is
 * shaped by what is left of it at that moment, and ends with it. The gate may hold the first
 * attempt `timeoutMs` at most too: longer, nothing is sent (RateLimitWaitError).
 */
async function submit(
  client: JobClient,
  catalog: ModelCatalog,
  model: string,
  input: unknown,
  options: RunOptions,
  gate?: RateGate,
): Promise<{ submitted: ApiResult<JobLike>; sentAt: number; deadline: number; operation: "run" | "runsync" }> {
  const pause = options.sleep ?? abortableSleep;
  const now = options.now ?? Date.now;
  const timeoutMs = options.timeoutMs ?? DEFAULT_WAIT_TIMEOUT_MS;
  const queuedUntil = now() + timeoutMs;
  let deadline: number | undefined;
  let refusal: RateLimitError | undefined;
  for (;;) {
    // The operation the gate holds the submission under: as it would be sent now (a first attempt has all of timeoutMs).
    const operation = submission(client, catalog, options, deadline === undefined ? timeoutMs : deadline - now()).operation;
    // A submission the gate would hold past the deadline is not sent: the last refusal stands, or the wait is the error.
    const turn = gate === undefined ? true : await gate.acquire(options.signal, deadline ?? queuedUntil, operation);
    if (turn !== true) throw refusal ?? new RateLimitWaitError(turn, timeoutMs);
    const sentAt = now();
    deadline ??= sentAt + timeoutMs;
    // The run's deadline bounds the request too, whatever the client's own timeout.
    const bound = deadlineSignal(options.signal, deadline - sentAt);
    let outcome: { ok: true; submitted: ApiResult<JobLike> } | { ok: false; error: unknown };
    try {
      // maxRetries 0: the transport never resends a POST anyway; 429s are handled here.
      const chosen = submission(client, catalog, { ...options, signal: bound.signal }, deadline - sentAt);
      if (gate !== undefined && chosen.operation !== operation) {
        // The wait at the gate left runsync too little time: its turn goes back, and the job waits for one of run's.
        gate.unsent(operation);
        continue;
      }
      outcome = { ok: true, submitted: await chosen.call.call(client, model, input as never, chosen.options) };
    } catch (error) {
      outcome = { ok: false, error: unanswered(error, bound.expired(), timeoutMs) };
    } finally {
      bound.dispose();
    }
    gate?.release(rateLimitOf(outcome.ok ? outcome.submitted : outcome.error), operation);
    if (outcome.ok) return { submitted: outcome.submitted, sentAt, deadline, operation: operation === "runsync" ? "runsync" : "run" };
    const { error } = outcome;
    // The model endpoints answer a job that failed on its input with HTTP 400 and the FAILED job.
    if (error instanceof BadRequestError && isJobLike(error.problem)) throw new JobFailedError(model, error.problem);
    if (error instanceof RateLimitError) {
      const delay = Math.min(Math.max(error.retryAfterMs ?? 0, MIN_RESUBMIT_DELAY_MS), MAX_RATE_LIMIT_WAIT_MS);
      if (now() + delay > deadline) throw error;
      refusal = error;
      await pause(delay, options.signal);
      continue;
    }
    throw error;
  }
}

function isJobLike(value: unknown): value is JobLike {
  return typeof value === "object" && value !== null && typeof (value as JobLike).id === "string" && typeof (value as JobLike).status === "string";
}
