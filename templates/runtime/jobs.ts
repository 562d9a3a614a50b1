/**
 * Jobs on the model endpoints, done right: wait for a job, submit and wait, estimate the cost
 * before spending, and run batches within the rate limits the server reports.
 *
 * Generic over the client and the models: the generated `jobs.ts` binds these functions to the
 * generated client's types and to the contract's model catalogue.
 */
import { GpuCloudError } from "./error-base.js";
import { AbortedError, BadRequestError, InvalidRequestError, RateLimitError, TimeoutError } from "./errors.js";
import { fieldPath, SERVER_WAIT_MARGIN_MS } from "./client-core.js";
import type { ApiResult, RequestOptions } from "./client-core.js";
import { exhaustedWindowDelayMs } from "./rate-limit.js";
import type { RateLimitState } from "./rate-limit.js";
import { MAX_TIMER_MS, checkTimeout, linkSignals, sleep as abortableSleep } from "./transport.js";

/** The fields of a job every model shares. */
export interface JobLike {
  id: string;
  status: string;
  delayTime?: number | undefined;
  executionTime?: number | undefined;
  workerId?: string | undefined;
  output?: unknown | undefined;
  error?: string | undefined;
}

/** A runsync request: `waitMs` is how long the service may hold it (when the contract lets it be asked). */
export type SyncRequestOptions = RequestOptions & { waitMs?: number | undefined };

/** The three calls jobs need; the generated client has them. */
export interface JobClient {
  runModel(model: string, input: never, options?: RequestOptions): Promise<ApiResult<JobLike>>;
  /** Absent when the contract has no `runsync` operation. */
  runModelSync?(model: string, input: never, options?: SyncRequestOptions): Promise<ApiResult<JobLike>>;
  getModelJob(model: string, jobId: string, options?: RequestOptions): Promise<ApiResult<JobLike>>;
}

export interface ModelPricing {
  readonly currency: string;
  readonly unit: string;
  /** Input property holding the number of units (e.g. `duration`). */
  readonly unitsFrom: string;
  /** Input property choosing the rate (e.g. `size`). */
  readonly rateFrom: string;
  readonly rates: Readonly<Record<string, number>>;
}

export interface ModelEndpointInfo {
  readonly kind: string;
  readonly urlField?: string | undefined;
  readonly urlLifetimeSeconds?: number | undefined;
  readonly pricing?: ModelPricing | undefined;
}

/** What the contract says of the models, plus the generated input helpers. */
export interface ModelCatalog {
  readonly endpoints: Readonly<Record<string, ModelEndpointInfo>>;
  readonly terminalStatuses: Readonly<Record<string, "success" | "failure">>;
  /** The limits of the wait `runsync` can be asked for (its `x-server-wait` parameter), in milliseconds. */
  readonly syncWaitMs?: { readonly minimum: number; readonly maximum: number };
  /** A copy of the input with the schema's defaults filled in (known models only). */
  withDefaults?(model: string, input: unknown): unknown;
  /** Problems of an input for a known model (none for other models). */
  validate?(model: string, input: unknown): Array<{ path: string; message: string; keyword: string; schemaPath?: string }>;
}

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

export interface RunOptions extends WaitOptions {
  /** Use `runsync`; a job it returns unfinished is waited on with the same id. */
  sync?: boolean | undefined;
  /** Refuse, before any request, a job whose estimated cost exceeds this many USD. */
  maxCostUsd?: number | undefined;
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
}

/** The job ended in a failure status (`FAILED`, `CANCELLED`, `TIMED_OUT`). */
export class JobFailedError extends GpuCloudError {
  static {
    Object.defineProperty(this.prototype, "name", { value: "JobFailedError", writable: true, configurable: true });
  }
  readonly jobId: string;
  readonly model: string;
  readonly status: string;
  /** The service's reason (`error`). */
  readonly reason: string | undefined;
  readonly job: JobLike;

  constructor(model: string, job: JobLike) {
    super("job_failed", `job ${job.id} on ${model} ended ${job.status}${job.error ? `: ${job.error}` : ""}`);
    this.jobId = job.id;
    this.model = model;
    this.status = job.status;
    this.reason = job.error;
    this.job = job;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), jobId: this.jobId, model: this.model, status: this.status, reason: this.reason };
  }
}

/** The wait ended (timeout or abort) before the job did; `lastJob` is the last state seen. */
export class JobWaitError extends GpuCloudError {
  static {
    Object.defineProperty(this.prototype, "name", { value: "JobWaitError", writable: true, configurable: true });
  }
  readonly jobId: string;
  readonly lastJob: JobLike | undefined;
  readonly polls: number;
  readonly elapsedMs: number;

  constructor(kind: "timeout" | "aborted", init: { jobId: string; lastJob: JobLike | undefined; polls: number; elapsedMs: number }) {
    const seen = init.lastJob ? `last seen ${init.lastJob.status}` : "never seen";
    super(kind, `stopped waiting for job ${init.jobId} after ${Math.round(init.elapsedMs)} ms and ${init.polls} polls (${kind === "timeout" ? "timed out" : "aborted"}; ${seen})`);
    this.jobId = init.jobId;
    this.lastJob = init.lastJob;
    this.polls = init.polls;
    this.elapsedMs = init.elapsedMs;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), jobId: this.jobId, lastJob: this.lastJob, polls: this.polls, elapsedMs: this.elapsedMs };
  }
}

/** The estimate is above `maxCostUsd`, or cannot be made: nothing was sent. */
export class CostLimitError extends GpuCloudError {
  static {
    Object.defineProperty(this.prototype, "name", { value: "CostLimitError", writable: true, configurable: true });
  }
  readonly estimateUsd: number | undefined;
  readonly maxCostUsd: number;

  constructor(model: string, estimateUsd: number | undefined, maxCostUsd: number) {
    super(
      "cost_limit",
      estimateUsd === undefined
        ? `the cost of a job on ${model} cannot be estimated (no pricing in the contract), so it cannot be held under maxCostUsd ${formatUsd(maxCostUsd)}`
        : `estimated cost ${formatUsd(estimateUsd)} exceeds maxCostUsd ${formatUsd(maxCostUsd)}; nothing was submitted`,
    );
    this.estimateUsd = estimateUsd;
    this.maxCostUsd = maxCostUsd;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), estimateUsd: this.estimateUsd, maxCostUsd: this.maxCostUsd };
  }
}

export function formatUsd(amount: number): string {
  return `${amount.toFixed(2)} USD`;
}

export function isTerminal(catalog: ModelCatalog, status: string): boolean {
  return Object.hasOwn(catalog.terminalStatuses, status);
}

/**
 * The estimated cost in USD of one job, from the contract's pricing with the input's defaults
 * applied; undefined when the model has no pricing or the input names no known rate.
 */
export function estimateCost(catalog: ModelCatalog, model: string, input: unknown): number | undefined {
  const pricing = Object.hasOwn(catalog.endpoints, model) ? catalog.endpoints[model]?.pricing : undefined;
  if (!pricing) return undefined;
  // A price for an input the service would refuse (`duration: 7`) would mislead; missing fields are fine here.
  const problems = (catalog.validate?.(model, input) ?? []).filter((problem) => problem.keyword !== "required");
  if (problems.length > 0) {
    const fields = problems.map((problem) => ({ ...problem, path: fieldPath("input", problem.path) }));
    throw new InvalidRequestError(`cannot estimate the cost of an invalid input for ${model}:\n${fields.map((field) => `  ${field.path}: ${field.message}`).join("\n")}`, {
      field: fields[0]!.path,
      problems: fields,
    });
  }
  const complete = (catalog.withDefaults?.(model, input) ?? input) as Record<string, unknown>;
  const units = complete?.[pricing.unitsFrom];
  const rateKey = complete?.[pricing.rateFrom];
  const rate = typeof rateKey === "string" && Object.hasOwn(pricing.rates, rateKey) ? pricing.rates[rateKey] : undefined;
  if (typeof units !== "number" || !Number.isFinite(units) || rate === undefined) return undefined;
  // Rounded to a millionth of a dollar: 0.1 × 5 is 0.5, not 0.5000000000000001.
  return Math.round(rate * units * 1e6) / 1e6;
}

function enforceCostLimit(catalog: ModelCatalog, model: string, inputs: readonly unknown[], maxCostUsd: number | undefined): void {
  if (maxCostUsd === undefined) return;
  let total = 0;
  for (const input of inputs) {
    const estimate = estimateCost(catalog, model, input);
    if (estimate === undefined) throw new CostLimitError(model, undefined, maxCostUsd);
    total += estimate;
  }
  if (total > maxCostUsd + 1e-9) throw new CostLimitError(model, Math.round(total * 1e6) / 1e6, maxCostUsd);
}

/** How long a wait lasts when no `timeoutMs` is given: a wait is always bounded (SERVICE-NOTES). */
export const DEFAULT_WAIT_TIMEOUT_MS = 30 * 60_000;

/**
 * `unfinishedAt`: a moment the job had not finished yet (the submission, or the sending of a poll
 * that found it unfinished), so its URL was generated later and lives at least until then plus its
 * lifetime; undefined when the first poll already found it finished.
 */
function toResult(catalog: ModelCatalog, model: string, job: JobLike, rateLimit: RateLimitState | undefined, unfinishedAt: number | undefined): JobResult {
  const info = Object.hasOwn(catalog.endpoints, model) ? catalog.endpoints[model] : undefined;
  const output = (job.output ?? {}) as Record<string, unknown>;
  const urlField = info?.urlField ?? ["video_url", "image_url", "audio_url"].find((field) => typeof output[field] === "string");
  const url = urlField && typeof output[urlField] === "string" ? (output[urlField] as string) : undefined;
  const lifetime = info?.urlLifetimeSeconds;
  return {
    id: job.id,
    status: job.status,
    output: job.output,
    costUsd: typeof output.cost === "number" ? output.cost : undefined,
    url,
    expiresAt: url && lifetime && unfinishedAt !== undefined ? new Date(unfinishedAt + lifetime * 1000) : undefined,
    delayTime: job.delayTime,
    executionTime: job.executionTime,
    job,
    rateLimit,
  };
}

/**
 * Polls the job's status until it reaches a terminal status. `COMPLETED` gives its typed result;
 * `FAILED`, `CANCELLED` and `TIMED_OUT` throw a `JobFailedError`; any other status, one never seen
 * before included, means keep waiting. Polls every `intervalMs`, slowing by `backoffFactor` per poll
 * once the job has run `backoffAfterMs`, never beyond `maxIntervalMs`. A 429 waits `Retry-After`;
 * a `RateLimit` window with no request left waits for its reset instead of provoking a 429.
 * Timeout and abort throw a `JobWaitError` carrying the last job seen, leaving no timer or listener.
 */
export async function waitForJob(
  client: Pick<JobClient, "getModelJob">,
  catalog: ModelCatalog,
  model: string,
  jobId: string,
  options: WaitOptions = {},
  initial?: ApiResult<JobLike>,
  submittedAt?: number,
): Promise<JobResult> {
  const now = options.now ?? Date.now;
  const pause = options.sleep ?? abortableSleep;
  const intervalMs = options.intervalMs ?? 2_000;
  const backoffAfterMs = options.backoffAfterMs ?? 30_000;
  const backoffFactor = options.backoffFactor ?? 1.5;
  const maxIntervalMs = Math.max(intervalMs, options.maxIntervalMs ?? 10_000);
  checkTimeout("timeoutMs", options.timeoutMs);
  const started = now();
  const deadline = started + (options.timeoutMs ?? DEFAULT_WAIT_TIMEOUT_MS);

  let last: ApiResult<JobLike> | undefined = initial;
  // The job was submitted before it could finish: the URL's lifetime starts no earlier.
  let unfinishedAt = submittedAt;
  let polls = 0;
  let interval = intervalMs;
  let extraWait = exhaustedWindowDelayMs(initial?.rateLimit);
  // A poll was refused (429) before any status was seen: wait before the next one all the same.
  let refused = false;
  const stop = (kind: "timeout" | "aborted") =>
    new JobWaitError(kind, { jobId, lastJob: last?.data, polls, elapsedMs: now() - started });

  for (;;) {
    if (last && isTerminal(catalog, last.data.status)) {
      options.onProgress?.({ job: last.data, polls, elapsedMs: now() - started, nextPollMs: 0 });
      if (catalog.terminalStatuses[last.data.status] === "failure") throw new JobFailedError(model, last.data);
      return toResult(catalog, model, last.data, last.rateLimit, unfinishedAt);
    }
    if (last !== undefined || refused) {
      const wait = Math.max(interval, extraWait);
      if (last !== undefined) options.onProgress?.({ job: last.data, polls, elapsedMs: now() - started, nextPollMs: wait });
      const remaining = deadline - now();
      if (remaining <= 0) throw stop("timeout");
      try {
        await pause(Math.min(wait, remaining), options.signal);
      } catch (error) {
        if (error instanceof AbortedError) throw stop("aborted");
        throw error;
      }
      if (now() >= deadline) throw stop("timeout");
      if (now() - started >= backoffAfterMs) interval = Math.min(maxIntervalMs, interval * backoffFactor);
    }
    extraWait = 0;
    // The wait's deadline bounds the whole poll: the transport's attempts and its waits between them.
    const pollDeadline = deadlineSignal(options.signal, deadline - now());
    const sentAt = now();
    try {
      last = await client.getModelJob(model, jobId, { signal: pollDeadline.signal });
      if (!isTerminal(catalog, last.data.status)) unfinishedAt = sentAt;
      polls += 1;
      refused = false;
      extraWait = exhaustedWindowDelayMs(last.rateLimit);
    } catch (error) {
      if (error instanceof RateLimitError) {
        // Refused, not failed: wait as long as the server asks, then poll again.
        polls += 1;
        refused = true;
        extraWait = error.retryAfterMs ?? interval;
        continue;
      }
      if (pollDeadline.expired() || (error instanceof TimeoutError && now() >= deadline)) throw stop("timeout");
      if (error instanceof AbortedError) throw stop("aborted");
      throw error;
    } finally {
      pollDeadline.dispose();
    }
  }
}

/**
 * A signal that aborts with `signal` or once `ms` have passed (never, for an infinite `ms`);
 * `expired()` tells the second case apart. `dispose` clears the timer and the link.
 */
function deadlineSignal(signal: AbortSignal | undefined, ms: number): { signal: AbortSignal | undefined; expired(): boolean; dispose(): void } {
  if (!Number.isFinite(ms)) return { signal, expired: () => false, dispose: () => undefined };
  const link = linkSignals(signal === undefined ? [] : [signal]);
  let expired = false;
  const timer = setTimeout(() => {
    expired = true;
    link.controller.abort();
  }, Math.max(0, Math.min(ms, MAX_TIMER_MS)));
  return {
    signal: link.controller.signal,
    expired: () => expired,
    dispose() {
      clearTimeout(timer);
      link.dispose();
    },
  };
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
interface Batch {
  gate: RateGate;
  polling: Pick<JobClient, "getModelJob">;
  onAccepted(jobId: string): void;
}

/** Submits, then waits on the job's id. `timeoutMs` bounds both, from the first attempt to submit. */
async function submitAndWait(client: JobClient, catalog: ModelCatalog, model: string, input: unknown, options: RunOptions, batch?: Batch): Promise<JobResult> {
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

export type BatchItem<Output = unknown> =
  | { ok: true; index: number; jobId: string; result: JobResult<Output> }
  | { ok: false; index: number; jobId: string | undefined; error: unknown };

export interface BatchProgress {
  done: number;
  failed: number;
  total: number;
  accepted: number;
}

export interface BatchOptions extends Omit<RunOptions, "onProgress" | "maxCostUsd"> {
  /** Jobs in flight at once; default 4. */
  concurrency?: number | undefined;
  /** Refuse the whole batch, before any request, when the estimated total exceeds this. */
  maxCostUsd?: number | undefined;
  onProgress?(progress: BatchProgress): void;
}

export interface BatchResult<Output = unknown> {
  /** One item per input, in input order. */
  items: Array<BatchItem<Output>>;
  succeeded: number;
  failed: number;
  /** Sum of `output.cost` of the finished jobs, in USD. */
  totalCostUsd: number;
}

/** The batch was aborted: waiting stopped, but the accepted jobs still run on the service. */
export class BatchAbortedError extends GpuCloudError {
  static {
    Object.defineProperty(this.prototype, "name", { value: "BatchAbortedError", writable: true, configurable: true });
  }
  /** Ids of the jobs the service accepted; they are not cancelled. */
  readonly acceptedJobIds: string[];
  readonly items: Array<BatchItem | undefined>;

  constructor(acceptedJobIds: string[], items: Array<BatchItem | undefined>) {
    super("aborted", `batch aborted; ${acceptedJobIds.length} accepted job(s) keep running: ${acceptedJobIds.join(", ") || "none"}`);
    this.acceptedJobIds = acceptedJobIds;
    this.items = items;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), acceptedJobIds: this.acceptedJobIds };
  }
}

/**
 * Keeps a batch under the limits the server reports. Per window it keeps an estimate of the
 * requests left and when the window resets: each request sent takes one; each answer's `RateLimit`
 * can only lower the estimate (an answer that arrives late, computed before requests still in
 * flight, must not raise it) unless it speaks of a later period. At a reset the window starts again
 * at its quota (`RateLimit-Policy`), not unlimited, so waiting workers do not all go at once. With
 * none left, a request waits for the reset: an honest quota then never answers 429.
 */
export class RateGate {
  readonly #windows = new Map<string, { remaining: number; resetAt: number; quota: number | undefined; windowMs: number | undefined }>();
  #inFlight = 0;
  /** Settled by the first answer (or failure); undefined from then on. */
  #firstAnswer: { promise: Promise<void>; resolve(): void } | undefined;
  readonly #now: () => number;
  readonly #sleep: (ms: number, signal?: AbortSignal) => Promise<void>;

  constructor(now: () => number = Date.now, sleep: (ms: number, signal?: AbortSignal) => Promise<void> = abortableSleep) {
    this.#now = now;
    this.#sleep = sleep;
    let resolve!: () => void;
    const promise = new Promise<void>((settle) => (resolve = settle));
    this.#firstAnswer = { promise, resolve };
  }

  /** Milliseconds until a request may be sent (0: now). */
  delayMs(): number {
    const now = this.#now();
    let delay = 0;
    for (const [name, window] of this.#windows) {
      if (now >= window.resetAt) {
        // A new period: its quota, when the policy gave one; otherwise nothing is known any more.
        if (window.quota === undefined) {
          this.#windows.delete(name);
          continue;
        }
        window.remaining = window.quota;
        window.resetAt = window.windowMs === undefined ? Infinity : window.resetAt + Math.ceil((now - window.resetAt + 1) / window.windowMs) * window.windowMs;
      }
      if (window.remaining <= 0) delay = Math.max(delay, window.resetAt - now);
    }
    return Number.isFinite(delay) ? Math.max(0, delay) : 0;
  }

  /**
   * Waits for a request's turn and takes it. False, without taking one, when the limits would hold
   * it past `deadline`.
   */
  async acquire(signal?: AbortSignal, deadline = Infinity): Promise<boolean> {
    // Until a first answer tells the limits, one request at a time: a burst could overrun a small quota.
    while (this.#firstAnswer !== undefined && this.#inFlight > 0) await abortable(this.#firstAnswer.promise, signal);
    for (let delay = this.delayMs(); delay > 0; delay = this.delayMs()) {
      if (this.#now() + delay > deadline) return false;
      await this.#sleep(delay, signal);
    }
    this.#inFlight += 1;
    for (const window of this.#windows.values()) window.remaining -= 1;
    return true;
  }

  release(rateLimit: RateLimitState | undefined): void {
    this.#inFlight -= 1;
    this.#firstAnswer?.resolve();
    this.#firstAnswer = undefined;
    const now = this.#now();
    for (const { name, remaining, resetSeconds, quota, windowSeconds } of rateLimit?.windows ?? []) {
      if (remaining === undefined || resetSeconds === undefined) continue;
      const resetAt = now + resetSeconds * 1000;
      // Requests still in flight may not be counted in this answer yet: assume they are not.
      const serverView = remaining - this.#inFlight;
      const known = this.#windows.get(name);
      const windowMs = windowSeconds === undefined ? known?.windowMs : windowSeconds * 1000;
      // `t` is whole seconds, so answers of one period differ in resetAt by up to a second.
      if (known !== undefined && resetAt < known.resetAt - 1_000) continue; // an earlier period's answer, arriving late
      if (known === undefined || resetAt > known.resetAt + 1_000) {
        this.#windows.set(name, { remaining: serverView, resetAt, quota: quota ?? known?.quota, windowMs });
      } else {
        known.remaining = Math.min(known.remaining, serverView);
        // The later of the two: a reset reckoned here from the window's length may run ahead of the server's.
        known.resetAt = Math.max(known.resetAt, resetAt);
        known.quota = quota ?? known.quota;
        known.windowMs = windowMs;
      }
    }
  }
}

/** `promise`, or an AbortedError as soon as `signal` aborts (leaving no listener behind). */
function abortable(promise: Promise<void>, signal: AbortSignal | undefined): Promise<void> {
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

/** The `rateLimit` of an answer or an error; anything may be thrown, `undefined` included. */
function rateLimitOf(value: unknown): RateLimitState | undefined {
  return typeof value === "object" && value !== null ? (value as { rateLimit?: RateLimitState }).rateLimit : undefined;
}

/** The polls of a batch, each through the gate. */
function gatedPolling(client: JobClient, gate: RateGate): Pick<JobClient, "getModelJob"> {
  return {
    async getModelJob(model: string, jobId: string, options?: RequestOptions): Promise<ApiResult<JobLike>> {
      await gate.acquire(options?.signal);
      let rateLimit: RateLimitState | undefined;
      try {
        const result = await client.getModelJob(model, jobId, options);
        rateLimit = result.rateLimit;
        return result;
      } catch (error) {
        rateLimit = rateLimitOf(error);
        throw error;
      } finally {
        gate.release(rateLimit);
      }
    },
  };
}

/**
 * Submits and waits for many jobs on one model, `concurrency` at a time, within the server's
 * reported rate limits. Results come back in input order, each a success or a failure: one failed
 * job never loses the others. Aborting stops the waiting (not the accepted jobs) and throws a
 * `BatchAbortedError` naming the accepted job ids.
 */
export async function runMany(
  client: JobClient,
  catalog: ModelCatalog,
  model: string,
  inputs: readonly unknown[],
  options: BatchOptions = {},
): Promise<BatchResult> {
  enforceCostLimit(catalog, model, inputs, options.maxCostUsd);
  checkTimeout("timeoutMs", options.timeoutMs);
  const gate = new RateGate(options.now, options.sleep);
  const polling = gatedPolling(client, gate);
  const items: Array<BatchItem | undefined> = new Array(inputs.length);
  const accepted: string[] = [];
  const progress: BatchProgress = { done: 0, failed: 0, total: inputs.length, accepted: 0 };
  let next = 0;
  const { onProgress, concurrency = 4, ...rest } = options;
  const runOptions: RunOptions = { ...rest, maxCostUsd: undefined };

  const worker = async (): Promise<void> => {
    while (next < inputs.length && !options.signal?.aborted) {
      const index = next++;
      let jobId: string | undefined;
      try {
        const onAccepted = (id: string) => {
          jobId = id;
          accepted.push(id);
          progress.accepted += 1;
          onProgress?.({ ...progress });
        };
        // Each job's timeoutMs starts when the gate lets its submission go, not while it queues.
        const result = await submitAndWait(client, catalog, model, inputs[index], runOptions, { gate, polling, onAccepted });
        items[index] = { ok: true, index, jobId: result.id, result };
        progress.done += 1;
      } catch (error) {
        if (options.signal?.aborted) return;
        items[index] = { ok: false, index, jobId, error };
        progress.done += 1;
        progress.failed += 1;
      }
      onProgress?.({ ...progress });
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, inputs.length)) }, worker));
  if (options.signal?.aborted) throw new BatchAbortedError(accepted, items);

  const done = items as Array<BatchItem>;
  const totalCostUsd = done.reduce((sum, item) => sum + (item.ok ? (item.result.costUsd ?? 0) : 0), 0);
  return {
    items: done,
    succeeded: done.filter((item) => item.ok).length,
    failed: done.filter((item) => !item.ok).length,
    totalCostUsd: Math.round(totalCostUsd * 1e6) / 1e6,
  };
}
