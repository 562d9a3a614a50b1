/**
 * The job helpers in one module, as the generated `jobs.ts` imports them: waiting (wait.ts),
 * submitting (submit.ts), cancelling (cancel.ts), following partial outputs (stream.ts), fetching
 * output files (download.ts), cost (cost.ts, budget.ts), batches (batch.ts, rate-gate.ts).
 */
export type { JobClient, JobLike, JobOperation, ModelCatalog, ModelEndpointInfo, ModelPricing, SyncRequestOptions, TokenRate } from "./types.js";
export { DEFAULT_WAIT_TIMEOUT_MS, JobExpiredError, JobFailedError, JobWaitError, isTerminal, waitForJob } from "./wait.js";
export type { JobResult, WaitOptions, WaitProgress } from "./wait.js";
export { runAndWait } from "./submit.js";
export type { RunOptions } from "./submit.js";
export { CostLimitError, TOKEN_ALLOWANCE_PER_MESSAGE, costEstimate, estimateCost, formatUsd } from "./cost.js";
export { BatchAbortedError, runMany } from "./batch.js";
export { CANCEL_TIMEOUT_MS } from "./cancel.js";
export { BudgetExceededError } from "./budget.js";
export { streamJob } from "./stream.js";
export { DEFAULT_DOWNLOAD_MAX_BYTES, DEFAULT_DOWNLOAD_TIMEOUT_MS, DownloadError, download } from "./download.js";
export type { Downloadable, DownloadFailure, DownloadOptions, DownloadReport } from "./download.js";
export type { StreamChunk, StreamOptions } from "./stream.js";
export type { CancelReport } from "./cancel.js";
export type { BatchItem, BatchOptions, BatchProgress, BatchResult } from "./batch.js";
export { MAX_RATE_LIMIT_WAIT_MS, RateGate, RateLimitWaitError } from "./rate-gate.js";
export type { GateHold, RequestLimit } from "./rate-gate.js";
