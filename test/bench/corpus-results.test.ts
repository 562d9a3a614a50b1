import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { toMeasure } from "../../bench/corpus-options.ts";
import { appendResult, endPartialLine, latestByDocument, readResultLines, type ResultLine } from "../../bench/corpus-results.ts";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function scratchFile(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "corpus-results-"));
  dirs.push(dir);
  return path.join(dir, "results.jsonl");
}

function line(document: string, commit: string, accepted = true, date = "2026-11-28T00:00:00.000Z"): ResultLine {
  const tool = { accepted, ms: 10, maxRssKiB: 1000, ...(accepted ? {} : { refusal: "no" }) };
  return { document, sizeBytes: 1, commit, date, machine: "test", jobs: 1, ours: tool, ots: { ...tool, accepted: true } };
}

describe("the results file", () => {
  it("holds one line per document appended, read back in order; a file not written yet holds none", () => {
    const file = scratchFile();
    expect(readResultLines([file])).toEqual({ lines: [], skipped: 0 });
    appendResult(file, line("a.json", "c1"));
    appendResult(file, line("b.json", "c1"));
    expect(fs.readFileSync(file, "utf8").split("\n")).toHaveLength(3);
    expect(readResultLines([file]).lines.map((l) => l.document)).toEqual(["a.json", "b.json"]);
  });

  it("leaves out the line a killed run was writing, and starts the next line on its own", () => {
    const file = scratchFile();
    appendResult(file, line("a.json", "c1"));
    fs.appendFileSync(file, '{"document":"b.json","sizeB');
    endPartialLine(file);
    appendResult(file, line("c.json", "c1"));
    const { lines, skipped } = readResultLines([file]);
    expect(lines.map((l) => l.document)).toEqual(["a.json", "c.json"]);
    expect(skipped).toBe(1);
  });

  it("counts a document measured again as last measured, across several files", () => {
    const [first, second] = [scratchFile(), scratchFile()];
    appendResult(first, line("a.json", "c1", false));
    appendResult(first, line("b.json", "c1"));
    appendResult(second, line("a.json", "c2"));
    const latest = latestByDocument(readResultLines([first, second]).lines);
    expect([...latest.keys()]).toEqual(["a.json", "b.json"]);
    expect(latest.get("a.json")).toMatchObject({ commit: "c2", ours: { accepted: true } });
  });

  it("counts the latest measurement by date when a later file holds the older one (new lines go to the first file)", () => {
    const [first, second] = [scratchFile(), scratchFile()];
    appendResult(second, line("a.json", "old", false, "2026-11-27T10:00:00.000Z"));
    appendResult(first, line("a.json", "new", true, "2026-11-28T10:00:00.000Z"));
    expect(latestByDocument(readResultLines([first, second]).lines).get("a.json")).toMatchObject({ commit: "new" });
  });

  it("lets --resume skip every document the file holds and measure the rest", () => {
    const file = scratchFile();
    appendResult(file, line("a.json", "old"));
    appendResult(file, line("c.json", "new"));
    const recorded = latestByDocument(readResultLines([file]).lines);
    expect(toMeasure(["a.json", "b.json", "c.json"], recorded, { resume: true, rerunOlder: false, rerunFailed: false }, "new").todo).toEqual(["b.json"]);
    expect(toMeasure(["a.json", "b.json", "c.json"], recorded, { resume: true, rerunOlder: true, rerunFailed: false }, "new").todo).toEqual(["a.json", "b.json"]);
  });
});
