/**
 * Many jobs of one model at once: `concurrency` in flight, all within the rate limits the server
 * reports and the ones the contract documents (one RateGate for the batch), each result or failure
 * kept in input order.
 */
import { ClientCore } from "../client-core.js";
import type { ApiResult, RequestOptions } from "../client-core.js";
import { SdkError, blankOwnFields, nameClass } from "../error-base.js";
import { BatchBudget } from "./budget.js";
import { enforceCostLimit } from "./cost.js";
import { InvalidRequestError } from "../errors.js";
import { RateLimitError } from "../api-errors.js";
import { describeCancelReport, emptyCancelReport, mergeCancelReports } from "./cancel.js";
import type { CancelReport } from "./cancel.js";
import { checkJobOptions, submitAndWait } from "./submit.js";
import type { RunOptions } from "./submit.js";
import type { JobClient, JobLike, ModelCatalog } from "./types.js";
import type { JobResult } from "./wait.js";
import { JobWaitError, checkWaitOptions } from "./wait.js";
import { checkNumber } from "../option-checks.js";
import { RateGate, RateLimitWaitError, rateLimitOf } from "./rate-gate.js";
import type { RateLimitState } from "../rate-limit.js";
import { fanOut, linkSignals } from "../signals.js";

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
  /**
   * A running budget: each job's estimate is reserved before it is submitted and replaced by its
   * reported `output.cost` when it ends; a job that would pass it is not submitted (its item's
   * error is a `BudgetExceededError`), while the others go on.
   */
  maxTotalCostUsd?: number | undefined;
  /**
   * With `maxTotalCostUsd`: once the jobs that ended have cost more than it (reported costs above
   * their estimates), cancel the running ones; their items' errors say so.
   */
  cancelOnBudget?: boolean | undefined;
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

/**
 * The batch was aborted: waiting stopped. Without `cancelOnAbort` the accepted jobs that had not
 * ended still run on the service; with it, `cancellation` says which were cancelled, which had
 * already ended and which could not be cancelled.
 */
export class BatchAbortedError extends SdkError {
  static {
    nameClass(this, "BatchAbortedError");
  }
  /** Ids of the jobs the service accepted. */
  readonly acceptedJobIds: string[];
  readonly items: Array<BatchItem | undefined>;
  /** With `cancelOnAbort`: what cancelling the unfinished jobs did. */
  readonly cancellation: CancelReport | undefined;

  constructor(acceptedJobIds: string[], items: Array<BatchItem | undefined>, cancellation?: CancelReport) {
    const what =
      cancellation === undefined
        ? `${acceptedJobIds.length} accepted job(s) keep running: ${acceptedJobIds.join(", ") || "none"}`
        : `${acceptedJobIds.length} accepted job(s); ${describeCancelReport(cancellation) || "none was still running"}`;
    super("aborted", `batch aborted; ${what}`);
    this.acceptedJobIds = acceptedJobIds;
    this.items = items;
    this.cancellation = cancellation;
    blankOwnFields(this);
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), acceptedJobIds: this.acceptedJobIds, cancellation: this.cancellation };
  }
}

/** Errors of a submission that made no job: refused before sending, or answered 429. */
function madeNoJob(error: unknown): boolean {
  return error instanceof InvalidRequestError || error instanceof RateLimitError || error instanceof RateLimitWaitError;
}

/** The polls of a batch, each through the gate. */
function gatedPolling(client: JobClient, gate: RateGate): Pick<JobClient, "getModelJob"> {
  return {
    async getModelJob(model: string, jobId: string, options?: RequestOptions): Promise<ApiResult<JobLike>> {
      await gate.acquire(options?.signal, Infinity, "status");
      let rateLimit: RateLimitState | undefined;
      try {
        const result = await client.getModelJob(model, jobId, options);
        rateLimit = result.rateLimit;
        return result;
      } catch (error) {
        rateLimit = rateLimitOf(error);
        throw error;
      } finally {
        gate.release(rateLimit, "status");
      }
    },
  };
}

/**
 * Submits and waits for many jobs on one model, `concurrency` at a time, within the server's
 * reported rate limits. Results come back in input order, each a success or a failure: one failed
 * job never loses the others. Aborting stops the waiting (not the accepted jobs) and throws a
 * `BatchAbortedError` naming the accepted job ids. The caller's signal gets one listener, however
 * many jobs are in flight. With `cancelOnAbort`, an abort (or a job's `timeoutMs`) also cancels
 * the accepted jobs that have not ended, each cancel within the cancel operation's limits.
 */
export async function runMany(
  client: JobClient,
  catalog: ModelCatalog,
  model: string,
  inputs: readonly unknown[],
  options: BatchOptions = {},
): Promise<BatchResult> {
  checkWaitOptions(options);
  // The client's clock, where the caller gave none, paces and times every job.
  options = ClientCore.timed(client.core ?? client, options);
  checkNumber("concurrency", options.concurrency, { unit: "jobs", min: 1, integer: true });
  checkJobOptions(client, options);
  if (options.cancelOnBudget && (options.maxTotalCostUsd === undefined || client.cancelModelJob === undefined)) {
    const why = options.maxTotalCostUsd === undefined ? "it needs maxTotalCostUsd" : "this API has no cancel operation";
    throw new InvalidRequestError(`cancelOnBudget: ${why}; leave cancelOnBudget out`, { field: "cancelOnBudget" });
  }
  const runsPerJob = 1 + (options.retryFailed ?? 0);
  // Before any timer or rate-limit slot starts: the client's own check of each input then finds them loaded.
  await catalog.prepare?.(model);
  enforceCostLimit(catalog, model, inputs, options.maxCostUsd, runsPerJob);
  const budget = options.maxTotalCostUsd === undefined ? undefined : new BatchBudget(options.maxTotalCostUsd, catalog, model, runsPerJob);
  // Every job priced before anything is sent: a budget cannot hold a job it cannot price.
  const estimates = budget === undefined ? undefined : inputs.map((input) => budget.estimate(input));
  const gate = new RateGate(options.now, options.sleep, catalog.requestLimits);
  const polling = gatedPolling(client, gate);
  const items: Array<BatchItem | undefined> = new Array(inputs.length);
  const accepted: string[] = [];
  const progress: BatchProgress = { done: 0, failed: 0, total: inputs.length, accepted: 0 };
  let next = 0;
  const { onProgress, concurrency = 4, ...rest } = options;
  const runOptions: RunOptions = { ...rest, maxCostUsd: undefined };
  const stopForBudget = options.cancelOnBudget === true && budget !== undefined;
  // The budget's stop reaches every job's signal as the caller's does (only when it can fire).
  const budgetStop = stopForBudget ? linkSignals(options.signal === undefined ? [] : [options.signal]) : undefined;
  const signals = fanOut(budgetStop?.controller.signal ?? options.signal);
  const cancellation = emptyCancelReport();

  const worker = async (): Promise<void> => {
    while (next < inputs.length && !options.signal?.aborted) {
      const index = next++;
      let jobId: string | undefined;
      const estimate = estimates?.[index] ?? 0;
      const refused = budget?.reserve(estimate);
      if (refused !== undefined) {
        items[index] = { ok: false, index, jobId: undefined, error: refused };
        progress.done += 1;
        progress.failed += 1;
        onProgress?.({ ...progress });
        continue;
      }
      const job = signals.open();
      try {
        const onAccepted = (id: string) => {
          jobId = id;
          accepted.push(id);
          progress.accepted += 1;
          onProgress?.({ ...progress });
        };
        // Each job's timeoutMs starts when the gate lets its submission go; its wait in the queue has a timeoutMs of its own.
        const cancelWhen = () => stopForBudget && budget.passed;
        const result = await submitAndWait(client, catalog, model, inputs[index], { ...runOptions, signal: job.signal }, { gate, polling, onAccepted, cancelWhen });
        items[index] = { ok: true, index, jobId: result.id, result };
        // A retried job's earlier runs reported nothing: its whole estimate stays counted.
        budget?.settle(estimate, result.attempts === 1 && result.costUsd !== undefined ? result.costUsd : estimate);
        if (stopForBudget && budget.passed) budgetStop?.controller.abort();
        progress.done += 1;
      } catch (error) {
        // Refused before any job existed, nothing to pay; otherwise (accepted, or a submission
        // without an answer, which may have made one) what it cost is unknown: the estimate stays.
        budget?.settle(estimate, jobId === undefined && madeNoJob(error) ? 0 : estimate);
        if (error instanceof JobWaitError && error.cancellation !== undefined) mergeCancelReports(cancellation, error.cancellation);
        if (options.signal?.aborted) return;
        items[index] = { ok: false, index, jobId, error };
        progress.done += 1;
        progress.failed += 1;
      } finally {
        job.close();
      }
      onProgress?.({ ...progress });
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, inputs.length)) }, worker));
  } finally {
    signals.dispose();
    budgetStop?.dispose();
  }
  if (options.signal?.aborted) throw new BatchAbortedError(accepted, items, options.cancelOnAbort ? cancellation : undefined);

  const done = items as Array<BatchItem>;
  const totalCostUsd = done.reduce((sum, item) => sum + (item.ok ? (item.result.costUsd ?? 0) : 0), 0);
  return {
    items: done,
    succeeded: done.filter((item) => item.ok).length,
    failed: done.filter((item) => !item.ok).length,
    totalCostUsd: Math.round(totalCostUsd * 1e6) / 1e6,
  };
}
