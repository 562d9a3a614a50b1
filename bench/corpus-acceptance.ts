/**
 * Which corpus documents the generator refuses, and whether openapi-typescript produces types for
 * those. The generator runs in this process without writing (`generateFiles`), one document at a
 * time; openapi-typescript (its Node API, `openapiTS`) runs only on the refused ones. One JSON line
 * per document is appended to the results file, so a run that stops (a crash, an out-of-memory
 * kill) continues where it was: a document started but never finished is recorded as `crashed`.
 * At the end (or with `--report` alone) the refusals are grouped by reason on stdout.
 *
 *   npx tsx bench/corpus-acceptance.ts --results /tmp/acceptance.jsonl [--shard K/N] [--limit N] [--skip-over-mb N] [--report]
 *
 * `--skip-over-mb` records larger documents as skipped (Microsoft Graph's 20 and 45 MB take many
 * minutes and gigabytes each).
 *
 * Not a test: it fails nothing. Results belong in /tmp, not in the repository.
 */
import fs from "node:fs";
import path from "node:path";
import { generateFiles } from "../generator/generate.ts";
import { corpusDocuments } from "./corpus-documents.ts";
import { markdownTable, progress, REPO_ROOT } from "./lib.ts";
import { firstLine, openapiTypescriptTypes } from "./openapi-typescript-api.ts";

const NODE_MODULES = path.join(REPO_ROOT, "node_modules");

/** One line of the results file. `started` lines mark a document begun, so a crash is known on resume. */
interface Line {
  document: string;
  started?: true;
  status?: "accepted" | "refused" | "crashed" | "skipped";
  /** The refusal's first line, the document's own path left out. */
  error?: string;
  /** For a refused document: whether openapi-typescript produced types, and its error if not. */
  ots?: { ok: boolean; error?: string };
  ms?: number;
}

function option(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? undefined : process.argv[at + 1];
}

async function openapiTypescript(spec: string): Promise<{ ok: boolean; error?: string }> {
  const result = await openapiTypescriptTypes(spec);
  return result.ok ? { ok: true } : result;
}

function readResults(file: string): Map<string, Line> {
  const results = new Map<string, Line>();
  if (!fs.existsSync(file)) return results;
  for (const text of fs.readFileSync(file, "utf8").split("\n")) {
    if (text.trim() === "") continue;
    const line = JSON.parse(text) as Line;
    if (line.started) {
      if (!results.has(line.document)) results.set(line.document, { document: line.document, status: "crashed", error: "the scan stopped while generating it (out of memory?)" });
    } else results.set(line.document, line);
  }
  return results;
}

/** The reason of a refusal without its place and quoted names, so alike refusals group together. */
function reasonOf(error: string): string {
  return error
    .replace(/^[^#\s]*#\S*: /, "")
    .replace(/"[^"]*"/g, '"…"')
    .replace(/`[^`]*`/g, "`…`")
    .replace(/\{[^}]*\}/g, "{…}")
    .replace(/the \w+ validator/, "the … validator")
    .replace(/\(and \d+ more[^)]*\)/, "(and N more)")
    .slice(0, 110);
}

function report(results: Map<string, Line>): string {
  const lines = [...results.values()];
  const refused = lines.filter((l) => l.status === "refused" || l.status === "crashed");
  const skipped = lines.filter((l) => l.status === "skipped");
  const groups = new Map<string, Line[]>();
  for (const line of refused) {
    const reason = line.status === "crashed" ? "crashed" : reasonOf(line.error ?? "");
    groups.set(reason, [...(groups.get(reason) ?? []), line]);
  }
  const rows = [...groups]
    .sort((a, b) => b[1].length - a[1].length)
    .map(([reason, list]) => [reason.replace(/\|/g, "\\|"), String(list.length), String(list.filter((l) => l.ots?.ok).length), list[0]!.document]);
  return [
    `${lines.length} documents: ${lines.length - refused.length - skipped.length} accepted, ${refused.length} refused or crashed (${refused.filter((l) => l.ots?.ok).length} of them accepted by openapi-typescript), ${skipped.length} skipped (${skipped.map((l) => l.document).join(", ") || "none"}).`,
    "",
    markdownTable(["reason (first line of the refusal)", "documents", "openapi-typescript produces types", "first document"], rows),
  ].join("\n");
}

async function main(): Promise<void> {
  const file = option("results") ?? "/tmp/corpus-acceptance.jsonl";
  const results = readResults(file);
  if (process.argv.includes("--report")) {
    process.stdout.write(`${report(results)}\n`);
    return;
  }
  const [shard, shards] = (option("shard") ?? "1/1").split("/").map(Number) as [number, number];
  const limit = Number(option("limit") ?? Infinity);
  const maxBytes = Number(option("skip-over-mb") ?? Infinity) * 1024 * 1024;
  const chosen = corpusDocuments()
    .map((document) => document.path)
    .filter((_, index) => index % shards === shard - 1)
    .filter((document) => !results.has(document))
    .slice(0, limit);
  progress(`corpus acceptance: ${chosen.length} documents to run, results in ${file}`);
  const append = (line: Line) => fs.appendFileSync(file, `${JSON.stringify(line)}\n`);
  for (const [index, document] of chosen.entries()) {
    const spec = path.join(NODE_MODULES, document);
    if (fs.statSync(spec).size > maxBytes) {
      const line: Line = { document, status: "skipped", error: `larger than ${option("skip-over-mb")} MB` };
      append(line);
      results.set(document, line);
      continue;
    }
    append({ document, started: true });
    const started = performance.now();
    let line: Line;
    try {
      await generateFiles({ spec });
      line = { document, status: "accepted" };
    } catch (error) {
      line = { document, status: "refused", error: firstLine(error, spec), ots: await openapiTypescript(spec) };
    }
    line.ms = Math.round(performance.now() - started);
    append(line);
    results.set(document, line);
    progress(`${index + 1}/${chosen.length} ${document}: ${line.status}${line.error ? ` (${line.error.slice(0, 120)})` : ""}`);
  }
  process.stdout.write(`${report(results)}\n`);
}

await main();
