/**
 * The check every number option goes through, before anything is sent. NaN compares false with
 * everything, so it would silently mean no limit, no pause or no work; a negative, zero or
 * fractional count makes a loop spin or do nothing. Each is refused, naming the option.
 */
import { InvalidRequestError } from "./errors.js";

export interface NumberRule {
  /** What the number counts, for the message (`milliseconds`, `USD`); none for a bare factor. */
  unit?: string;
  /** The least value allowed… */
  min: number;
  /** …or the value it must be above. */
  above?: boolean;
  /** A whole number (a count). */
  integer?: boolean;
  /** `Infinity` allowed: no limit. */
  infinity?: boolean;
}

/** Throws an InvalidRequestError naming `field` unless `value` is undefined or a number `rule` allows. */
export function checkNumber(field: string, value: unknown, rule: NumberRule): void {
  if (value === undefined || allowed(value, rule)) return;
  const shown = typeof value === "number" ? String(value) : typeof value;
  throw new InvalidRequestError(`${field} must be ${describeRule(rule)}, not ${shown}`, { field });
}

function allowed(value: unknown, rule: NumberRule): boolean {
  if (typeof value !== "number" || Number.isNaN(value)) return false;
  if (rule.above ? !(value > rule.min) : !(value >= rule.min)) return false;
  if (!Number.isFinite(value)) return rule.infinity === true;
  return !rule.integer || Number.isInteger(value);
}

function describeRule(rule: NumberRule): string {
  const kind = `a ${rule.integer ? "whole " : ""}number${rule.unit === undefined ? "" : ` of ${rule.unit}`}`;
  const bound = rule.above ? `more than ${rule.min}` : `${rule.min} or more`;
  return `${kind}, ${bound}${rule.infinity ? " (Infinity allowed)" : ""}`;
}
