/**
 * `x-request-limits` on an operation: how many requests the service takes in a window and at once,
 * as its documentation states them, so that a generated client can pace itself by limits the
 * service's `RateLimit` headers do not report. The one place that reads and checks it.
 */
import { ContractError } from "../common/errors.ts";
import { escapeSegment } from "../common/json-pointer.ts";

/** `requests` per `windowSeconds`, and `concurrent` in flight at most (when the contract says). */
export interface RequestLimits {
  requests: number;
  windowSeconds: number;
  concurrent?: number;
}

const KEYS = new Set(["requests", "windowSeconds", "concurrent"]);

/** The operation's limits, checked, each problem refused with its pointer; undefined without the extension. */
export function readRequestLimits(operation: object, at: string): RequestLimits | undefined {
  const raw: unknown = (operation as Record<string, unknown>)["x-request-limits"];
  if (raw === undefined) return undefined;
  const where = `${at}/x-request-limits`;
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    throw new ContractError(where, "must be an object: requests, windowSeconds, and optionally concurrent");
  }
  const limits = raw as Record<string, unknown>;
  // A misspelt key would leave a limit unenforced without a word.
  const unknown = Object.keys(limits).find((key) => !KEYS.has(key));
  if (unknown !== undefined) throw new ContractError(`${where}/${escapeSegment(unknown)}`, "is not a request limit (requests, windowSeconds, concurrent)");
  const requests = positiveInteger(limits.requests, `${where}/requests`, "requests allowed per window");
  const windowSeconds = limits.windowSeconds;
  if (typeof windowSeconds !== "number" || !Number.isFinite(windowSeconds) || windowSeconds <= 0) {
    throw new ContractError(`${where}/windowSeconds`, "must be a positive number of seconds (the window the requests are counted over)");
  }
  if (limits.concurrent === undefined) return { requests, windowSeconds };
  return { requests, windowSeconds, concurrent: positiveInteger(limits.concurrent, `${where}/concurrent`, "requests in flight at once") };
}

function positiveInteger(value: unknown, where: string, what: string): number {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 1) throw new ContractError(where, `must be a positive integer (${what})`);
  return value;
}

/** The limits in words, for documentation: "1000 requests per 10 s, 200 at once". */
export function describeRequestLimits(limits: RequestLimits): string {
  const base = `${limits.requests} request${limits.requests === 1 ? "" : "s"} per ${limits.windowSeconds} s`;
  return limits.concurrent === undefined ? base : `${base}, ${limits.concurrent} at once`;
}
