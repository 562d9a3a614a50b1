/**
 * `pattern` (and `patternProperties`) without a regular expression, where that is exact and faster:
 * a regular expression costs a fixed ~15 ns per call in V8 before it reads a character, which is
 * most of the time for the short strings contracts constrain (`8888/http`, `en-US`, ids).
 *
 * Compiled: a pattern anchored at the start, optionally at the end, made of a sequence of ASCII
 * literals and ASCII character classes (`[a-z0-9_]`, `\d`, `\w`), each with an optional quantifier
 * (`?`, `*`, `+`, `{n}`, `{n,}`, `{n,m}`), where every part whose length may vary is followed by
 * parts that cannot start with one of its characters. Then a greedy left-to-right scan is exactly
 * what backtracking would find, so the scan never backtracks. Anything else (groups, alternation,
 * lookaround, Unicode classes, an unanchored pattern, overlapping neighbours) stays a `RegExp`.
 *
 * The result is exact for every string, astral characters included: no compiled class holds a
 * non-ASCII character, and neither half of a surrogate pair is ASCII (test/validators/patterns.test.ts
 * checks the scans against `new RegExp(source, "u")`).
 */

/** A set of ASCII characters, by code. */
type CharSet = boolean[];

interface Part {
  set: CharSet;
  min: number;
  /** Infinity when unbounded. */
  max: number;
}

export interface CompiledPattern {
  parts: Part[];
  /** Whether the pattern ends with `$`: the scan must then reach the end of the string. */
  anchoredAtEnd: boolean;
}

const ASCII = 128;
const emptySet = (): CharSet => new Array<boolean>(ASCII).fill(false);
const range = (set: CharSet, from: number, to: number): CharSet => {
  for (let c = from; c <= to; c++) set[c] = true;
  return set;
};
const DIGITS = (): CharSet => range(emptySet(), 48, 57);
const WORD = (): CharSet => range(range(range(range(emptySet(), 48, 57), 65, 90), 97, 122), 95, 95);

/** Characters that must be escaped to stand for themselves outside a class. */
const SYNTAX = new Set("^$\\.*+?()[]{}|");
/** What may follow a backslash to stand for itself (u flag): the syntax characters and "/". */
const IDENTITY_ESCAPES = new Set([...SYNTAX, "/"]);
/** Control escapes: `\t` and the like. */
const CONTROL: Record<string, number> = { t: 9, n: 10, v: 11, f: 12, r: 13 };

/** Parses the subset; undefined for anything outside it. `source` is a valid u-flag pattern. */
export function parsePattern(source: string): CompiledPattern | undefined {
  if (!source.startsWith("^")) return undefined;
  return new PatternParser(source).parse();
}

/** A character set with its quantifier's bounds. */
type Bounds = Pick<Part, "min" | "max">;

/** Reads the pattern after its leading "^", left to right; each step undefined outside the subset. */
class PatternParser {
  private at = 1;

  constructor(private readonly source: string) {}

  parse(): CompiledPattern | undefined {
    const { source } = this;
    const parts: Part[] = [];
    let anchoredAtEnd = false;
    while (this.at < source.length) {
      if (source[this.at] === "$") {
        if (this.at !== source.length - 1) return undefined;
        anchoredAtEnd = true;
        this.at++;
        break;
      }
      const set = this.atom();
      if (set === undefined) return undefined;
      const bounds = this.quantifier();
      if (bounds === undefined) return undefined;
      parts.push({ set, ...bounds });
    }
    if (this.at !== source.length) return undefined;
    // "^" alone matches everything: nothing to scan for, and a RegExp says so as fast.
    if (parts.length === 0 && !anchoredAtEnd) return undefined;
    return deterministic(parts) ? { parts, anchoredAtEnd } : undefined;
  }

  /** A class, an escape or a plain ASCII character. */
  private atom(): CharSet | undefined {
    const char = this.source[this.at] as string;
    if (char === "[") return this.charClass();
    if (char === "\\") return this.escape(false);
    if (SYNTAX.has(char) || char.charCodeAt(0) >= ASCII || char.charCodeAt(0) < 32) return undefined;
    this.at++;
    return range(emptySet(), char.charCodeAt(0), char.charCodeAt(0));
  }

  /** One character of a class or a literal escape, as a set. */
  private escape(inClass: boolean): CharSet | undefined {
    const next = this.source[this.at + 1];
    if (next === undefined) return undefined;
    this.at += 2;
    if (next === "d") return DIGITS();
    if (next === "w") return WORD();
    if (next in CONTROL) return range(emptySet(), CONTROL[next] as number, CONTROL[next] as number);
    // Identity escapes of syntax characters ("-" only inside a class).
    if (IDENTITY_ESCAPES.has(next) || (inClass && next === "-")) return range(emptySet(), next.charCodeAt(0), next.charCodeAt(0));
    return undefined;
  }

  private charClass(): CharSet | undefined {
    const { source } = this;
    this.at++; // "["
    if (source[this.at] === "^") return undefined;
    const set = emptySet();
    let first = true;
    while (this.at < source.length && (source[this.at] !== "]" || first)) {
      if (source[this.at] === "]") return undefined; // "[]" matches nothing: leave it to RegExp
      first = false;
      const low = this.member();
      if (low === undefined) return undefined;
      if (source[this.at] === "-" && source[this.at + 1] !== "]" && this.at + 1 < source.length) {
        this.at++;
        const high = this.member();
        const from = single(low);
        const to = high === undefined ? undefined : single(high);
        if (from === undefined || to === undefined || from > to) return undefined;
        range(set, from, to);
      } else {
        for (let c = 0; c < ASCII; c++) if (low[c]) set[c] = true;
      }
    }
    if (source[this.at] !== "]") return undefined;
    this.at++;
    return set;
  }

  /** One member of a class: a character or an escape. */
  private member(): CharSet | undefined {
    const char = this.source[this.at];
    if (char === undefined) return undefined;
    if (char === "\\") return this.escape(true);
    const code = char.charCodeAt(0);
    if (code >= ASCII || code < 32) return undefined;
    this.at++;
    return range(emptySet(), code, code);
  }

  /** The bounds of the quantifier here (exactly once without one). */
  private quantifier(): Bounds | undefined {
    const { source } = this;
    const char = source[this.at];
    let bounds: Bounds;
    if (char === "?") bounds = { min: 0, max: 1 };
    else if (char === "*") bounds = { min: 0, max: Infinity };
    else if (char === "+") bounds = { min: 1, max: Infinity };
    else if (char === "{") {
      const match = /^\{(\d{1,4})(,(\d{1,4})?)?\}/.exec(source.slice(this.at));
      if (match === null) return undefined;
      const min = Number(match[1]);
      const max = match[2] === undefined ? min : match[3] === undefined ? Infinity : Number(match[3]);
      if (max < min) return undefined;
      this.at += match[0].length - 1;
      bounds = { min, max };
    } else {
      return { min: 1, max: 1 };
    }
    this.at++;
    // A lazy quantifier: the same language, but keep the subset small.
    if (source[this.at] === "?") return undefined;
    return bounds;
  }
}

/** The one character of a single-character set, for ranges. */
function single(set: CharSet): number | undefined {
  const members = set.flatMap((inSet, code) => (inSet ? [code] : []));
  return members.length === 1 ? members[0] : undefined;
}

/**
 * Whether a greedy scan finds every match: each part whose length may vary must not share a
 * character with what can come right after it (the following parts up to the first required one).
 */
function deterministic(parts: readonly Part[]): boolean {
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i] as Part;
    if (part.min === part.max) continue;
    for (let j = i + 1; j < parts.length; j++) {
      const next = parts[j] as Part;
      if (part.set.some((inSet, code) => inSet && next.set[code])) return false;
      if (next.min > 0) break;
    }
  }
  return true;
}

/**
 * The condition that the character code at `i` is in `set`, as JavaScript: the code is read once,
 * into `c` when the condition looks at it more than once (`usesC` says whether it did).
 */
function membership(set: CharSet): { condition: string; usesC: boolean } {
  const ranges: [number, number][] = [];
  for (let code = 0; code < ASCII; code++) {
    if (!set[code]) continue;
    const last = ranges[ranges.length - 1];
    if (last !== undefined && last[1] === code - 1) last[1] = code;
    else ranges.push([code, code]);
  }
  if (ranges.length === 0) return { condition: "false", usesC: false };
  const [from, to] = ranges[0] as [number, number];
  if (ranges.length === 1 && from === to) return { condition: `s.charCodeAt(i) === ${from}`, usesC: false };
  // The first comparison always runs: it reads the code into `c` for the others.
  let first = true;
  const c = (): string => {
    if (!first) return "c";
    first = false;
    return "(c = s.charCodeAt(i))";
  };
  const condition = ranges.map(([low, high]) => (low === high ? `${c()} === ${low}` : `(${c()} >= ${low} && c <= ${high})`)).join(" || ");
  return { condition, usesC: true };
}

/** The body of `function name(s: string): boolean`, one scan over the string. */
export function patternScan(pattern: CompiledPattern): string[] {
  if (pattern.parts.length === 0) return ["return s.length === 0;"];
  const body: string[] = [];
  const locals = new Set<string>();
  for (const { set, min, max } of pattern.parts) {
    const { condition, usesC } = membership(set);
    if (usesC) locals.add("c");
    if (min === 1 && max === 1) {
      body.push(`if (i >= n || !(${condition})) return false;`, "i++;");
      continue;
    }
    // A run: at most `max` characters of the set, at least `min`.
    if (min > 0) {
      locals.add("start");
      body.push("start = i;");
    }
    let limit = "n";
    if (max !== Infinity) {
      locals.add("end");
      body.push(`end = i + ${max} < n ? i + ${max} : n;`);
      limit = "end";
    }
    body.push(`while (i < ${limit} && (${condition})) i++;`);
    if (min > 0) body.push(`if (i - start < ${min}) return false;`);
  }
  body.push(pattern.anchoredAtEnd ? "return i === n;" : "return true;");
  return ["const n = s.length;", "let i = 0;", ...["start", "end", "c"].filter((name) => locals.has(name)).map((name) => `let ${name} = 0;`), ...body];
}
