/**
 * Rate-limit and retry hints carried by response headers.
 *
 * `RateLimit` and `RateLimit-Policy` are RFC 9651 structured-field lists, one
 * member per window (`"minute";r=0;t=12`); `Retry-After` is RFC 9110.
 */
import { parseStructuredList } from "./structured-fields.js";
import type { StructuredListMember } from "./structured-fields.js";

export { parseStructuredList } from "./structured-fields.js";
export type { StructuredBareItem, StructuredItem, StructuredListMember, StructuredListResult, StructuredParams } from "./structured-fields.js";

export interface RateLimitWindow {
  name: string;
  remaining?: number;
  resetSeconds?: number;
  quota?: number;
  windowSeconds?: number;
}

export interface RateLimitState {
  windows: RateLimitWindow[];
  /** set when a header was present but not valid RFC 9651 (or a known parameter was not a non-negative integer) */
  problems: string[];
}

type WindowField = Exclude<keyof RateLimitWindow, "name">;

/**
 * Which parameter of which header fills which window field. Maps, not object
 * literals, so that a parameter named e.g. "constructor" cannot hit a prototype.
 */
const RATE_LIMIT_HEADERS: ReadonlyArray<{ name: string; fields: ReadonlyMap<string, WindowField> }> = [
  { name: "RateLimit", fields: new Map([["r", "remaining"], ["t", "resetSeconds"]]) },
  { name: "RateLimit-Policy", fields: new Map([["q", "quota"], ["w", "windowSeconds"]]) },
];

/**
 * Reads `RateLimit` and `RateLimit-Policy`, merged per window name in order of
 * first appearance. Undefined when neither header is present; never throws.
 */
export function parseRateLimit(headers: Headers): RateLimitState | undefined {
  const values = RATE_LIMIT_HEADERS.map((header) => ({ ...header, value: headers.get(header.name) }));
  if (values.every(({ value }) => value === null)) return undefined;

  const state: RateLimitState = { windows: [], problems: [] };
  const windowsByName = new Map<string, RateLimitWindow>();
  const windowNamed = (name: string): RateLimitWindow => {
    let window = windowsByName.get(name);
    if (window === undefined) {
      window = { name };
      windowsByName.set(name, window);
      state.windows.push(window);
    }
    return window;
  };

  for (const { name: headerName, fields, value } of values) {
    if (value === null) continue;
    const parsed = parseStructuredList(value);
    if (!parsed.ok) {
      state.problems.push(`${headerName}: ${parsed.reason}`);
      continue;
    }
    for (const member of parsed.members) {
      const name = windowName(member.value);
      if (name === undefined) {
        state.problems.push(`${headerName}: a member is not a string or token window name`);
        continue;
      }
      const window = windowNamed(name);
      for (const [param, paramValue] of Object.entries(member.params)) {
        const field = fields.get(param);
        if (field === undefined) continue; // unknown parameters are extensions: ignore them
        if (typeof paramValue === "number" && Number.isInteger(paramValue) && paramValue >= 0) {
          window[field] = paramValue;
        } else {
          state.problems.push(`${headerName}: "${name}" parameter ${param} is not a non-negative integer`);
        }
      }
    }
  }
  return state;
}

function windowName(value: StructuredListMember["value"]): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "object" && !Array.isArray(value) && value.type === "token") return value.value;
  return undefined;
}

/**
 * Milliseconds to wait according to a `Retry-After` value (delay-seconds or an
 * HTTP-date); a time in the past gives 0, anything unparseable undefined.
 */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (/^-?\d+$/.test(trimmed)) return Math.max(0, Number(trimmed) * 1000);
  const date = parseHttpDate(trimmed, now);
  return date === undefined ? undefined : Math.max(0, date - now);
}

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
const IMF_FIXDATE = /^[a-z]{3}, (\d{2}) ([a-z]{3}) (\d{4}) (\d{2}):(\d{2}):(\d{2}) gmt$/i;
const RFC850_DATE = /^[a-z]+, (\d{2})-([a-z]{3})-(\d{2}) (\d{2}):(\d{2}):(\d{2}) gmt$/i;
const ASCTIME_DATE = /^[a-z]{3} ([a-z]{3}) ( \d|\d{2}) (\d{2}):(\d{2}):(\d{2}) (\d{4})$/i;

/**
 * The three HTTP-date forms RFC 9110 requires recipients to accept, parsed by
 * hand because `Date.parse` reads asctime dates as local time and accepts
 * many strings that are not dates at all.
 */
function parseHttpDate(value: string, now: number): number | undefined {
  let match = IMF_FIXDATE.exec(value);
  if (match) return utc(match[3], match[2], match[1], match[4], match[5], match[6]);
  match = RFC850_DATE.exec(value);
  if (match) return utc(fullYear(Number(match[3]), now), match[2], match[1], match[4], match[5], match[6]);
  match = ASCTIME_DATE.exec(value);
  if (match) return utc(match[6], match[1], match[2], match[3], match[4], match[5]);
  return undefined;
}

/** RFC 9110: a two-digit year more than 50 years in the future means the past century. */
function fullYear(twoDigitYear: number, now: number): number {
  const currentYear = new Date(now).getUTCFullYear();
  const year = Math.floor(currentYear / 100) * 100 + twoDigitYear;
  return year > currentYear + 50 ? year - 100 : year;
}

function utc(
  year: string | number | undefined,
  month: string | undefined,
  day: string | undefined,
  hour: string | undefined,
  minute: string | undefined,
  second: string | undefined,
): number | undefined {
  const monthIndex = MONTHS.indexOf((month ?? "").toLowerCase());
  if (monthIndex < 0) return undefined;
  const time = Date.UTC(Number(year), monthIndex, Number(day), Number(hour), Number(minute), Number(second));
  return Number.isNaN(time) ? undefined : time;
}

/**
 * When a window is used up (`remaining === 0`) the request cannot succeed
 * before it resets: the longest such reset in milliseconds, else 0.
 */
export function exhaustedWindowDelayMs(state: RateLimitState | undefined): number {
  return exhaustedWindowResetMs(state) ?? 0;
}

/** The longest reset, in milliseconds, of a window used up; undefined when no such window gives one. */
function exhaustedWindowResetMs(state: RateLimitState | undefined): number | undefined {
  let delayMs: number | undefined;
  for (const window of state?.windows ?? []) {
    if (window.remaining === 0 && window.resetSeconds !== undefined) {
      delayMs = Math.max(delayMs ?? 0, window.resetSeconds * 1000);
    }
  }
  return delayMs;
}

/**
 * How long a response asks the client to wait before asking again, in milliseconds: `Retry-After`
 * on a 429 or a 503 (where HTTP defines it); on a 429 without one, the reset of the `RateLimit`
 * window used up. Undefined when it asks nothing (or nothing readable).
 */
export function requestedWaitMs(status: number, headers: Headers, now: number = Date.now()): number | undefined {
  if (status !== 429 && status !== 503) return undefined;
  const retryAfterMs = parseRetryAfter(headers.get("retry-after"), now);
  if (retryAfterMs !== undefined || status !== 429) return retryAfterMs;
  return exhaustedWindowResetMs(parseRateLimit(headers));
}
