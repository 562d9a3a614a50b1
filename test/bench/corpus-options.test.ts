import path from "node:path";
import type { ResultLine } from "../../bench/corpus-results.ts";
import { describe, expect, it } from "vitest";
import { CorpusUsageError, DEFAULT_RESULTS, parseCorpusArgs, shardOf, toMeasure } from "../../bench/corpus-options.ts";

const documents = Array.from({ length: 23 }, (_, i) => `api/doc-${String(i).padStart(2, "0")}.json`).reverse();

describe("parseCorpusArgs", () => {
  it("defaults to the stable sample, one job, the results file in bench/", () => {
    expect(parseCorpusArgs([])).toMatchObject({ all: false, every: 60, largest: 4, jobs: 1, resume: false, rerunOlder: false, report: false, results: [DEFAULT_RESULTS], timeoutS: 180 });
    expect(DEFAULT_RESULTS.endsWith(path.join("bench", "corpus-results.jsonl"))).toBe(true);
  });

  it("reads every option", () => {
    const options = parseCorpusArgs(["--all", "--shard", "3/7", "--resume", "--rerun-older", "--rerun-failed", "--jobs", "2", "--quick", "--timeout", "60", "--results", "a.jsonl", "--results", "b.jsonl"]);
    expect(options).toMatchObject({ all: true, shard: { index: 3, count: 7 }, resume: true, rerunOlder: true, rerunFailed: true, jobs: 2, quick: true, timeoutS: 60 });
    expect(options.results).toEqual([path.resolve("a.jsonl"), path.resolve("b.jsonl")]);
    expect(parseCorpusArgs(["--report", "--write", "--results", "x.jsonl"])).toMatchObject({ report: true, write: true });
  });

  it.each([
    [["--shard", "0/3"], "--shard takes K/N"],
    [["--shard", "4/3"], "--shard takes K/N"],
    [["--shard", "2"], "--shard takes K/N"],
    [["--jobs", "0"], "--jobs takes a whole number of at least 1"],
    [["--largest", "-1"], "--largest takes a whole number of at least 0"],
    [["--every", "x"], "--every takes a whole number"],
    [["--results"], "--results takes a file name"],
    [["--rerun-older"], "--rerun-older goes with --resume"],
    [["--rerun-failed"], "--rerun-failed goes with --resume"],
    [["--rerun-unmet"], "--rerun-unmet goes with --resume"],
    [["--write"], "--write goes with --report"],
    [["--report", "--shard", "1/2"], "--report measures nothing"],
    [["--report", "--quick"], "--report measures nothing: --quick"],
    [["--all", "--every", "10"], "--all takes every document"],
    [["--al"], 'unknown option "--al"'],
  ])("refuses %j with a one-line reason", (argv, reason) => {
    let thrown: unknown;
    try {
      parseCorpusArgs(argv);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(CorpusUsageError);
    expect((thrown as Error).message).toContain(reason);
    expect((thrown as Error).message).not.toContain("\n");
  });
});

describe("shardOf", () => {
  it.each([1, 2, 3, 5, 23, 30])("cuts the documents into %i disjoint slices that together hold every one", (count) => {
    const slices = Array.from({ length: count }, (_, k) => shardOf(documents, { index: k + 1, count }));
    const all = slices.flat();
    expect(all).toHaveLength(documents.length);
    expect(new Set(all).size).toBe(documents.length);
    expect([...all].sort()).toEqual([...documents].sort());
    // Sizes differ by at most one: no sitting gets a much longer slice.
    const sizes = slices.map((s) => s.length);
    expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
  });

  it("takes index % N === K-1 of the documents sorted by path, whatever order they come in", () => {
    const sorted = [...documents].sort();
    expect(shardOf(documents, { index: 2, count: 5 })).toEqual([sorted[1], sorted[6], sorted[11], sorted[16], sorted[21]]);
    expect(shardOf([...documents].reverse(), { index: 2, count: 5 })).toEqual(shardOf(documents, { index: 2, count: 5 }));
    expect(shardOf(documents, undefined)).toEqual(sorted);
  });
});

describe("toMeasure", () => {
  const fine = { accepted: true, ms: 1, maxRssKiB: 1, typecheck: { ok: true, ms: 1, maxRssKiB: 1 } };
  const recorded = new Map([
    ["api/doc-01.json", { commit: "aaaaaaa", ours: fine, ots: fine }],
    ["api/doc-02.json", { commit: "bbbbbbb", ours: fine, ots: fine }],
    ["api/doc-03.json", { commit: "aaaaaaa", ours: { ...fine, typecheck: { ok: false, error: "timed out after 180 s", ms: null, maxRssKiB: null } }, ots: fine }],
    ["api/doc-04.json", { commit: "aaaaaaa", ours: { ...fine, typecheck: { ok: false, error: "heap exhausted (default heap, 4144 MiB)", ms: null, maxRssKiB: null } }, ots: fine }],
    ["api/doc-05.json", { commit: "aaaaaaa", ours: fine, ots: { accepted: false, refusal: "crashed (SIGKILL): ", ms: null, maxRssKiB: null } }],
  ]);
  const chosen = ["api/doc-00.json", "api/doc-01.json", "api/doc-02.json", "api/doc-03.json", "api/doc-04.json", "api/doc-05.json", "api/doc-06.json"];

  it("measures every chosen document without --resume", () => {
    expect(toMeasure(chosen, recorded, { resume: false, rerunOlder: false, rerunFailed: false }, "aaaaaaa")).toEqual({ todo: chosen, skipped: 0 });
  });

  it("with --resume skips the documents already recorded, whatever commit measured them", () => {
    expect(toMeasure(chosen, recorded, { resume: true, rerunOlder: false, rerunFailed: false }, "aaaaaaa")).toEqual({ todo: ["api/doc-00.json", "api/doc-06.json"], skipped: 5 });
  });

  it("with --rerun-older measures again those another commit recorded", () => {
    expect(toMeasure(chosen, recorded, { resume: true, rerunOlder: true, rerunFailed: false }, "aaaaaaa")).toEqual({ todo: ["api/doc-00.json", "api/doc-02.json", "api/doc-06.json"], skipped: 4 });
  });

  it("with --rerun-failed measures again those with a step that timed out or crashed, not those out of heap", () => {
    expect(toMeasure(chosen, recorded, { resume: true, rerunOlder: false, rerunFailed: true }, "aaaaaaa").todo).toEqual(["api/doc-00.json", "api/doc-03.json", "api/doc-05.json", "api/doc-06.json"]);
  });

  it("with --rerun-unmet measures again those refused here or whose package does not type-check, out of heap included", () => {
    const refused = new Map<string, Pick<ResultLine, "commit" | "ours" | "ots">>([...recorded, ["api/doc-06.json", { commit: "aaaaaaa", ours: { accepted: false, refusal: "#/x: no", ms: 1, maxRssKiB: 1 }, ots: fine }]]);
    expect(toMeasure(chosen, refused, { resume: true, rerunOlder: false, rerunFailed: false, rerunUnmet: true }, "aaaaaaa").todo).toEqual(["api/doc-00.json", "api/doc-03.json", "api/doc-04.json", "api/doc-06.json"]);
  });
});
