/**
 * Rate limits as the test kit answers them: the headers of a 429 that asks to wait, and a quota
 * counted on the test's clock, in the `RateLimit`/`RateLimit-Policy` fields the contract documents
 * (`"minute";r=57;t=30`, `"minute";q=60;w=60`).
 */
import type { ExampleResponse } from "./answers.js";

/** A quota: at most `limit` requests per window of `windowSeconds`, then 429s until it resets. */
export interface RateLimitRule {
  limit: number;
  windowSeconds: number;
  /** The window's name in the headers; default the contract's (`minute`), else `default`. */
  policy?: string | undefined;
}

/** What the contract's example `RateLimit-Policy` says: its first window's name, quota and length. */
interface Policy {
  name: string;
  quota: number;
  windowSeconds: number;
}

/** Whether the contract documents rate-limit headers for the operation, and its first policy. */
export function documentedPolicy(responses: readonly ExampleResponse[]): { documented: boolean; policy: Policy } {
  let documented = false;
  for (const response of responses) {
    for (const [name, value] of Object.entries(response.headers ?? {})) {
      const lower = name.toLowerCase();
      if (lower === "ratelimit" || lower === "ratelimit-policy") documented = true;
      if (lower !== "ratelimit-policy") continue;
      const match = /^\s*"?([^";,]+)"?\s*;\s*q=(\d+)\s*;\s*w=(\d+)/.exec(value);
      if (match !== null) return { documented, policy: { name: match[1]!, quota: Number(match[2]), windowSeconds: Number(match[3]) } };
    }
  }
  return { documented, policy: { name: "default", quota: 60, windowSeconds: 60 } };
}

/** The headers of a 429 asking to wait `seconds`: `Retry-After`, and the rate-limit fields where the contract has them. */
export function retryAfterHeaders(seconds: number, responses: readonly ExampleResponse[]): Record<string, string> {
  const { documented, policy } = documentedPolicy(responses);
  const headers: Record<string, string> = { "retry-after": String(Math.max(0, Math.ceil(seconds))) };
  if (!documented) return headers;
  headers["ratelimit"] = `"${policy.name}";r=0;t=${Math.max(0, Math.ceil(seconds))}`;
  headers["ratelimit-policy"] = `"${policy.name}";q=${policy.quota};w=${policy.windowSeconds}`;
  return headers;
}

/** A quota counted on the test's clock, in fixed windows from the first request. */
export class Quota {
  #windowStart: number | undefined;
  #used = 0;

  constructor(
    private readonly rule: RateLimitRule,
    private readonly responses: readonly ExampleResponse[],
  ) {}

  /** Takes one request at `now`: its headers, and whether it is over the quota (then a 429). */
  take(now: number): { limited: boolean; headers: Record<string, string> } {
    const windowMs = this.rule.windowSeconds * 1000;
    if (this.#windowStart === undefined || now >= this.#windowStart + windowMs) {
      this.#windowStart = now;
      this.#used = 0;
    }
    const resetSeconds = Math.max(0, Math.ceil((this.#windowStart + windowMs - now) / 1000));
    const limited = this.#used >= this.rule.limit;
    if (!limited) this.#used++;
    const name = this.rule.policy ?? documentedPolicy(this.responses).policy.name;
    const headers: Record<string, string> = {
      ratelimit: `"${name}";r=${this.rule.limit - this.#used};t=${resetSeconds}`,
      "ratelimit-policy": `"${name}";q=${this.rule.limit};w=${this.rule.windowSeconds}`,
    };
    if (limited) headers["retry-after"] = String(resetSeconds);
    return { limited, headers };
  }
}
