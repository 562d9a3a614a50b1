import { describe, expect, it } from "vitest";
import type { CorpusDocument } from "../../bench/corpus-documents.ts";
import { corpusReport, reasonGroup } from "../../bench/corpus-report.ts";
import type { ResultLine, ToolResult } from "../../bench/corpus-results.ts";

const MIB = 1024;
/** 130 documents, d129 the largest: the stable sample is d000, d060, d120 and d126–d129. */
const corpus: CorpusDocument[] = Array.from({ length: 130 }, (_, i) => ({ path: `d${String(i).padStart(3, "0")}.json`, sizeBytes: (i + 1) * 1000 }));

function tool(ms: number, rssMiB: number, check: Partial<NonNullable<ToolResult["typecheck"]>> = {}): ToolResult {
  return { accepted: true, ms, maxRssKiB: rssMiB * MIB, outputBytes: ms * 10, typecheck: { ok: true, diagnostics: 0, ms: ms / 2, maxRssKiB: rssMiB * MIB, heapLimitMiB: 4144, ...check } };
}

function refused(refusal: string): ToolResult {
  return { accepted: false, refusal, ms: 300, maxRssKiB: 90 * MIB };
}

function line(index: number, ours: ToolResult, ots: ToolResult): ResultLine {
  return { document: corpus[index]!.path, sizeBytes: corpus[index]!.sizeBytes, commit: "abc1234", date: "2026-11-28T12:00:00.000Z", machine: "Test CPU, 2 cores", jobs: 1, ours, ots };
}

const lines: ResultLine[] = [
  line(0, tool(1200, 200), tool(1000, 100)),
  line(5, tool(900, 100), tool(1000, 100)),
  line(60, tool(1100, 150), tool(1000, 100)),
  line(120, refused('#/paths/~1a/get: "x-foo" is not supported'), tool(1000, 100)),
  line(126, tool(1000, 120), tool(1000, 100)),
  line(127, tool(1000, 120, { ok: false, diagnostics: 3, firstDiagnostic: "src/validators.ts:12: Type 'A' is not assignable to type 'B'." }), tool(1000, 100)),
  line(128, refused('#/paths/~1b/get: "x-bar" is not supported'), tool(1000, 100)),
  line(129, tool(3000, 150, { ok: false, error: "heap exhausted (default heap, 4144 MiB)", ms: null, maxRssKiB: null }), tool(1000, 100)),
  { ...line(1, tool(1, 1), tool(1, 1)), document: "not-in-the-corpus.json" },
];

const everything = corpus.map((d) => d.path);

/** The cells of the table row whose first cell starts with `label`. */
function row(report: string, label: string): string[] {
  const found = report.split("\n").find((l) => l.startsWith(`| ${label}`));
  if (found === undefined) throw new Error(`no row ${label} in:\n${report}`);
  return found.slice(2, -2).split(" | ");
}

describe("corpusReport with lines of the quick mode", () => {
  // d005 measured in quick mode with in-process times far from a command's: counted, never compared.
  const quick: ResultLine = { ...line(5, tool(10, 0), tool(90_000, 0, { ok: false, diagnostics: 1, firstDiagnostic: "schema.ts:1: x" })), mode: "quick" };
  const report = corpusReport({ corpus, scope: everything, scopeLabel: "the corpus", lines: [...lines.filter((l) => !l.document.startsWith("d005")), quick] });

  it("counts their acceptance and type-checks", () => {
    expect(row(report, "openapi-typescript")).toEqual(["openapi-typescript", "8", "0", "0", "7", "1", "0"]);
    expect(report).toContain("Measured the full way: 7; in quick mode (acceptance and type-checks only): 1.");
  });

  it("leaves their figures out of the medians", () => {
    expect(row(report, "every document measured the full way")).toEqual(["every document measured the full way (7)", "5", "1100 ms", "1000 ms", "1.10×", "150.00 MiB", "100.00 MiB", "1.50×"]);
  });
});

describe("corpusReport", () => {
  const report = corpusReport({ corpus, scope: everything, scopeLabel: "the corpus", lines });

  it("says how much of the corpus the results cover, and which commit and heap measured them", () => {
    expect(report).toContain("**8 of 130 documents measured** (the corpus).");
    expect(report).toContain("Generator commits: abc1234 (8).");
    expect(report).toContain("Measured the full way: 8; in quick mode (acceptance and type-checks only): 0.");
    expect(report).toContain("default heap (4,144 MiB)");
    expect(report).not.toContain("not-in-the-corpus.json");
  });

  it("counts acceptance and strict type-checks for both tools", () => {
    // accepted, refused, crashes, type-checks, does not, of which heap or time
    expect(row(report, "this generator")).toEqual(["this generator", "6", "2", "0", "4", "2", "1"]);
    expect(row(report, "openapi-typescript")).toEqual(["openapi-typescript", "8", "0", "0", "8", "0", "0"]);
  });

  it("gives the medians on the stable sample, documents both accept, as a ratio of medians", () => {
    // Nearest-rank medians. Sample accepted by both: d000, d060, d126, d127, d129: times 1000 1000 1100 1200 3000, RSS 120 120 150 150 200 MiB.
    expect(row(report, "stable sample")).toEqual(["stable sample (every 60th and the 4 largest): 7 of 7 measured", "5", "1100 ms", "1000 ms", "1.10×", "150.00 MiB", "100.00 MiB", "1.50×"]);
    expect(row(report, "every document measured the full way")).toEqual(["every document measured the full way (8)", "6", "1000 ms", "1000 ms", "1.00×", "120.00 MiB", "100.00 MiB", "1.20×"]);
  });

  it("sets the largest documents side by side, measured ones only, largest first", () => {
    expect(report).toContain("### The 20 largest documents of the corpus (5 measured)");
    expect(row(report, "d129.json")).toEqual(["d129.json", "127.0 KiB", "3000 ms", "1000 ms", "3.00×", "150.00 MiB", "100.00 MiB", "1.50×"]);
    expect(row(report, "d128.json").slice(2, 5)).toEqual(["refused", "1000 ms", "–"]);
    const order = ["d129.json", "d128.json", "d127.json", "d126.json", "d120.json"].map((d) => report.indexOf(`| ${d} |`));
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });

  it("puts the package's size and type-check beside openapi-typescript's output for the ten largest", () => {
    const section = report.slice(report.indexOf("### The 10 largest (5 measured)"));
    const d127 = row(section, "d127.json");
    expect(d127.slice(1, 4)).toEqual(["9.8 KiB", "9.8 KiB", "1.00×"]);
    expect(d127.at(-1)).toBe("no: 3 diagnostics");
    const d129 = row(section, "d129.json");
    expect(d129[4]).toBe("heap exhausted");
    expect(d129.at(-1)).toBe("heap exhausted (default heap, 4144 MiB)");
  });

  it("groups the refusals of documents openapi-typescript accepts by reason, with an example", () => {
    expect(report).toContain("### Accepted by openapi-typescript, refused here (2)");
    expect(row(report, '"…" is not supported')).toEqual(['"…" is not supported', "2", "d120.json"]);
  });

  it("groups the outputs that do not type-check by their first diagnostic", () => {
    expect(report).toContain("### Outputs of this generator that do not type-check (2)");
    expect(row(report, "src/validators.ts: Type")).toEqual(["src/validators.ts: Type '…' is not assignable to type '…'.", "1", "d127.json"]);
    expect(row(report, "heap exhausted")).toEqual(["heap exhausted (default heap, 4144 MiB)", "1", "d129.json"]);
    expect(report).toContain("### Outputs of openapi-typescript that do not type-check (0)");
  });

  it("judges the goals: met, missed, and open while what they are judged on is unmeasured", () => {
    // Of the ten largest (d120–d129), d129 takes 3× and d120 and d128 are refused here: three over.
    const goals = report.slice(report.indexOf("### Goals"));
    expect(row(goals, "median time ≤ 1.3×").at(-1)).toBe("yes");
    expect(row(goals, "median peak RSS ≤ 1.3×").at(-1)).toBe("no");
    expect(row(goals, "time ≤ 2×")).toEqual(["time ≤ 2× openapi-typescript's on each of the 10 largest documents", "worst: none here, 3 over; 5 compared, 5 of 10 measured", "no"]);
    expect(row(goals, "the package's tsc time").at(-1)).toBe("no");
    expect(row(goals, "every document openapi-typescript accepts")).toEqual(["every document openapi-typescript accepts is accepted here", "2 of 8 refused here", "no"]);
    expect(row(goals, "every output of this generator")).toEqual(["every output of this generator type-checks under strict in the default heap", "2 of 6 do not", "no"]);

    // Two measured: nearest-rank medians of 1000 and 1200 ms, of 120 and 200 MiB, are the lower ones.
    const partial = corpusReport({ corpus, scope: everything, scopeLabel: "the corpus", lines: [lines[0]!, lines[4]!] });
    const partialGoals = partial.slice(partial.indexOf("### Goals"));
    expect(partial).toContain("**2 of 130 documents measured**");
    expect(row(partialGoals, "every document openapi-typescript accepts").at(-1)).toBe("open");
    expect(partial).toContain("### The 20 largest documents of the corpus (1 measured)");
    expect(row(partialGoals, "median time ≤ 1.3×")).toEqual(["median time ≤ 1.3× openapi-typescript's command (stable sample, ratio of medians)", "1.00× (2 documents accepted by both; 2 of 7 measured)", "open"]);
    expect(row(partialGoals, "peak RSS ≤ 2×")).toEqual(["peak RSS ≤ 2× openapi-typescript's on each of the 10 largest documents", "worst 1.20×, 0 over; 1 compared, 1 of 10 measured", "open"]);
  });

  it("reports only the documents in scope, against the scope's size", () => {
    const shard = corpusReport({ corpus, scope: ["d000.json", "d001.json", "d005.json"], scopeLabel: "shard 1/2", lines });
    expect(shard).toContain("**2 of 3 documents measured** (shard 1/2; the corpus has 130 OpenAPI 3.x documents).");
    expect(row(shard, "this generator").slice(1, 3)).toEqual(["2", "0"]);
  });

  it("says so when nothing is measured yet", () => {
    expect(corpusReport({ corpus, scope: everything, scopeLabel: "the corpus", lines: [] })).toContain("**0 of 130 documents measured**");
  });

  it("says yes to a goal over every document only when every document in scope is measured", () => {
    const clean = [lines[0]!, lines[1]!, lines[2]!];
    const whole = corpusReport({ corpus, scope: clean.map((l) => l.document), scopeLabel: "three", lines: clean });
    expect(row(whole.slice(whole.indexOf("### Goals")), "every document openapi-typescript accepts").at(-1)).toBe("yes");
    expect(whole).toContain("### Accepted by openapi-typescript, refused here (0): first line of the refusal, grouped\n\nNone.");
  });
});

describe("reasonGroup", () => {
  it("takes out pointers, quoted names and line numbers", () => {
    expect(reasonGroup('#/components/schemas/A: "$recursiveAnchor" (draft 2019-09) is not supported')).toBe('"…" (draft 2019-09) is not supported');
    expect(reasonGroup("src/client.ts:4410: Duplicate identifier 'x'.")).toBe("src/client.ts: Duplicate identifier '…'.");
    expect(reasonGroup("the $ref #/components/schemas/B is missing")).toBe("the $ref #/… is missing");
    expect(reasonGroup("#/paths/~1a?term={term}/get: path parameter {term} is in the path but not declared")).toBe("path parameter {…} is in the path but not declared");
  });
});
