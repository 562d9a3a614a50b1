/**
 * Submitting a job and waiting for it: sent exactly once (a 429, which made no job, is sent again
 * after `Retry-After`), through `run`, or `runsync` asked to wait no longer than the time left.
 */
import { SERVER_WAIT_MARGIN_MS } from "./client-core.js";
import type { ApiResult } from "./client-core.js";
import { BadRequestError, InvalidRequestError, RateLimitError } from "./errors.js";
import { enforceCostLimit } from "./job-cost.js";
import type { JobClient, JobLike, ModelCatalog, SyncRequestOptions } from "./job-types.js";
import { DEFAULT_WAIT_TIMEOUT_MS, JobFailedError, waitForJob } from "./job-wait.js";
import type { JobResult, WaitOptions } from "./job-wait.js";
import { rateLimitOf } from "./rate-gate.js";
import type { RateGate } from "./rate-gate.js";
import { checkTimeout, sleep as abortableSleep } from "./signals.js";

export interface RunOptions extends WaitOptions {
  /** Use `runsync`; a job it returns unfinished is waited on with the same id. */
  sync?: boolean | undefined;
  /** Refuse, before any request, a job whose estimated cost exceeds this many USD. */
  maxCostUsd?: number | undefined;
}

/**
 * Submits one job (`run`, or `runsync` with `sync: true`) and waits for it. The job is submitted
 * exactly once: a submission that fails is never repeated, except after a 429, which is a refusal
 * (no job was created) and is retried after `Retry-After`. `maxCostUsd` is checked before anything is sent.
 */
export async function runAndWait(
  client: JobClient,
  catalog: ModelCatalog,
  model: string,
  input: unknown,
  options: RunOptions = {},
): Promise<JobResult> {
  enforceCostLimit(catalog, model, [input], options.maxCostUsd);
  checkTimeout("timeoutMs", options.timeoutMs);
  return submitAndWait(client, catalog, model, input, options);
}

/** How a batch shares one rate gate: submissions take their turn in it; polls go through `polling`. */
export interface BatchGate {
  gate: RateGate;
  polling: Pick<JobClient, "getModelJob">;
  onAccepted(jobId: string): void;
}

/** Submits, then waits on the job's id. `timeoutMs` bounds both, from the first attempt to submit. */
export async function submitAndWait(client: JobClient, catalog: ModelCatalog, model: string, input: unknown, options: RunOptions, batch?: BatchGate): Promise<JobResult> {
  const now = options.now ?? Date.now;
  const { submitted, sentAt, deadline } = await submit(client, catalog, model, input, options, batch?.gate);
  batch?.onAccepted(submitted.data.id);
  const waitOptions = { ...options, timeoutMs: Math.max(0, deadline - now()) };
  return waitForJob(batch?.polling ?? client, catalog, model, submitted.data.id, waitOptions, submitted, sentAt);
}

/** The shortest pause before submitting again after a 429, whatever `Retry-After` says. */
const MIN_RESUBMIT_DELAY_MS = 1_000;

/**
 * How a submission is sent, `remaining` ms before the run's deadline. `runsync` is asked to wait
 * what is left less a margin, within the contract's limits, and its request ends at that wait plus
 * the margin, so the service answers with the job (finished or not, but with its id) before the
 * client gives up. When even the shortest wait and its margin no longer fit, the job goes to `run`:
 * queued and answered at once, rather than billed by a runsync request cut off before its id
 * arrives. Without limits in the contract, the service holds runsync as long as it likes: the
 * request may last what is left, and with less than the margin left the job goes to `run` too.
 */
function submission(client: JobClient, catalog: ModelCatalog, options: RunOptions, remaining: number): { call: JobClient["runModel"]; options: SyncRequestOptions } {
  const base = { signal: options.signal, maxRetries: 0 };
  if (!options.sync) return { call: client.runModel, options: base };
  if (client.runModelSync === undefined) throw new InvalidRequestError("sync: this API has no runsync operation; leave sync out to use run", { field: "sync" });
  const limits = catalog.syncWaitMs;
  if (remaining < (limits?.minimum ?? 0) + SERVER_WAIT_MARGIN_MS) return { call: client.runModel, options: base };
  if (limits === undefined) return { call: client.runModelSync, options: { ...base, timeoutMs: remaining } };
  const waitMs = Math.min(limits.maximum, Math.floor(remaining - SERVER_WAIT_MARGIN_MS));
  return { call: client.runModelSync, options: { ...base, waitMs, timeoutMs: waitMs + SERVER_WAIT_MARGIN_MS } };
}

/**
 * Submits once; a 429 (no job was made) is submitted again after `Retry-After` (at least a second),
 * unless that would pass the deadline: then the RateLimitError is thrown. The deadline starts at
 * the first attempt, once `gate` (a batch's) lets it go, and each attempt is shaped by what is left
 * of it at that moment.
 */
async function submit(
  client: JobClient,
  catalog: ModelCatalog,
  model: string,
  input: unknown,
  options: RunOptions,
  gate?: RateGate,
): Promise<{ submitted: ApiResult<JobLike>; sentAt: number; deadline: number }> {
  const pause = options.sleep ?? abortableSleep;
  const now = options.now ?? Date.now;
  let deadline: number | undefined;
  let refusal: RateLimitError | undefined;
  for (;;) {
    // A resubmission the gate would hold past the deadline is not sent: the last refusal stands.
    if (gate !== undefined && !(await gate.acquire(options.signal, deadline))) throw refusal!;
    const sentAt = now();
    deadline ??= sentAt + (options.timeoutMs ?? DEFAULT_WAIT_TIMEOUT_MS);
    let outcome: { ok: true; submitted: ApiResult<JobLike> } | { ok: false; error: unknown };
    try {
      // maxRetries 0: the transport never resends a POST anyway; 429s are handled here.
      const { call, options: requestOptions } = submission(client, catalog, options, deadline - sentAt);
      outcome = { ok: true, submitted: await call.call(client, model, input as never, requestOptions) };
    } catch (error) {
      outcome = { ok: false, error };
    }
    gate?.release(rateLimitOf(outcome.ok ? outcome.submitted : outcome.error));
    if (outcome.ok) return { submitted: outcome.submitted, sentAt, deadline };
    const { error } = outcome;
    // The model endpoints answer a job that failed on its input with HTTP 400 and the FAILED job.
    if (error instanceof BadRequestError && isJobLike(error.problem)) throw new JobFailedError(model, error.problem);
    if (error instanceof RateLimitError) {
      const delay = Math.max(error.retryAfterMs ?? 0, MIN_RESUBMIT_DELAY_MS);
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
