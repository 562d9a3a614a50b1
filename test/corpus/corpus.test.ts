/**
 * The generator on real documents no one here wrote (test/corpus/sample.ts, read in place from
 * devDependencies): each is generated, its package type-checked under strict (all packages in one
 * program), imported and its client constructed, and the document's own examples judged by the
 * package's validators beside ajv. A crash, a compile error, a client that cannot be built, a
 * disagreement with ajv, or a refusal not listed in EXPECTED_REFUSALS (or one listed that no longer
 * happens) fails. Examples that break their own schema (both say so) are the document's fault:
 * counted, not failed. Prints one table row per document.
 */
import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../support/prism.ts";
import { checkDocument, type DocumentResult } from "./check-document.ts";
import { EXPECTED_REFUSALS, EXPECTED_TYPE_ERRORS } from "./expected-refusals.ts";
import { SAMPLE } from "./sample.ts";
import { typeCheckPackages } from "./typecheck.ts";

// Inside the repository so the generated packages resolve openapi-fetch from its node_modules.
const outRoot = path.join(repoRoot, ".tmp/corpus");
const BASE_URL = "http://127.0.0.1:9";

const results = new Map<string, DocumentResult>();
const diagnostics = new Map<string, string[]>();

function folderOf(document: string): string {
  return path.join(outRoot, document.replace(/[^A-Za-z0-9.-]+/g, "_"));
}

function row(result: DocumentResult): string[] {
  const e = result.examples;
  const outcome = result.outcome === "generated" ? "generated" : `${result.outcome}: ${result.reason}`;
  const types = result.outDir ? String(diagnostics.get(result.outDir)?.length ?? "–") : "–";
  const examples = result.outcome === "generated" ? `${e.checked} / ${e.agreed} / ${e.invalid}${e.formatDifferences ? ` (+${e.formatDifferences} format)` : ""}` : "–";
  return [result.document, result.openapi, outcome.length > 150 ? `${outcome.slice(0, 147)}…` : outcome, types, examples, `${(result.ms / 1000).toFixed(1)} s`];
}

function printTable(): void {
  const all = [...results.values()];
  const count = (outcome: DocumentResult["outcome"]) => all.filter((r) => r.outcome === outcome).length;
  const sum = (key: "checked" | "agreed" | "invalid" | "formatDifferences") => all.reduce((n, r) => n + r.examples[key], 0);
  const lines = [
    "| document | openapi | result | diagnostics | examples checked / agreed / invalid in the document |",
    "|---|---|---|---:|---:|",
    ...all.map((r) => `| ${row(r).slice(0, 5).join(" | ")} |`),
    "",
    `corpus: ${all.length} documents: ${count("generated")} generated, ${count("refused")} refused, ${count("crashed")} crashed; ` +
      `examples: ${sum("checked")} checked, ${sum("agreed")} agreed with ajv (${sum("invalid")} of them invalid against the document's own schema), ${sum("formatDifferences")} known format differences`,
  ];
  console.log(lines.join("\n"));
}

describe("the corpus of real documents", () => {
  beforeAll(async () => {
    fs.rmSync(outRoot, { recursive: true, force: true });
    for (const { path: document } of SAMPLE) {
      const file = path.join(repoRoot, "node_modules", document);
      results.set(document, await checkDocument(document, file, folderOf(document), ({ servers, credentials }) => ({ ...Object.fromEntries(credentials.map((name) => [name, `corpus-${name}`])), ...Object.fromEntries(servers.map((key) => [key, BASE_URL])) })));
    }
    const dirs = [...results.values()].flatMap((r) => (r.outDir ? [r.outDir] : []));
    for (const [dir, found] of typeCheckPackages(dirs)) diagnostics.set(dir, found);
    printTable();
  }, 900_000);

  it("samples at least 40 documents, each once, each present", () => {
    expect(SAMPLE.length).toBeGreaterThanOrEqual(40);
    expect(new Set(SAMPLE.map((d) => d.path)).size).toBe(SAMPLE.length);
    for (const { path: document } of SAMPLE) expect(fs.existsSync(path.join(repoRoot, "node_modules", document)), document).toBe(true);
  });

  it("refuses exactly the documents listed in EXPECTED_REFUSALS, each with its listed one-line located error", () => {
    // Reasons that quote a file of the collection name it from the checkout: compared without it.
    const refused = Object.fromEntries([...results.values()].filter((r) => r.outcome === "refused").map((r) => [r.document, r.reason?.replaceAll(repoRoot, "<repo>")]));
    const expected = Object.fromEntries(Object.entries(EXPECTED_REFUSALS).map(([document, { error }]) => [document, error]));
    expect(refused).toEqual(expected);
    for (const result of results.values()) if (result.outcome === "refused") expect(result.locatedOneLine, result.document).toBe(true);
  });

  it("lists in EXPECTED_TYPE_ERRORS only documents that generate", () => {
    for (const document of Object.keys(EXPECTED_TYPE_ERRORS)) expect(results.get(document)?.outcome, document).toBe("generated");
  });

  it.each(SAMPLE.map((d) => d.path))("%s: no crash; generated, it type-checks, builds its client and agrees with ajv on its examples", (document) => {
    const result = results.get(document)!;
    expect(result.outcome === "crashed" ? result.reason : undefined).toBeUndefined();
    if (result.outcome !== "generated") return;
    expect(diagnostics.get(result.outDir!)).toEqual(EXPECTED_TYPE_ERRORS[document]?.diagnostics ?? []);
    expect(result.client, "the client class, constructed, with a method per operation").toMatch(/^[A-Za-z0-9_$]+$/);
    expect(result.examples.disagreements).toEqual([]);
    expect(result.examples.oracleErrors).toEqual([]);
    expect(result.examples.agreed + result.examples.formatDifferences).toBe(result.examples.checked);
  });
});
