/**
 * The job helpers in one module, as the generated `jobs.ts` imports them: waiting (job-wait.ts),
 * submitting (job-submit.ts), cancelling (job-cancel.ts), following partial outputs (job-stream.ts), fetching output files
 * (job-download.ts),
 * cost (job-cost.ts), batches (job-batch.ts, rate-gate.ts).
 */
export type { JobClient, JobLike, JobOperation, ModelCatalog, ModelEndpointInfo, ModelPricing, SyncRequestOptions } from "./job-types.js";
export { DEFAULT_WAIT_TIMEOUT_MS, JobExpiredError, JobFailedError, JobWaitError, isTerminal, waitForJob } from "./job-wait.js";
export type { JobResult, WaitOptions, WaitProgress } from "./job-wait.js";
export { runAndWait } from "./job-submit.js";
export type { RunOptions } from "./job-submit.js";
export { CostLimitError, estimateCost, formatUsd } from "./job-cost.js";
export { BatchAbortedError, runMany } from "./job-batch.js";
export { CANCEL_TIMEOUT_MS } from "./job-cancel.js";
export { BudgetExceededError } from "./job-budget.js";
export { streamJob } from "./job-stream.js";
export { DEFAULT_DOWNLOAD_MAX_BYTES, DEFAULT_DOWNLOAD_TIMEOUT_MS, DownloadError, download } from "./job-download.js";
export type { Downloadable, DownloadFailure, DownloadOptions, DownloadReport } from "./job-download.js";
export type { StreamChunk, StreamOptions } from "./job-stream.js";
export type { CancelReport } from "./job-cancel.js";
export type { BatchItem, BatchOptions, BatchProgress, BatchResult } from "./job-batch.js";
export { MAX_RATE_LIMIT_WAIT_MS, RateGate, RateLimitWaitError } from "./rate-gate.js";
export type { GateHold, RequestLimit } from "./rate-gate.js";
