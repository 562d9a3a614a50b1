import { describe, expect, it } from "vitest";
import {
  exhaustedWindowDelayMs,
  parseRateLimit,
  parseRetryAfter,
  parseStructuredList,
  requestedWaitMs,
} from "../../templates/runtime/rate-limit.ts";

const RATE_LIMIT = '"minute";r=0;t=12, "hour";r=2800;t=1812, "day";r=49500;t=45012';
const RATE_LIMIT_POLICY = '"minute";q=60;w=60, "hour";q=3000;w=3600, "day";q=50000;w=86400';

describe("parseStructuredList", () => {
  it("returns items with their parameters, in order", () => {
    expect(parseStructuredList('"minute";r=0;t=12, hour;r=5')).toEqual({
      ok: true,
      members: [
        { value: "minute", params: { r: 0, t: 12 } },
        { value: { type: "token", value: "hour" }, params: { r: 5 } },
      ],
    });
  });

  it("represents inner lists, booleans, binary and display strings as plain data", () => {
    const result = parseStructuredList('(a "b");x, ?1;flag, :AQI=:, %"caf%c3%a9"');
    expect(result).toEqual({
      ok: true,
      members: [
        {
          value: [
            { value: { type: "token", value: "a" }, params: {} },
            { value: "b", params: {} },
          ],
          params: { x: true },
        },
        { value: true, params: { flag: true } },
        { value: { type: "binary", value: new Uint8Array([1, 2]) }, params: {} },
        { value: { type: "displaystring", value: "café" }, params: {} },
      ],
    });
  });

  it("reads -0 as 0, the only zero structured fields have", () => {
    const result = parseStructuredList("-0;p=-0");
    const member = result.ok ? result.members[0] : undefined;
    expect(Object.is(member?.value, 0)).toBe(true);
    expect(Object.is(member?.params.p, 0)).toBe(true);
  });

  it("reads a date as epoch seconds", () => {
    expect(parseStructuredList("a;since=@1700000000")).toEqual({
      ok: true,
      members: [{ value: { type: "token", value: "a" }, params: { since: { type: "date", value: 1_700_000_000 } } }],
    });
  });

  // Outside the conformance suite, which has no list case with a date: a date ends where its
  // digits do, and the member after it is read too.
  it("reads a date parameter followed by another member", () => {
    expect(parseStructuredList("a;since=@1, b")).toEqual({
      ok: true,
      members: [
        { value: { type: "token", value: "a" }, params: { since: { type: "date", value: 1 } } },
        { value: { type: "token", value: "b" }, params: {} },
      ],
    });
  });

  it("reports invalid input instead of throwing", () => {
    const result = parseStructuredList('"minute";r=0,');
    expect(result.ok).toBe(false);
    expect(!result.ok && result.reason).toMatch(/trailing comma/);
  });
});

describe("parseRateLimit", () => {
  it("merges RateLimit and RateLimit-Policy per window", () => {
    const headers = new Headers({ RateLimit: RATE_LIMIT, "RateLimit-Policy": RATE_LIMIT_POLICY });
    expect(parseRateLimit(headers)).toEqual({
      windows: [
        { name: "minute", remaining: 0, resetSeconds: 12, quota: 60, windowSeconds: 60 },
        { name: "hour", remaining: 2800, resetSeconds: 1812, quota: 3000, windowSeconds: 3600 },
        { name: "day", remaining: 49500, resetSeconds: 45012, quota: 50000, windowSeconds: 86400 },
      ],
      problems: [],
    });
  });

  it("is undefined when neither header is present", () => {
    expect(parseRateLimit(new Headers({ "Content-Type": "application/json" }))).toBeUndefined();
  });

  it("accepts window names as tokens as well as strings", () => {
    const headers = new Headers({ RateLimit: "minute;r=3;t=4", "RateLimit-Policy": '"minute";q=60;w=60' });
    expect(parseRateLimit(headers)?.windows).toEqual([
      { name: "minute", remaining: 3, resetSeconds: 4, quota: 60, windowSeconds: 60 },
    ]);
  });

  it("leaves missing parameters unset and works with only one header", () => {
    expect(parseRateLimit(new Headers({ RateLimit: '"minute";r=3' }))).toEqual({
      windows: [{ name: "minute", remaining: 3 }],
      problems: [],
    });
    expect(parseRateLimit(new Headers({ "RateLimit-Policy": '"hour";w=3600' }))).toEqual({
      windows: [{ name: "hour", windowSeconds: 3600 }],
      problems: [],
    });
  });

  it("keeps unknown windows, in order of first appearance across both headers", () => {
    const headers = new Headers({
      RateLimit: '"burst";r=1;t=1, "minute";r=2;t=3',
      "RateLimit-Policy": '"minute";q=60;w=60, "gpu-hours";q=10;w=2592000',
    });
    expect(parseRateLimit(headers)?.windows.map((window) => window.name)).toEqual(["burst", "minute", "gpu-hours"]);
  });

  it("ignores unknown parameters, including prototype names", () => {
    const headers = new Headers({ RateLimit: '"minute";r=1;pk=:AQI=:;constructor=5;t=2;x="y"' });
    expect(parseRateLimit(headers)).toEqual({ windows: [{ name: "minute", remaining: 1, resetSeconds: 2 }], problems: [] });
  });

  it("records an invalid header as a problem, keeps the other header, and does not throw", () => {
    const headers = new Headers({ RateLimit: '"minute";r=0;t=12,,', "RateLimit-Policy": '"minute";q=60;w=60' });
    const state = parseRateLimit(headers);
    expect(state?.windows).toEqual([{ name: "minute", quota: 60, windowSeconds: 60 }]);
    expect(state?.problems).toHaveLength(1);
    expect(state?.problems[0]).toMatch(/^RateLimit: /);
  });

  it("records non-integer and negative values and non-name members as problems", () => {
    const headers = new Headers({ RateLimit: '"minute";r=1.5;t=-1, 42;r=1, ("a");r=1' });
    const state = parseRateLimit(headers);
    expect(state?.windows).toEqual([{ name: "minute" }]);
    expect(state?.problems).toEqual([
      'RateLimit: "minute" parameter r is not a non-negative integer',
      'RateLimit: "minute" parameter t is not a non-negative integer',
      "RateLimit: a member is not a string or token window name",
      "RateLimit: a member is not a string or token window name",
    ]);
  });

  it("treats several header lines as one list", () => {
    const headers = new Headers();
    headers.append("RateLimit", '"minute";r=1;t=2');
    headers.append("RateLimit", '"hour";r=3;t=4');
    expect(parseRateLimit(headers)?.windows.map((window) => window.name)).toEqual(["minute", "hour"]);
  });
});

describe("parseRetryAfter", () => {
  const now = Date.UTC(2025, 0, 1, 12, 0, 0);

  it("reads delay-seconds as milliseconds", () => {
    expect(parseRetryAfter("12")).toBe(12_000);
    expect(parseRetryAfter(" 0 ")).toBe(0);
  });

  it("clamps negative values to 0", () => {
    expect(parseRetryAfter("-5")).toBe(0);
    expect(parseRetryAfter("Wed, 01 Jan 2025 11:59:00 GMT", now)).toBe(0);
  });

  it("reads the three HTTP-date forms as UTC", () => {
    expect(parseRetryAfter("Wed, 01 Jan 2025 12:00:30 GMT", now)).toBe(30_000);
    expect(parseRetryAfter("Wednesday, 01-Jan-25 12:01:00 GMT", now)).toBe(60_000);
    expect(parseRetryAfter("Wed Jan  1 12:00:05 2025", now)).toBe(5_000);
  });

  it("is undefined for a missing or unparseable value", () => {
    expect(parseRetryAfter(null)).toBeUndefined();
    expect(parseRetryAfter("")).toBeUndefined();
    expect(parseRetryAfter("soon")).toBeUndefined();
    expect(parseRetryAfter("1.5")).toBeUndefined();
    expect(parseRetryAfter("2025-01-01T12:00:30Z", now)).toBeUndefined();
    expect(parseRetryAfter("Wed, 01 Foo 2025 12:00:30 GMT", now)).toBeUndefined();
  });
});

describe("exhaustedWindowDelayMs", () => {
  it("is the longest reset among exhausted windows", () => {
    const state = parseRateLimit(new Headers({ RateLimit: '"minute";r=0;t=12, "hour";r=0;t=1812, "day";r=5;t=45012' }));
    expect(exhaustedWindowDelayMs(state)).toBe(1_812_000);
  });

  it("is 0 when nothing is exhausted, the reset is unknown, or there is no state", () => {
    const headers = new Headers({ RateLimit: RATE_LIMIT, "RateLimit-Policy": RATE_LIMIT_POLICY });
    expect(exhaustedWindowDelayMs(parseRateLimit(headers))).toBe(12_000);
    expect(exhaustedWindowDelayMs(parseRateLimit(new Headers({ RateLimit: '"minute";r=1;t=12' })))).toBe(0);
    expect(exhaustedWindowDelayMs(parseRateLimit(new Headers({ RateLimit: '"minute";r=0' })))).toBe(0);
    expect(exhaustedWindowDelayMs(undefined)).toBe(0);
  });
});

describe("requestedWaitMs", () => {
  const now = Date.UTC(2030, 0, 1, 12, 0, 0);
  const wait = (status: number, headers: Record<string, string>) => requestedWaitMs(status, new Headers(headers), now);

  it("is Retry-After on a 429 or a 503, in seconds or as an HTTP date", () => {
    expect(wait(429, { "Retry-After": "7" })).toBe(7_000);
    expect(wait(503, { "Retry-After": "Tue, 01 Jan 2030 12:00:30 GMT" })).toBe(30_000);
    expect(wait(503, { "Retry-After": "Tue, 01 Jan 2030 11:00:00 GMT" })).toBe(0);
  });

  it("is, on a 429 without Retry-After, the longest reset of a window used up", () => {
    expect(wait(429, { RateLimit: '"minute";r=0;t=12, "hour";r=0;t=1812, "day";r=5;t=45012' })).toBe(1_812_000);
    expect(wait(429, { RateLimit: '"minute";r=0;t=0' })).toBe(0);
    expect(wait(429, { "Retry-After": "soon", RateLimit: '"minute";r=0;t=12' })).toBe(12_000);
  });

  it("is undefined when nothing is asked: no window used up, no reset given, another status", () => {
    expect(wait(429, {})).toBeUndefined();
    expect(wait(429, { RateLimit: '"minute";r=1;t=12' })).toBeUndefined();
    expect(wait(429, { RateLimit: '"minute";r=0' })).toBeUndefined();
    expect(wait(429, { RateLimit: "not a list ((" })).toBeUndefined();
    expect(wait(503, { RateLimit: '"minute";r=0;t=12' })).toBeUndefined();
    expect(wait(502, { "Retry-After": "7" })).toBeUndefined();
    expect(wait(200, { "Retry-After": "7" })).toBeUndefined();
  });
});
