/**
 * Waiting for a job: polls its status until it finishes, on a schedule that slows down, within the
 * rate limits the server reports, and gives its result typed, with the URL of the file it made.
 */
import { ClientCore } from "../client-core.js";
import type { ApiResult } from "../client-core.js";
import { SdkError, blankOwnFields, nameClass } from "../error-base.js";
import { AbortedError, TimeoutError } from "../errors.js";
import { NotFoundError, RateLimitError } from "../api-errors.js";
import { OUTPUT_URL_FIELDS } from "./types.js";
import type { JobClient, JobLike, ModelCatalog } from "./types.js";
import { describeCancelReport } from "./cancel.js";
import type { CancelReport } from "./cancel.js";
import { checkNumber } from "../option-checks.js";
import { MAX_RATE_LIMIT_WAIT_MS } from "./rate-gate.js";
import { exhaustedWindowDelayMs } from "../rate-limit.js";
import type { RateLimitState } from "../rate-limit.js";
import { checkTimeout, deadlineSignal, sleep as abortableSleep } from "../signals.js";

export interface WaitProgress {
  job: JobLike;
  polls: number;
  elapsedMs: number;
  /** The pause before the next poll, in milliseconds; 0 once the job has finished. */
  nextPollMs: number;
}

export interface WaitOptions {
  /** Pause between polls at first; default 2 000 ms (the service's advice). */
  intervalMs?: number | undefined;
  /** Polls slow down after this long (default 30 000 ms)… */
  backoffAfterMs?: number | undefined;
  /** …by this factor per poll (default 1.5)… */
  backoffFactor?: number | undefined;
  /** …up to this pause (default 10 000 ms). */
  maxIntervalMs?: number | undefined;
  /** Give up after this long (default 30 minutes; `Infinity` waits for as long as it takes). */
  timeoutMs?: number | undefined;
  signal?: AbortSignal | undefined;
  onProgress?(progress: WaitProgress): void;
  /** For tests: the clock and the pause (default Date.now and an abortable setTimeout). */
  now?(): number;
  sleep?(ms: number, signal?: AbortSignal): Promise<void>;
}

/** A finished job with its output typed for the model. */
export interface JobResult<Output = unknown> {
  id: string;
  status: string;
  output: Output;
  /** `output.cost`: what the job cost, in USD. */
  costUsd: number | undefined;
  /** The generated file's URL (`video_url`, `image_url` or `audio_url`). */
  url: string | undefined;
  /**
   * A moment until which `url` works at least: its lifetime (7 days) counted from a moment the job
   * had not finished yet (its submission, or the last poll that found it running), so never later
   * than the real expiry. Undefined when the wait's first poll already found the job finished.
   */
  expiresAt: Date | undefined;
  delayTime: number | undefined;
  executionTime: number | undefined;
  job: JobLike;
  rateLimit: RateLimitState | undefined;
  /** Runs of the job under its id: 1, plus one per retry (`retryFailed`). */
  attempts: number;
  /**
   * A moment until which the service keeps the job's results at least (its retention after the
   * operation that made it, counted from a moment the job had not finished yet); after it, a poll
   * throws `JobExpiredError`. Undefined when the operation or the contract's retention is unknown.
   */
  keptUntil: Date | undefined;
}

/**
 * The job ended in a failure status (`FAILED`, `CANCELLED`, `TIMED_OUT`). With `retryFailed`,
 * `attempts` counts the runs under the job's id, and `retryRefused` says why no further retry
 * was made when one was asked for.
 */
export class JobFailedError extends SdkError {
  static {
    nameClass(this, "JobFailedError");
  }
  readonly jobId: string;
  readonly model: string;
  readonly status: string;
  /** The service's reason (`error`). */
  readonly reason: string | undefined;
  readonly job: JobLike;
  readonly attempts: number;
  readonly retryRefused: string | undefined;

  constructor(model: string, job: JobLike, retries: { attempts?: number; retryRefused?: string | undefined } = {}) {
    const attempts = retries.attempts ?? 1;
    const tried = attempts > 1 ? ` after ${attempts} attempts` : "";
    const refused = retries.retryRefused === undefined ? "" : `; not retried: ${retries.retryRefused}`;
    super("job_failed", `job ${job.id} on ${model} ended ${job.status}${tried}${job.error ? `: ${job.error}` : ""}${refused}`);
    this.jobId = job.id;
    this.model = model;
    this.status = job.status;
    this.reason = job.error;
    this.job = job;
    this.attempts = attempts;
    this.retryRefused = retries.retryRefused;
    blankOwnFields(this);
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), jobId: this.jobId, model: this.model, status: this.status, reason: this.reason, attempts: this.attempts, retryRefused: this.retryRefused };
  }
}

/**
 * The service no longer has the job (its status answered 404): a finished job's results are kept
 * only for a while after it ends (`retention`, from the contract), and a job id it never had
 * answers the same.
 */
export class JobExpiredError extends SdkError {
  static {
    nameClass(this, "JobExpiredError");
  }
  readonly jobId: string;
  readonly model: string;

  constructor(model: string, jobId: string, retention: ModelCatalog["resultRetentionSeconds"]) {
    const kept = Object.entries(retention ?? {}).map(([operation, seconds]) => `${formatSeconds(seconds!)} after ${operation}`);
    super(
      "job_expired",
      `job ${jobId} on ${model} is no longer kept by the service (it keeps a finished job's results ${kept.length > 0 ? kept.join(", ") : "for a limited time"}), or never existed`,
    );
    this.jobId = jobId;
    this.model = model;
    blankOwnFields(this);
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), jobId: this.jobId, model: this.model };
  }
}

function formatSeconds(seconds: number): string {
  return seconds % 60 === 0 ? `${seconds / 60} min` : `${seconds} s`;
}

/**
 * The wait ended (timeout or abort) before the job did; `lastJob` is the last state seen, and
 * `rateLimitWaitMs` the pause the service's rate limit had asked for, when the wait ended in it.
 * With `cancelOnAbort`, `cancellation` says whether the job was cancelled; without it, the job
 * keeps running (and billing) on the service.
 */
export class JobWaitError extends SdkError {
  static {
    nameClass(this, "JobWaitError");
  }
  readonly jobId: string;
  readonly lastJob: JobLike | undefined;
  readonly polls: number;
  readonly elapsedMs: number;
  readonly rateLimitWaitMs: number | undefined;
  readonly cancellation: CancelReport | undefined;

  constructor(kind: "timeout" | "aborted", init: JobWaitInit) {
    const seen = init.lastJob ? `last seen ${init.lastJob.status}` : "never seen";
    const held = init.rateLimitWaitMs === undefined ? "" : `; the service's rate limit asked to wait ${Math.ceil(init.rateLimitWaitMs / 1000)} s before the next poll`;
    const cancelled = init.cancellation === undefined ? "" : `; ${describeCancelReport(init.cancellation)}`;
    super(kind, `stopped waiting for job ${init.jobId} after ${Math.round(init.elapsedMs)} ms and ${init.polls} polls (${kind === "timeout" ? "timed out" : "aborted"}; ${seen}${held})${cancelled}`);
    this.jobId = init.jobId;
    this.lastJob = init.lastJob;
    this.polls = init.polls;
    this.elapsedMs = init.elapsedMs;
    this.rateLimitWaitMs = init.rateLimitWaitMs;
    this.cancellation = init.cancellation;
    blankOwnFields(this);
  }

  /** The same error, with what cancelling the job did. */
  withCancellation(cancellation: CancelReport): JobWaitError {
    const { jobId, lastJob, polls, elapsedMs, rateLimitWaitMs } = this;
    return new JobWaitError(this.kind as "timeout" | "aborted", { jobId, lastJob, polls, elapsedMs, rateLimitWaitMs, cancellation });
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), jobId: this.jobId, lastJob: this.lastJob, polls: this.polls, elapsedMs: this.elapsedMs, rateLimitWaitMs: this.rateLimitWaitMs, cancellation: this.cancellation };
  }
}

interface JobWaitInit {
  jobId: string;
  lastJob: JobLike | undefined;
  polls: number;
  elapsedMs: number;
  rateLimitWaitMs?: number | undefined;
  cancellation?: CancelReport | undefined;
}

export function isTerminal(catalog: ModelCatalog, status: string): boolean {
  return Object.hasOwn(catalog.terminalStatuses, status);
}

/**
 * Why an answer cannot be used as a job, or undefined: the helpers need an object with a string
 * `id` and `status`, and a job that finished well must carry its `output` (the contract requires
 * it). Nothing from the body is quoted: the error keeps the raw body, redacted.
 */
export function jobAnswerProblem(catalog: ModelCatalog, data: unknown): string | undefined {
  if (data === undefined) return "no body, where a job was expected";
  if (typeof data !== "object" || data === null || Array.isArray(data)) {
    return `${data === null ? "null" : Array.isArray(data) ? "an array" : `a ${typeof data}`}, where a job was expected`;
  }
  const job = data as Partial<Record<keyof JobLike, unknown>>;
  if (typeof job.id !== "string" || job.id === "") return "a job without its id";
  if (typeof job.status !== "string") return "a job without its status";
  if (isTerminal(catalog, job.status) && catalog.terminalStatuses[job.status] === "success" && (job.output === undefined || job.output === null)) {
    return `a job ${job.status} without its output`;
  }
  return undefined;
}

/** Refuses, before any request, a number option of a wait that makes no sense, naming it. */
export function checkWaitOptions(options: Pick<WaitOptions, "timeoutMs" | "intervalMs" | "backoffAfterMs" | "backoffFactor" | "maxIntervalMs">): void {
  checkTimeout("timeoutMs", options.timeoutMs);
  checkNumber("intervalMs", options.intervalMs, { unit: "milliseconds", min: 0, above: true });
  checkNumber("backoffAfterMs", options.backoffAfterMs, { unit: "milliseconds", min: 0, infinity: true });
  checkNumber("backoffFactor", options.backoffFactor, { min: 1 });
  checkNumber("maxIntervalMs", options.maxIntervalMs, { unit: "milliseconds", min: 0, above: true, infinity: true });
}

/** How long a wait lasts when no `timeoutMs` is given: a wait is always bounded (SERVICE-NOTES). */
export const DEFAULT_WAIT_TIMEOUT_MS = 30 * 60_000;

/**
 * `output.cost`, or the sum of the costs of a list's entries (a prompt-style text model answers a
 * list); undefined when nothing reports one.
 */
function reportedCost(output: unknown): number | undefined {
  const costOf = (value: unknown) => (typeof value === "object" && value !== null && typeof (value as { cost?: unknown }).cost === "number" ? (value as { cost: number }).cost : undefined);
  if (!Array.isArray(output)) return costOf(output);
  const costs = output.map(costOf).filter((cost): cost is number => cost !== undefined);
  return costs.length === 0 ? undefined : costs.reduce((sum, cost) => sum + cost, 0);
}

/**
 * `unfinishedAt`: a moment the job had not finished yet (the submission, or the sending of a poll
 * that found it unfinished), so its URL was generated later and lives at least until then plus its
 * lifetime; undefined when the first poll already found it finished.
 */
function toResult(
  catalog: ModelCatalog,
  model: string,
  job: JobLike,
  rateLimit: RateLimitState | undefined,
  unfinishedAt: number | undefined,
  submittedWith: "run" | "runsync" | undefined,
): JobResult {
  const info = Object.hasOwn(catalog.endpoints, model) ? catalog.endpoints[model] : undefined;
  const output = (job.output ?? {}) as Record<string, unknown>;
  const urlField = info?.urlField ?? OUTPUT_URL_FIELDS.find((field) => typeof output[field] === "string");
  const url = urlField && typeof output[urlField] === "string" ? (output[urlField] as string) : undefined;
  const lifetime = info?.urlLifetimeSeconds;
  const retention = submittedWith === undefined ? undefined : catalog.resultRetentionSeconds?.[submittedWith];
  return {
    id: job.id,
    status: job.status,
    output: job.output,
    costUsd: reportedCost(job.output),
    url,
    expiresAt: url && lifetime && unfinishedAt !== undefined ? new Date(unfinishedAt + lifetime * 1000) : undefined,
    delayTime: job.delayTime,
    executionTime: job.executionTime,
    job,
    rateLimit,
    attempts: 1,
    keptUntil: retention !== undefined && unfinishedAt !== undefined ? new Date(unfinishedAt + retention * 1000) : undefined,
  };
}

/**
 * Polls the job's status until it reaches a terminal status. `COMPLETED` gives its typed result;
 * `FAILED`, `CANCELLED` and `TIMED_OUT` throw a `JobFailedError`; any other status, one never seen
 * before included, means keep waiting. Polls every `intervalMs`, slowing by `backoffFactor` per poll
 * once the job has run `backoffAfterMs`, never beyond `maxIntervalMs`. A 429 waits `Retry-After`;
 * a `RateLimit` window with no request left waits for its reset instead of provoking a 429 (either
 * wait at most a day, and never past the deadline). Timeout and abort throw a `JobWaitError`
 * carrying the last job seen, leaving no timer or listener. An answer that is not a job (no body,
 * no `id`, a `COMPLETED` job without `output`) throws an `UnexpectedResponseError`.
 */
export async function waitForJob(
  client: Pick<JobClient, "getModelJob" | "core">,
  catalog: ModelCatalog,
  model: string,
  jobId: string,
  options: WaitOptions = {},
  initial?: ApiResult<JobLike>,
  submittedAt?: number,
  submittedWith?: "run" | "runsync",
): Promise<JobResult> {
  // The client's clock where the caller gave none (a batch's polling has them from runMany).
  const { now = Date.now, sleep: pause = abortableSleep } = ClientCore.timed(client.core ?? client, options);
  const intervalMs = options.intervalMs ?? 2_000;
  const backoffAfterMs = options.backoffAfterMs ?? 30_000;
  const backoffFactor = options.backoffFactor ?? 1.5;
  const maxIntervalMs = Math.max(intervalMs, options.maxIntervalMs ?? 10_000);
  checkWaitOptions(options);
  const checkResponse = (data: unknown) => jobAnswerProblem(catalog, data);
  const started = now();
  const deadline = started + (options.timeoutMs ?? DEFAULT_WAIT_TIMEOUT_MS);

  let last: ApiResult<JobLike> | undefined = initial;
  // The job was submitted before it could finish: the URL's lifetime starts no earlier.
  let unfinishedAt = submittedAt;
  let polls = 0;
  let interval = intervalMs;
  // The pause the service asks for (a window's reset, a 429's Retry-After), at most a day.
  let extraWait = serverWait(exhaustedWindowDelayMs(initial?.rateLimit));
  // A poll was refused (429) before any status was seen: wait before the next one all the same.
  let refused = false;
  // Set while a pause the service asked for, longer than the interval, is under way.
  let rateLimitWaitMs: number | undefined;
  const stop = (kind: "timeout" | "aborted") =>
    new JobWaitError(kind, { jobId, lastJob: last?.data, polls, elapsedMs: now() - started, rateLimitWaitMs });

  for (;;) {
    if (last && isTerminal(catalog, last.data.status)) {
      options.onProgress?.({ job: last.data, polls, elapsedMs: now() - started, nextPollMs: 0 });
      if (catalog.terminalStatuses[last.data.status] === "failure") throw new JobFailedError(model, last.data);
      return toResult(catalog, model, last.data, last.rateLimit, unfinishedAt, submittedWith);
    }
    if (last !== undefined || refused) {
      const wait = Math.max(interval, extraWait);
      if (last !== undefined) options.onProgress?.({ job: last.data, polls, elapsedMs: now() - started, nextPollMs: wait });
      const remaining = deadline - now();
      rateLimitWaitMs = extraWait > interval ? extraWait : undefined;
      if (remaining <= 0) throw stop("timeout");
      try {
        await pause(Math.min(wait, remaining), options.signal);
      } catch (error) {
        if (error instanceof AbortedError) throw stop("aborted");
        throw error;
      }
      if (now() >= deadline) throw stop("timeout");
      rateLimitWaitMs = undefined;
      if (now() - started >= backoffAfterMs) interval = Math.min(maxIntervalMs, interval * backoffFactor);
    }
    extraWait = 0;
    // The wait's deadline bounds the whole poll: the transport's attempts and its waits between them.
    const pollDeadline = deadlineSignal(options.signal, deadline - now());
    const sentAt = now();
    try {
      last = await client.getModelJob(model, jobId, { signal: pollDeadline.signal, checkResponse });
      if (!isTerminal(catalog, last.data.status)) unfinishedAt = sentAt;
      polls += 1;
      refused = false;
      extraWait = serverWait(exhaustedWindowDelayMs(last.rateLimit));
    } catch (error) {
      if (error instanceof RateLimitError) {
        // Refused, not failed: wait as long as the server asks, then poll again.
        polls += 1;
        refused = true;
        extraWait = serverWait(error.retryAfterMs ?? interval);
        continue;
      }
      if (pollDeadline.expired() || (error instanceof TimeoutError && now() >= deadline)) throw stop("timeout");
      if (error instanceof AbortedError) throw stop("aborted");
      if (error instanceof NotFoundError) throw new JobExpiredError(model, jobId, catalog.resultRetentionSeconds);
      throw error;
    } finally {
      pollDeadline.dispose();
    }
  }
}

/** A pause the service asked for, capped: a reset or Retry-After of years is a broken header, not advice. */
function serverWait(ms: number): number {
  return Math.min(ms, MAX_RATE_LIMIT_WAIT_MS);
}
