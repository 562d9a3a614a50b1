/**
 * RFC 9651 structured-field lists (the grammar of `RateLimit` and `RateLimit-Policy`): members
 * that are items or inner lists, with parameters, and every bare item type. Written here rather
 * than taken from a library so that a bundle carries only what a list needs; it passes every list
 * case of the HTTP WG structured-field tests (test/runtime/structured-field-conformance.test.ts).
 */

/** A structured-field bare item, as plain data. */
export type StructuredBareItem =
  | string
  | number
  | boolean
  | { type: "token"; value: string }
  | { type: "binary"; value: Uint8Array }
  /** Seconds since the Unix epoch, the unit RFC 9651 dates are defined in. */
  | { type: "date"; value: number }
  | { type: "displaystring"; value: string };

/** Parameters keep the order they appeared in (keys can never look like array indices). */
export type StructuredParams = Record<string, StructuredBareItem>;

export interface StructuredItem {
  value: StructuredBareItem;
  params: StructuredParams;
}

/** A list member: an item, or an inner list whose `value` is the array of its items. */
export interface StructuredListMember {
  value: StructuredBareItem | StructuredItem[];
  params: StructuredParams;
}

export type StructuredListResult = { ok: true; members: StructuredListMember[] } | { ok: false; reason: string };

/** Thrown inside the parser only; `parseStructuredList` turns it into a result. */
class ParseFailure extends Error {}

const DIGIT = /[0-9]/;
const ALPHA = /[A-Za-z]/;
const TOKEN_CHAR = /[!#$%&'*+\-.^_`|~0-9A-Za-z:/]/;
const KEY_CHAR = /[a-z0-9_\-.*]/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Parses an RFC 9651 list; never throws. */
export function parseStructuredList(value: string): StructuredListResult {
  try {
    // The field value is ASCII: anything else is not a structured field.
    if (/[^\x00-\x7f]/.test(value)) throw new ParseFailure("a non-ASCII character");
    return { ok: true, members: parseList(value.replace(/^ +/, "")) };
  } catch (error) {
    if (error instanceof ParseFailure) return { ok: false, reason: error.message };
    throw error;
  }
}

/**
 * RFC 9651 §4.2's algorithms over one field value, each consuming from `at`. Closures over one
 * cursor rather than a class: a minifier shortens their names, which are most of a parser's bytes.
 */
function parseList(input: string): StructuredListMember[] {
  let at = 0;
  const peek = (): string => input[at] ?? "";
  const done = (): boolean => at >= input.length;
  const fail = (what: string): never => {
    throw new ParseFailure(`not an RFC 9651 list: ${what} at character ${at}`);
  };
  const expect = (char: string, what: string): void => {
    if (peek() !== char) fail(`no ${what}`);
    at++;
  };
  /** Consumes characters while they match `allowed`; returns them. */
  const run = (allowed: RegExp): string => {
    const start = at;
    while (!done() && allowed.test(input[at]!)) at++;
    return input.slice(start, at);
  };

  const number = (): number => {
    const start = at;
    const sign = peek() === "-" ? -1 : 1;
    if (sign === -1) at++;
    if (!DIGIT.test(peek())) fail("a number without digits");
    const integer = run(DIGIT);
    if (peek() !== ".") {
      if (integer.length > 15) fail("an integer of more than 15 digits");
      return normalizeZero(sign * Number(integer));
    }
    at++;
    const fraction = run(DIGIT);
    if (integer.length > 12 || fraction.length === 0 || fraction.length > 3) fail(`a decimal out of its bounds (${input.slice(start, at)})`);
    return normalizeZero(sign * Number(`${integer}.${fraction}`));
  };

  const string = (): string => {
    at++;
    let output = "";
    while (!done()) {
      const char = input[at++]!;
      if (char === "\\") {
        const escaped = input[at++];
        if (escaped !== '"' && escaped !== "\\") fail("an escape other than \\\" or \\\\ in a string");
        output += escaped;
      } else if (char === '"') {
        return output;
      } else if (char < " " || char > "~") {
        fail("a control character in a string");
      } else {
        output += char;
      }
    }
    return fail("a string without its closing quote");
  };

  const bytes = (): Uint8Array => {
    at++;
    const end = input.indexOf(":", at);
    if (end === -1) fail("a byte sequence without its closing colon");
    const encoded = input.slice(at, end);
    at = end + 1;
    if (!BASE64.test(encoded)) fail("a byte sequence that is not base64");
    let decoded = "";
    try {
      decoded = atob(encoded.padEnd(Math.ceil(encoded.length / 4) * 4, "="));
    } catch {
      fail("a byte sequence that is not base64");
    }
    return Uint8Array.from(decoded, (char) => char.charCodeAt(0));
  };

  const displayString = (): string => {
    at++;
    expect('"', 'a display string\'s opening "');
    const octets: number[] = [];
    while (!done()) {
      const char = input[at++]!;
      if (char < " " || char > "~") fail("a control character in a display string");
      if (char === '"') {
        try {
          return new TextDecoder("utf-8", { fatal: true }).decode(new Uint8Array(octets));
        } catch {
          return fail("a display string that is not UTF-8");
        }
      }
      if (char !== "%") {
        octets.push(char.charCodeAt(0));
        continue;
      }
      const hex = input.slice(at, at + 2);
      if (!/^[0-9a-f]{2}$/.test(hex)) fail("a % not followed by two lowercase hex digits");
      octets.push(Number.parseInt(hex, 16));
      at += 2;
    }
    return fail("a display string without its closing quote");
  };

  const bareItem = (): StructuredBareItem => {
    const first = peek();
    if (first === "-" || DIGIT.test(first)) return number();
    if (first === '"') return string();
    if (first === "*" || ALPHA.test(first)) return { type: "token", value: input[at++]! + run(TOKEN_CHAR) };
    if (first === ":") return { type: "binary", value: bytes() };
    if (first === "?") {
      at++;
      const value = input[at++];
      return value === "1" || (value === "0" ? false : fail("a boolean other than ?0 or ?1"));
    }
    if (first === "@") {
      at++;
      const start = at;
      const value = number();
      if (input.slice(start, at).includes(".")) fail("a date that is not an integer");
      return { type: "date", value };
    }
    if (first === "%") return { type: "displaystring", value: displayString() };
    return fail(first === "" ? "a missing item" : `an item starting with ${JSON.stringify(first)}`);
  };

  const parameters = (): StructuredParams => {
    const params: StructuredParams = {};
    while (peek() === ";") {
      at++;
      run(/ /);
      if (peek() !== "*" && !/[a-z]/.test(peek())) fail("a key starting with neither a lowercase letter nor *");
      const key = run(KEY_CHAR);
      let value: StructuredBareItem = true;
      if (peek() === "=") {
        at++;
        value = bareItem();
      }
      // A repeated key keeps its first place, with the last value.
      params[key] = value;
    }
    return params;
  };

  const item = (): StructuredItem => ({ value: bareItem(), params: parameters() });

  const innerList = (): StructuredListMember => {
    at++;
    const items: StructuredItem[] = [];
    while (!done()) {
      run(/ /);
      if (peek() === ")") {
        at++;
        return { value: items, params: parameters() };
      }
      items.push(item());
      if (peek() !== " " && peek() !== ")") fail("a space or ) after an inner list's item");
    }
    return fail("an inner list without its )");
  };

  const members: StructuredListMember[] = [];
  while (!done()) {
    members.push(peek() === "(" ? innerList() : item());
    run(/[ \t]/);
    if (done()) return members;
    expect(",", "a comma between members");
    run(/[ \t]/);
    if (done()) fail("a trailing comma");
  }
  return members;
}

/** `-0` is not a distinct structured-field value. */
function normalizeZero(value: number): number {
  return value === 0 ? 0 : value;
}
