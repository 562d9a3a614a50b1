/**
 * Patterns compiled to scans (generator/emit/validators/patterns.ts) must answer exactly as
 * `new RegExp(source, "u").test(s)` does, for every string: checked on the contract's patterns,
 * on hand-picked edge cases, and on patterns and strings drawn by fast-check.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parsePattern, patternScan } from "../../generator/emit/validators/patterns.ts";

/** The scan as a function (test harness only: the generated module declares it as code). */
function scanOf(source: string): ((s: string) => boolean) | undefined {
  const compiled = parsePattern(source);
  if (compiled === undefined) return undefined;
  return new Function("s", patternScan(compiled).join("\n")) as (s: string) => boolean;
}

function agrees(source: string, samples: readonly string[]): void {
  const scan = scanOf(source);
  if (scan === undefined) throw new Error(`${source} did not compile`);
  const regex = new RegExp(source, "u");
  for (const sample of samples) expect(scan(sample), `${source} on ${JSON.stringify(sample)}`).toBe(regex.test(sample));
}

describe("which patterns become scans", () => {
  it.each([
    "^[0-9]{1,5}/[a-z]+$",
    "^sync-",
    "^\\d{4}-\\d{2}-\\d{2}$",
    "^[A-Za-z_][A-Za-z0-9_]*$",
    "^[a-z-]+$",
    "^[-a]?b*$",
    "^a{2,}b{0,3}$",
    "^\\w+\\.\\w+$",
    "^\\/api\\/v[0-9]+$",
    "^[\\-\\]x]+$",
    "^$",
  ])("%s compiles", (source) => {
    expect(parsePattern(source)).toBeDefined();
  });

  it.each([
    ["[a-z]+", "not anchored at the start"],
    ["^", "matches everything: nothing to scan"],
    ["^[a-z0-9]+(?:-[a-z0-9]+)*$", "a group"],
    ["\\b(minute|hour|day)\\b", "word boundaries and alternation"],
    ["^a|b$", "alternation"],
    ["^[ab]*b$", "a run followed by one of its own characters: greedy would be wrong"],
    ["^a*a$", "the same"],
    ["^a?a$", "the same, with ?"],
    ["^[0-9]{1,5}[0-9]$", "a bounded run with an overlapping neighbour"],
    ["^a*b?a$", "overlap through an optional part"],
    ["^.+$", "any character"],
    ["^[^a]+$", "a negated class reaches beyond ASCII"],
    ["^\\s+$", "\\s holds Unicode spaces"],
    ["^é+$", "a non-ASCII literal"],
    ["^[a-z]+?$", "a lazy quantifier"],
    ["^(?=a)a$", "lookahead"],
    ["^a\\1$", "a back reference (not even valid with u)"],
    ["^\\u0041$", "a Unicode escape"],
    ["^[\\d-z]$", "a class escape as a range end"],
  ])("%s stays a RegExp (%s)", (source) => {
    expect(parsePattern(source)).toBeUndefined();
  });
});

describe("scans answer as RegExp does", () => {
  const edgeStrings = ["", "a", "8888/http", "22/tcp", "123456/tcp", "8888/", "/http", "8888/HTTP", "8888/http ", " 8888/http", "8888/http\n", "８/http", "8888/h😀", "\uD800", "😀", "a\u0000b"];

  it("on the contract's patterns and hand-picked strings", () => {
    agrees("^[0-9]{1,5}/[a-z]+$", edgeStrings);
    agrees("^sync-", ["sync-", "sync-abc", "sync", "Sync-1", "async-1", "", "sync😀-"]);
    agrees("^\\d{4}-\\d{2}$", ["2026-11", "2026-1", "20261-11", "2026-111", "２０２６-11", ""]);
    agrees("^$", ["", "a", "\n"]);
  });

  it("on patterns and strings drawn at random", () => {
    const alphabet = ["a", "b", "z", "0", "9", "-", "/", "_", ".", "A"];
    const atom = fc.oneof(
      fc.constantFrom(...alphabet.map((c) => (c === "." || c === "/" ? `\\${c}` : c))),
      fc.constantFrom("[a-b]", "[0-9]", "[ab]", "[a\\-z]", "[-_]", "[A-Za-z]", "\\d", "\\w", "[b]", "[./]"),
    );
    const quantifier = fc.constantFrom("", "", "?", "*", "+", "{2}", "{1,3}", "{0,2}", "{2,}");
    const pattern = fc
      .tuple(fc.array(fc.tuple(atom, quantifier), { maxLength: 5 }), fc.boolean())
      .map(([parts, end]) => `^${parts.map(([a, q]) => a + q).join("")}${end ? "$" : ""}`);
    const text = fc.array(fc.constantFrom(...alphabet, "é", "😀", "\uDC00", "\n", " "), { maxLength: 10 }).map((chars) => chars.join(""));
    let compiled = 0;
    fc.assert(
      fc.property(pattern, fc.array(text, { minLength: 20, maxLength: 20 }), (source, samples) => {
        const scan = scanOf(source);
        if (scan === undefined) return;
        compiled++;
        const regex = new RegExp(source, "u");
        // Strings built from the pattern's own pieces reach its accepting paths too.
        const pieces = source.replace(/[\^$\\[\]{}?*+]|\d,?\d?/g, "");
        for (const sample of [...samples, pieces, pieces + pieces, pieces.slice(1)]) {
          if (scan(sample) !== regex.test(sample)) throw new Error(`${source} on ${JSON.stringify(sample)}: scan ${scan(sample)}, RegExp ${regex.test(sample)}`);
        }
      }),
      { numRuns: 3_000, seed: 20_261_123 },
    );
    // Most drawn patterns are deterministic enough to compile: the property was really exercised.
    expect(compiled).toBeGreaterThan(1_000);
  });
});
