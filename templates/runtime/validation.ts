/**
 * Helpers of the generated validators (`validators.js`): issue records, the walk over an operation's
 * parameter table, deep equality, code-point length, the `format` checkers and `withDefaults`
 * copying; `escapeSegment` comes from json-pointer.ts.
 * Plain TypeScript importing nothing else and no `eval`, so it runs in browsers, workers and under
 * a strict Content-Security-Policy.
 *
 * Formats follow RFC 3339 (`date-time`, `date`), RFC 3986 (`uri`, `uri-reference`), RFC 4122 (`uuid`) and
 * RFC 5321 (`email`: dot-atom or quoted local part; host name, `[IPv4]` or `[IPv6:...]` domain).
 */
import { escapeSegment } from "./json-pointer.js";

export { escapeSegment };

/** One way a value breaks its schema. */
export interface ValidationIssue {
  /** JSON pointer into the validated value ("" is the value itself), e.g. `/pods/3/ports/0`. */
  path: string;
  /** The schema keyword that failed, e.g. `required`, `enum`, `pattern`. */
  keyword: string;
  /** What is wrong, for people: `must be one of 5, 10, 15`. */
  message: string;
  /** JSON pointer of the failing keyword in the contract, e.g. `/components/schemas/Pod/required`. */
  schemaPath: string;
}

/**
 * The input of a `withDefaults…` function: `T` with the properties that have a default optional.
 * Only the top-level properties are relaxed; nested defaults are filled in all the same.
 */
export type DefaultsInput<T, K extends PropertyKey> = T extends object
  ? Omit<T, K> & { [P in Extract<K, keyof T>]?: T[P] }
  : T;

/**
 * Appends an issue (kept out of line so the generated code stays small). The keyword's pointer
 * comes in two parts, the schema's place and the keyword's place below it: schemas written alike
 * in several places of a contract share their validator, which learns its place from the caller.
 */
export function addIssue(issues: ValidationIssue[], path: string, keyword: string, message: string, schemaAt: string, keywordAt: string): void {
  issues.push({ path, keyword, message, schemaPath: schemaAt + keywordAt });
}

/**
 * Replaces the issues recorded from index `start` on by one issue whose message lists theirs:
 * for keywords (like `propertyNames`) whose sub-issues would point at the wrong place.
 */
export function collapseIssues(
  issues: ValidationIssue[],
  start: number,
  path: string,
  keyword: string,
  prefix: string,
  schemaAt: string,
  keywordAt: string,
): void {
  const reasons: string[] = [];
  for (let i = start; i < issues.length; i++) reasons.push((issues[i] as ValidationIssue).message);
  issues.length = start;
  issues.push({ path, keyword, message: `${prefix}: ${reasons.join("; ")}`, schemaPath: schemaAt + keywordAt });
}

const hasOwnProperty = Object.prototype.hasOwnProperty;

/**
 * The branch of a discriminated `oneOf`/`anyOf` that `value` (an object's discriminator property)
 * selects, from the union's table: -1 for a value that is no string or is not in it.
 */
export function selectBranch(table: Record<string, number>, value: unknown): number {
  return typeof value === "string" && hasOwnProperty.call(table, value) ? (table[value] as number) : -1;
}

/** The issue of an object whose selected branch (`branch`, by its value of the discriminator `property`) failed. */
export function selectedBranchIssue(issues: ValidationIssue[], path: string, keyword: string, branch: string, property: string, value: string, schemaAt: string, keywordAt: string): void {
  issues.push({ path, keyword, message: `must match ${branch} (selected by ${property} ${JSON.stringify(value)})`, schemaPath: schemaAt + keywordAt });
}

/**
 * The issue of an object whose discriminator property (of a `oneOf` or `anyOf`) is missing or
 * holds a value that selects no branch: about the property, naming the values that select one
 * (`allowed`, already written out).
 */
export function discriminatorIssue(issues: ValidationIssue[], path: string, object: object, property: string, allowed: string, schemaAt: string, keywordAt: string): void {
  const value = own(object, property);
  const schemaPath = schemaAt + keywordAt;
  if (value === undefined) {
    issues.push({ path, keyword: "discriminator", message: `must have property ${JSON.stringify(property)} (the discriminator): ${allowed}`, schemaPath });
  } else {
    const shown = JSON.stringify(value);
    const text = shown.length > 60 ? `${shown.slice(0, 60)}...` : shown;
    issues.push({ path: `${path}/${escapeSegment(property)}`, keyword: "discriminator", message: `must be ${allowed} (the discriminator), not ${text}`, schemaPath });
  }
}

/**
 * The own property `key` of `object`, or undefined: for names such as `constructor` that
 * `Object.prototype` also has. Typed `any` like every value the generated code inspects.
 */
export function own(object: object, key: string): any {
  return hasOwnProperty.call(object, key) ? (object as Record<string, unknown>)[key] : undefined;
}

/** Sets an own data property, also for `__proto__` (where `o[k] = v` would change the prototype). */
export function setOwn(object: object, key: string, value: unknown): void {
  if (key === "__proto__") {
    Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
  } else {
    (object as Record<string, unknown>)[key] = value;
  }
}

/** A schema's boolean check, and its issue-collecting function told the schema's pointer. */
export type SchemaCheck = (value: any) => boolean;
export type SchemaCollect = (value: any, path: string, issues: ValidationIssue[], schemaAt: string) => void;

/** Every issue of `value` against a schema's functions (none when its check passes: valid values cost the check only). */
export function issuesOf(value: unknown, check: SchemaCheck, collect: SchemaCollect, schemaAt: string): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  if (!check(value)) collect(value, "", issues, schemaAt);
  return issues;
}

/**
 * One parameter (or the body) of an operation: its name, whether it is required, and its schema's
 * functions and pointer (null functions: any value is valid).
 */
export type ParameterRule = readonly [name: string, required: boolean, check: SchemaCheck | null, collect: SchemaCollect | null, schemaAt: string];
/** The parameters of one location (`path`, `query`, `header`, `cookie`) and whether the location is required. */
export type ParameterGroup = readonly [location: string, required: boolean, rules: readonly ParameterRule[]];
/**
 * The parameters of an operation's call, `{ path, query, header, cookie, body }`, as data: a large
 * contract has thousands of operations, and code per operation would be most of its validators.
 */
export type ParameterTable = readonly [groups: readonly ParameterGroup[], body: ParameterRule | null];

function isRecord(value: any): boolean {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Whether a call's parameters match their table (the fast path: stops at the first failure). */
export function checkParameters(value: any, table: ParameterTable): boolean {
  if (!isRecord(value)) return false;
  const groups = table[0];
  for (let g = 0; g < groups.length; g++) {
    const entry = groups[g] as ParameterGroup;
    const group = value[entry[0]];
    if (group === undefined) {
      if (entry[1]) return false;
      continue;
    }
    const rules = entry[2];
    if (!isRecord(group)) return false;
    for (let r = 0; r < rules.length; r++) {
      const rule = rules[r] as ParameterRule;
      const member = own(group, rule[0]);
      if (member === undefined ? rule[1] : rule[2] !== null && !rule[2](member)) return false;
    }
  }
  const body = table[1];
  if (body === null) return true;
  const member = value.body;
  return member === undefined ? !body[1] : body[2] === null || body[2](member);
}

/**
 * Every way a call's parameters break their table, as the schema `{ path: {...}, ..., body }` at
 * `schemaAt` would report it; each value's own issues point into its schema in the contract.
 */
export function collectParameters(value: any, path: string, issues: ValidationIssue[], schemaAt: string, table: ParameterTable): void {
  if (!isRecord(value)) {
    addIssue(issues, path, "type", "must be an object", schemaAt, "/type");
    return;
  }
  for (const [location, required, rules] of table[0]) {
    const group = value[location];
    const groupAt = `/properties/${location}`;
    if (group === undefined) {
      if (required) addIssue(issues, path, "required", `must have required property ${JSON.stringify(location)}`, schemaAt, "/required");
    } else if (!isRecord(group)) {
      addIssue(issues, `${path}/${location}`, "type", "must be an object", schemaAt, `${groupAt}/type`);
    } else {
      for (const rule of rules) collectMember(own(group, rule[0]), `${path}/${location}`, `${groupAt}/required`, rule, issues, schemaAt);
    }
  }
  if (table[1] !== null) collectMember(value.body, path, "/required", table[1], issues, schemaAt);
}

function collectMember(member: any, path: string, requiredAt: string, rule: ParameterRule, issues: ValidationIssue[], schemaAt: string): void {
  const [name, required, check, collect, at] = rule;
  if (member === undefined) {
    if (required) addIssue(issues, path, "required", `must have required property ${JSON.stringify(name)}`, schemaAt, requiredAt);
  } else if (check !== null && collect !== null && !check(member)) {
    collect(member, `${path}/${escapeSegment(name)}`, issues, at);
  }
}

/** Every issue of a call's parameters against their table. */
export function parameterIssues(value: unknown, table: ParameterTable, schemaAt: string): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  if (!checkParameters(value, table)) collectParameters(value, "", issues, schemaAt, table);
  return issues;
}

/** The schema `{ type: "string" }`: a parameter of a media type other than JSON is sent as it is. */
export function checkString(value: any): boolean {
  return typeof value === "string";
}

export function collectString(value: any, path: string, issues: ValidationIssue[], schemaAt: string): void {
  if (typeof value !== "string") addIssue(issues, path, "type", "must be a string", schemaAt, "/type");
}

/** Length in Unicode code points (what JSON Schema counts), like `[...s].length` without the array. */
export function ucs2length(text: string): number {
  const units = text.length;
  let length = 0;
  for (let i = 0; i < units; i++) {
    length++;
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < units) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
  }
  return length;
}

/** Number of enumerable property names (as `for…in` sees them). */
export function countProperties(object: object): number {
  let count = 0;
  for (const _ in object) count++;
  return count;
}

/** JSON equality: same type and value; objects with the same members in any order; 1 equals 1.0. */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  const aIsArray = Array.isArray(a);
  if (aIsArray !== Array.isArray(b)) return false;
  if (aIsArray) {
    const left = a as unknown[];
    const right = b as unknown[];
    if (left.length !== right.length) return false;
    for (let i = 0; i < left.length; i++) if (!deepEqual(left[i], right[i])) return false;
    return true;
  }
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  let count = 0;
  for (const key in left) {
    if (!hasOwnProperty.call(right, key) || !deepEqual(left[key], right[key])) return false;
    count++;
  }
  return count === countProperties(right);
}

/** The first pair of equal items `[i, j]` (i < j), or undefined when all items differ. */
export function duplicatePair(items: readonly unknown[]): [number, number] | undefined {
  const n = items.length;
  if (n < 2) return undefined;
  if (n <= 16) {
    for (let j = 1; j < n; j++) for (let i = 0; i < j; i++) if (deepEqual(items[i], items[j])) return [i, j];
    return undefined;
  }
  const primitives = new Map<unknown, number>();
  const composites = new Map<string, number>();
  for (let j = 0; j < n; j++) {
    const item = items[j];
    if (item !== null && typeof item === "object") {
      const key = canonicalJson(item);
      const i = composites.get(key);
      if (i !== undefined) return [i, j];
      composites.set(key, j);
    } else {
      const i = primitives.get(item);
      if (i !== undefined) return [i, j];
      primitives.set(item, j);
    }
  }
  return undefined;
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const object = value as Record<string, unknown>;
    const members: string[] = [];
    for (const key in object) members.push(key);
    members.sort();
    return `{${members.map((key) => `${JSON.stringify(key)}:${canonicalJson(object[key])}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]?\d+))?$/;

/**
 * Whether `value` is a whole multiple of `divisor` as decimal numbers (the way they are written
 * in JSON): 0.3 is a multiple of 0.1, although 0.3 / 0.1 is 2.9999999999999996 in binary.
 */
export function decimalMultiple(value: number, divisor: number): boolean {
  if (!Number.isFinite(value) || !Number.isFinite(divisor) || divisor <= 0) return false;
  // Exact in binary only below 2^53; 1e24 (a double that 7 divides, 10^24 that it does not) goes on.
  if (Number.isSafeInteger(value) && Number.isSafeInteger(divisor)) return value % divisor === 0;
  const quotient = value / divisor;
  // Binary rounding moves the quotient by a few parts in 10^16; farther from a whole number than
  // 10^-9 of itself, it is not a multiple and exact arithmetic is not needed.
  const magnitude = Math.abs(quotient);
  if (magnitude < 1e15 && Math.abs(quotient - Math.round(quotient)) > 1e-9 * Math.max(1, magnitude)) return false;
  const a = decimalParts(value);
  const b = decimalParts(divisor);
  if (a === undefined || b === undefined) return false;
  const scale = Math.max(a.scale, b.scale);
  const numerator = a.digits * 10n ** BigInt(scale - a.scale);
  const denominator = b.digits * 10n ** BigInt(scale - b.scale);
  return numerator % denominator === 0n;
}

/** `value` as digits × 10^-scale, from the shortest decimal text that reads back as `value`. */
function decimalParts(value: number): { digits: bigint; scale: number } | undefined {
  const match = DECIMAL.exec(String(value));
  if (match === null) return undefined;
  const fraction = match[3] ?? "";
  const exponent = Number(match[4] ?? "0");
  let digits = BigInt(`${match[2] ?? "0"}${fraction}`);
  let scale = fraction.length - exponent;
  if (scale < 0) {
    digits *= 10n ** BigInt(-scale);
    scale = 0;
  }
  return { digits: match[1] === "-" ? -digits : digits, scale };
}

/** A deep copy of JSON-like data (objects, arrays, primitives); `__proto__` members stay data. */
export function cloneJson<T>(value: T): T {
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) {
    const copy: unknown[] = new Array(value.length);
    for (let i = 0; i < value.length; i++) copy[i] = cloneJson(value[i]);
    return copy as T;
  }
  const copy: Record<string, unknown> = {};
  const source = value as Record<string, unknown>;
  for (const key of Object.keys(source)) setOwn(copy, key, cloneJson(source[key]));
  return copy as T;
}

/* ---------------------------------------------------------------- reporting */

/**
 * The issues as text, one per line: `/pods/3/ports/0: must match pattern "^[0-9]{1,5}/[a-z]+$"`.
 * The value itself is shown as `(root)`.
 */
export function formatIssues(issues: readonly ValidationIssue[]): string {
  if (issues.length === 0) return "no validation issues";
  const lines = issues.map((issue) => `  ${issue.path === "" ? "(root)" : issue.path}: ${issue.message}`);
  const heading = issues.length === 1 ? "1 validation issue:" : `${issues.length} validation issues:`;
  return [heading, ...lines].join("\n");
}
