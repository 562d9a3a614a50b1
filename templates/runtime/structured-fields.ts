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
    return { ok: true, members: new Parser(value.replace(/^ +/, "")).list() };
  } catch (error) {
    if (error instanceof ParseFailure) return { ok: false, reason: error.message };
    throw error;
  }
}

/** RFC 9651 §4.2's algorithms over one field value, consumed from `at`. */
class Parser {
  private at = 0;

  constructor(private readonly input: string) {}

  list(): StructuredListMember[] {
    const members: StructuredListMember[] = [];
    while (!this.done()) {
      members.push(this.peek() === "(" ? this.innerList() : this.item());
      this.skip(/[ \t]/);
      if (this.done()) return members;
      this.expect(",", "a comma between members");
      this.skip(/[ \t]/);
      if (this.done()) this.fail("a trailing comma");
    }
    return members;
  }

  private innerList(): StructuredListMember {
    this.at++;
    const items: StructuredItem[] = [];
    while (!this.done()) {
      this.skip(/ /);
      if (this.peek() === ")") {
        this.at++;
        return { value: items, params: this.parameters() };
      }
      items.push(this.item());
      const next = this.peek();
      if (next !== " " && next !== ")") this.fail("a space or ) after an inner list's item");
    }
    return this.fail("an inner list without its )");
  }

  private item(): StructuredItem {
    return { value: this.bareItem(), params: this.parameters() };
  }

  private bareItem(): StructuredBareItem {
    const first = this.peek();
    if (first === "-" || DIGIT.test(first)) return this.number();
    if (first === '"') return this.string();
    if (first === "*" || ALPHA.test(first)) return { type: "token", value: this.token() };
    if (first === ":") return { type: "binary", value: this.bytes() };
    if (first === "?") return this.boolean();
    if (first === "@") return this.date();
    if (first === "%") return { type: "displaystring", value: this.displayString() };
    return this.fail(first === "" ? "a missing item" : `an item starting with ${JSON.stringify(first)}`);
  }

  private parameters(): StructuredParams {
    const params: StructuredParams = {};
    while (this.peek() === ";") {
      this.at++;
      this.skip(/ /);
      const key = this.key();
      let value: StructuredBareItem = true;
      if (this.peek() === "=") {
        this.at++;
        value = this.bareItem();
      }
      // A repeated key keeps its first place, with the last value.
      params[key] = value;
    }
    return params;
  }

  private key(): string {
    const first = this.peek();
    if (first !== "*" && !/[a-z]/.test(first)) this.fail("a key starting with neither a lowercase letter nor *");
    return this.run(KEY_CHAR);
  }

  private number(): number {
    const start = this.at;
    const sign = this.peek() === "-" ? -1 : 1;
    if (sign === -1) this.at++;
    if (!DIGIT.test(this.peek())) this.fail("a number without digits");
    const integer = this.run(DIGIT);
    if (this.peek() !== ".") {
      if (integer.length > 15) this.fail("an integer of more than 15 digits");
      return normalizeZero(sign * Number(integer));
    }
    this.at++;
    const fraction = this.run(DIGIT);
    if (integer.length > 12 || fraction.length === 0 || fraction.length > 3) this.fail(`a decimal out of its bounds (${this.input.slice(start, this.at)})`);
    return normalizeZero(sign * Number(`${integer}.${fraction}`));
  }

  private string(): string {
    this.at++;
    let output = "";
    while (!this.done()) {
      const char = this.input[this.at++]!;
      if (char === "\\") {
        const escaped = this.input[this.at++];
        if (escaped !== '"' && escaped !== "\\") this.fail("an escape other than \\\" or \\\\ in a string");
        output += escaped;
      } else if (char === '"') {
        return output;
      } else if (char < " " || char > "~") {
        this.fail("a control character in a string");
      } else {
        output += char;
      }
    }
    return this.fail("a string without its closing quote");
  }

  private token(): string {
    return this.input[this.at++]! + this.run(TOKEN_CHAR);
  }

  private bytes(): Uint8Array {
    this.at++;
    const end = this.input.indexOf(":", this.at);
    if (end === -1) this.fail("a byte sequence without its closing colon");
    const encoded = this.input.slice(this.at, end);
    this.at = end + 1;
    if (!BASE64.test(encoded)) this.fail("a byte sequence that is not base64");
    let decoded: string;
    try {
      decoded = atob(encoded.padEnd(Math.ceil(encoded.length / 4) * 4, "="));
    } catch {
      return this.fail("a byte sequence that is not base64");
    }
    return Uint8Array.from(decoded, (char) => char.charCodeAt(0));
  }

  private boolean(): boolean {
    this.at++;
    const value = this.input[this.at++];
    if (value === "1") return true;
    if (value === "0") return false;
    return this.fail("a boolean other than ?0 or ?1");
  }

  private date(): { type: "date"; value: number } {
    this.at++;
    const start = this.at;
    const value = this.number();
    if (this.input.slice(start, this.at).includes(".")) this.fail("a date that is not an integer");
    return { type: "date", value };
  }

  private displayString(): string {
    this.at++;
    this.expect('"', 'a display string\'s opening "');
    const bytes: number[] = [];
    while (!this.done()) {
      const char = this.input[this.at++]!;
      if (char < " " || char > "~") this.fail("a control character in a display string");
      if (char === '"') {
        try {
          return new TextDecoder("utf-8", { fatal: true }).decode(new Uint8Array(bytes));
        } catch {
          return this.fail("a display string that is not UTF-8");
        }
      }
      if (char !== "%") {
        bytes.push(char.charCodeAt(0));
        continue;
      }
      const hex = this.input.slice(this.at, this.at + 2);
      if (!/^[0-9a-f]{2}$/.test(hex)) this.fail("a % not followed by two lowercase hex digits");
      bytes.push(Number.parseInt(hex, 16));
      this.at += 2;
    }
    return this.fail("a display string without its closing quote");
  }

  private peek(): string {
    return this.input[this.at] ?? "";
  }

  private done(): boolean {
    return this.at >= this.input.length;
  }

  private expect(char: string, what: string): void {
    if (this.peek() !== char) this.fail(`no ${what}`);
    this.at++;
  }

  /** Consumes characters while they match `allowed`; returns them. */
  private run(allowed: RegExp): string {
    const start = this.at;
    while (!this.done() && allowed.test(this.input[this.at]!)) this.at++;
    return this.input.slice(start, this.at);
  }

  private skip(allowed: RegExp): void {
    this.run(allowed);
  }

  private fail(what: string): never {
    throw new ParseFailure(`not an RFC 9651 list: ${what} at character ${this.at}`);
  }
}

/** `-0` is not a distinct structured-field value. */
function normalizeZero(value: number): number {
  return value === 0 ? 0 : value;
}
