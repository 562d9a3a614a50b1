/**
 * Cancelling the jobs a helper submitted when its caller stops waiting (`cancelOnAbort`): the
 * service bills a job until it ends, whether anyone still waits for it or not. Only accepted jobs
 * are cancelled, each once, within the cancel operation's limits (a batch's rate gate), each
 * request bounded by its own timeout: the caller's signal has already fired.
 */
import { SdkError } from "../error-base.js";
import type { JobClient, ModelCatalog } from "./types.js";
import type { RateGate } from "./rate-gate.js";
import { rateLimitOf } from "./rate-gate.js";

/** What cancelling did, per job id. */
export interface CancelReport {
  /** Jobs the service cancelled (or was cancelling: the answer named no other end). */
  cancelled: string[];
  /** Jobs that had ended before the cancel reached them (their status then). */
  ended: Array<{ jobId: string; status: string }>;
  /** Jobs the cancel did not reach or the service refused, with why. */
  failed: Array<{ jobId: string; reason: string }>;
}

/** How long one cancel request may take, its wait at the rate gate included. */
export const CANCEL_TIMEOUT_MS = 10_000;

export function emptyCancelReport(): CancelReport {
  return { cancelled: [], ended: [], failed: [] };
}

/** Adds `more` to `into`. */
export function mergeCancelReports(into: CancelReport, more: CancelReport): void {
  into.cancelled.push(...more.cancelled);
  into.ended.push(...more.ended);
  into.failed.push(...more.failed);
}

/** `cancelled job a; had ended: b (COMPLETED); could not cancel: c (why)`, for error messages. */
export function describeCancelReport(report: CancelReport): string {
  const parts: string[] = [];
  if (report.cancelled.length > 0) parts.push(`cancelled ${report.cancelled.join(", ")}`);
  if (report.ended.length > 0) parts.push(`already ended: ${report.ended.map((e) => `${e.jobId} (${e.status})`).join(", ")}`);
  if (report.failed.length > 0) parts.push(`could not cancel: ${report.failed.map((f) => `${f.jobId} (${f.reason})`).join(", ")}`);
  return parts.join("; ");
}

/**
 * Cancels one accepted job. Never throws: whatever happens is in the report. With `gate` (a
 * batch's), the request takes its turn under the `cancel` operation's limits.
 */
export async function cancelJob(
  client: Pick<JobClient, "cancelModelJob">,
  catalog: ModelCatalog,
  model: string,
  jobId: string,
  now: () => number,
  gate?: RateGate,
): Promise<CancelReport> {
  const report = emptyCancelReport();
  const cancel = client.cancelModelJob;
  if (cancel === undefined) {
    report.failed.push({ jobId, reason: "this API has no cancel operation" });
    return report;
  }
  const deadline = now() + CANCEL_TIMEOUT_MS;
  if (gate !== undefined) {
    const turn = await gate.acquire(undefined, deadline, "cancel");
    if (turn !== true) {
      report.failed.push({ jobId, reason: `the cancel operation's rate limit would hold the request past ${CANCEL_TIMEOUT_MS / 1000} s` });
      return report;
    }
  }
  let answer: unknown;
  try {
    answer = await cancel.call(client, model, jobId, { timeoutMs: Math.max(1, deadline - now()) });
  } catch (error) {
    gate?.release(rateLimitOf(error), "cancel");
    report.failed.push({ jobId, reason: error instanceof SdkError ? error.message : "the request failed" });
    return report;
  }
  gate?.release(rateLimitOf(answer), "cancel");
  const status = (answer as { data?: { status?: unknown } }).data?.status;
  // (The status's own test, not wait.ts's isTerminal: wait.ts's error reports what this file does.)
  if (typeof status === "string" && status !== "CANCELLED" && Object.hasOwn(catalog.terminalStatuses, status)) report.ended.push({ jobId, status });
  else report.cancelled.push(jobId);
  return report;
}
