/**
 * Dates, for a package generated with `--dates date`: where the contract says `format: date-time`
 * or `format: date`, a success body's strings become `Date`s (after the body is checked as the
 * JSON text says) and a caller's `Date`s become the format's text (before the request is checked
 * and sent). Where those places are was worked out when the package was generated (a `DateNode`
 * per operation, in `src/dates.ts`): nothing here reads a schema.
 */
import { validDate, validDateTime } from "../formats.js";
import { escapeSegment } from "../json-pointer.js";
import type { DateConversion, OperationParams } from "../operation-spec.js";
import type { ValidationIssue } from "../validation.js";

export type DateFormat = "date-time" | "date";

/** Where dates are in a value: a format (the value is a date written so), or a shape (where they are below it). */
export type DatePlace = DateFormat | DateShape;

/** A place, or a function giving one: how a schema that holds itself refers to its own place. */
export type DateNode = DatePlace | (() => DatePlace);

export interface DateShape {
  /** The value is a date when it is a string (a union of a date and an object or array). */
  readonly date?: DateFormat | undefined;
  /** Object members by name. */
  readonly properties?: Readonly<Record<string, DateNode>> | undefined;
  /** Any other member (`additionalProperties`). */
  readonly additional?: DateNode | undefined;
  /** Array items by position (`prefixItems`); `0` where an item holds no date. */
  readonly prefix?: ReadonlyArray<DateNode | 0> | undefined;
  /** Every other array item (`items`). */
  readonly items?: DateNode | undefined;
  /** Nodes that apply as well (`allOf`, a `$ref`, a union whose branch is known). */
  readonly all?: readonly DateNode[] | undefined;
  /** A union told apart by a property (OpenAPI's `discriminator`): the node of the branch its value names. */
  readonly discriminator?: { readonly property: string; readonly cases: Readonly<Record<string, DateNode>> } | undefined;
  /**
   * A union's branches that hold dates, when which one a value matches is not known: a string
   * where one says date becomes a Date if it is one, and stays a string if not.
   */
  readonly loose?: readonly DateNode[] | undefined;
}

/**
 * An operation's conversion: `request` over its parameters (`{ path, query, header, cookie, body }`),
 * `responses` per success status (`200`, or a range such as `2XX`) over its JSON body.
 */
export function dateConversion(request: DateNode | undefined, responses: Readonly<Record<string, DateNode>> = {}): DateConversion {
  return {
    toText(params: OperationParams) {
      const issues: ValidationIssue[] = [];
      const converted = request === undefined ? params : (toText(request, params, "", issues) as OperationParams);
      return { params: converted, issues };
    },
    fromJson(status: number, data: unknown) {
      const code = String(status);
      const node = responses[code] ?? responses[`${code[0]}XX`];
      const issues: ValidationIssue[] = [];
      return { data: node === undefined ? data : fromJson(node, data, "", issues, false), issues };
    },
  };
}

/** The conversion of one JSON value (an event's data, say) whose dates `node` places. */
export function datesOf(node: DateNode): (value: unknown) => { data: unknown; issues: ValidationIssue[] } {
  return (value) => {
    const issues: ValidationIssue[] = [];
    return { data: fromJson(node, value, "", issues, false), issues };
  };
}

function formatOf(node: DatePlace): DateFormat | undefined {
  return typeof node === "string" ? node : node.date;
}

/** The node of the branch an object's discriminating property names, if any. */
function caseOf(node: DateShape, value: unknown): DateNode | undefined {
  const { discriminator } = node;
  if (discriminator === undefined || value === null || typeof value !== "object" || Array.isArray(value)) return undefined;
  const tag = Object.prototype.hasOwnProperty.call(value, discriminator.property) ? (value as Record<string, unknown>)[discriminator.property] : undefined;
  return typeof tag === "string" && Object.prototype.hasOwnProperty.call(discriminator.cases, tag) ? discriminator.cases[tag] : undefined;
}

function childOf(node: DateShape, key: string): DateNode | undefined {
  const { properties } = node;
  return properties !== undefined && Object.prototype.hasOwnProperty.call(properties, key) ? properties[key] : node.additional;
}

function itemOf(node: DateShape, index: number): DateNode | undefined {
  const positional = node.prefix?.[index];
  return positional === undefined ? node.items : positional === 0 ? undefined : positional;
}

/** Only arrays and plain objects (a parsed body's, a caller's literal) are walked: never a Blob, FormData or class instance. */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== "object") return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** `value` with each Date where `node` says as its format's text, in UTC; copies what it changes, so the caller's objects stay as they were. */
function toText(given: DateNode, value: unknown, path: string, issues: ValidationIssue[]): unknown {
  const node = typeof given === "function" ? given() : given;
  if (value instanceof Date) {
    const format = formatOf(node);
    if (format !== undefined) return dateText(format, value, path, issues);
  } else if (typeof node !== "string") {
    value = Array.isArray(value) ? itemsToText(node, value, path, issues) : isPlainObject(value) ? membersToText(node, value, path, issues) : value;
  }
  if (typeof node === "string") return value;
  const branch = caseOf(node, value);
  if (branch !== undefined) value = toText(branch, value, path, issues);
  for (const other of node.all ?? []) value = toText(other, value, path, issues);
  for (const other of node.loose ?? []) value = toText(other, value, path, issues);
  return value;
}

function dateText(format: DateFormat, value: Date, path: string, issues: ValidationIssue[]): Date | string {
  if (Number.isNaN(value.getTime())) {
    issues.push({ path, keyword: "format", message: `is an invalid Date, not a ${format}`, schemaPath: "" });
    return value;
  }
  const text = value.toISOString();
  return format === "date" ? text.slice(0, text.indexOf("T")) : text;
}

function itemsToText(node: DateShape, value: unknown[], path: string, issues: ValidationIssue[]): unknown[] {
  let copy: unknown[] | undefined;
  for (let index = 0; index < value.length; index++) {
    const child = itemOf(node, index);
    if (child === undefined) continue;
    const next = toText(child, value[index], `${path}/${index}`, issues);
    if (next !== value[index]) (copy ??= value.slice())[index] = next;
  }
  return copy ?? value;
}

function membersToText(node: DateShape, value: Record<string, unknown>, path: string, issues: ValidationIssue[]): Record<string, unknown> {
  let copy: Record<string, unknown> | undefined;
  for (const key of Object.keys(value)) {
    const child = childOf(node, key);
    if (child === undefined) continue;
    const next = toText(child, value[key], `${path}/${escapeSegment(key)}`, issues);
    // defineProperty: a member named `__proto__` stays a member.
    if (next !== value[key]) Object.defineProperty((copy ??= { ...value }), key, { value: next, enumerable: true, writable: true, configurable: true });
  }
  return copy ?? value;
}

/**
 * `value` (a parsed body, changed in place) with each string where `node` says as a Date. One
 * that is not its format's text is an issue and stays a string; under a `loose` union it only stays.
 */
function fromJson(given: DateNode, value: unknown, path: string, issues: ValidationIssue[], loose: boolean): unknown {
  const node = typeof given === "function" ? given() : given;
  if (typeof value === "string") {
    const format = formatOf(node);
    if (format !== undefined) {
      const date = parseDate(format, value);
      if (date !== undefined) return date;
      if (!loose) issues.push({ path, keyword: "format", message: `must be an RFC 3339 ${format}`, schemaPath: "" });
    }
  }
  if (typeof node === "string") return value;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      const child = itemOf(node, index);
      if (child !== undefined) value[index] = fromJson(child, value[index], `${path}/${index}`, issues, loose);
    }
  } else if (value !== null && typeof value === "object" && !(value instanceof Date)) {
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      const child = childOf(node, key);
      if (child !== undefined) record[key] = fromJson(child, record[key], `${path}/${escapeSegment(key)}`, issues, loose);
    }
  }
  const branch = caseOf(node, value);
  if (branch !== undefined) value = fromJson(branch, value, path, issues, loose);
  // A string too: the nodes that apply as well may say it is a date.
  for (const other of node.all ?? []) value = fromJson(other, value, path, issues, loose);
  for (const other of node.loose ?? []) value = fromJson(other, value, path, issues, true);
  return value;
}

/**
 * The instant an RFC 3339 text names (the checks the validators run, so both agree on what is a
 * date), or undefined. A `date` is its midnight UTC; a leap second (`23:59:60Z`) is the next
 * second, which is all a Date can hold; digits past milliseconds are dropped.
 */
export function parseDate(format: DateFormat, text: string): Date | undefined {
  if (format === "date" ? !validDate(text) : !validDateTime(text)) return undefined;
  const number = (from: number, to: number) => Number(text.slice(from, to));
  const date = new Date(0);
  // setUTCFullYear, not Date.UTC: that reads the years 0 to 99 as 1900 to 1999.
  date.setUTCFullYear(number(0, 4), number(5, 7) - 1, number(8, 10));
  if (format === "date") return date;
  let at = 19;
  let milliseconds = 0;
  if (text[at] === ".") {
    const start = ++at;
    while (at < text.length && text[at]! >= "0" && text[at]! <= "9") at++;
    milliseconds = Number(text.slice(start, Math.min(at, start + 3)).padEnd(3, "0"));
  }
  const zone = text[at]!;
  const offsetMinutes = zone === "Z" || zone === "z" ? 0 : (zone === "+" ? 1 : -1) * (number(at + 1, at + 3) * 60 + number(at + 4, at + 6));
  date.setUTCHours(number(11, 13), number(14, 16) - offsetMinutes, number(17, 19), milliseconds);
  return date;
}
