/**
 * Measuring one document for the corpus benchmark: each tool's command line (bench/cli-child.mjs),
 * then a strict type-check of its output (bench/corpus-child.ts), each in a fresh process started
 * as Node starts by default, into one results line (bench/corpus-results.ts).
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import type { StepReport } from "./corpus-child.ts";
import { NODE_MODULES } from "./corpus-documents.ts";
import type { ResultLine, ToolResult, TypeCheckResult } from "./corpus-results.ts";
import { type ChildResult, lastJsonLine, ms, REPO_ROOT, runProcess } from "./lib.ts";

/**
 * The children's environment: NODE_OPTIONS could raise the heap (`--max-old-space-size`) or add a
 * loader; each tool and each type-check runs as Node starts by default.
 */
export function childEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  return env;
}

/** Node's default heap limit here, as a child started with childEnv() gets it. */
export function defaultHeapMiB(): number {
  const out = execFileSync(process.execPath, ["-p", "Math.round(require('v8').getHeapStatistics().heap_size_limit / 2 ** 20)"], { env: childEnv(), encoding: "utf8" });
  return Number(out.trim());
}

/** The generator's commit, marked dirty when what generates (generator/, templates/) has uncommitted changes. */
export function generatorCommit(): string {
  const git = (...args: string[]) => execFileSync("git", args, { cwd: REPO_ROOT, encoding: "utf8" }).trim();
  try {
    return `${git("rev-parse", "--short", "HEAD")}${git("status", "--porcelain", "--", "generator", "templates") === "" ? "" : "-dirty"}`;
  } catch {
    return "unknown";
  }
}

/** The lines that say something, colours and indentation taken off, warnings left out. */
function nonEmptyLines(text: string): string[] {
  return text
    .split("\n")
    .map((line) => line.replace(/\u001b\[[0-9;]*m/g, "").trim())
    .filter((line) => line !== "" && !line.startsWith("warning:"));
}

/** The person running the bench stopped it (Ctrl-C reaches the children too): nothing to record. */
export class Interrupted extends Error {}

function stopIfInterrupted(result: ChildResult): void {
  if (!result.timedOut && (result.signal === "SIGINT" || result.signal === "SIGTERM")) throw new Interrupted(`a step ended by ${result.signal}`);
}

/** Why a child gave no figures: out of heap, out of time, or its exit and last line. */
export function crash(result: ChildResult, timeoutMs: number, heapMiB: number): string {
  if (/JavaScript heap out of memory|Reached heap limit/.test(result.stderr)) return `heap exhausted (default heap, ${heapMiB} MiB)`;
  if (result.timedOut) return `timed out after ${timeoutMs / 1000} s`;
  return `crashed (${result.code !== null ? `exit ${result.code}` : (result.signal ?? "no exit code")}): ${(nonEmptyLines(result.stderr).pop() ?? "").slice(0, 300)}`;
}

/** The refusal's first line: the first `error:` (or openapi-typescript's `✘`) line, else the last line. */
export function refusalLine(stderr: string): string {
  const lines = nonEmptyLines(stderr);
  const first = lines.find((line) => /^error: |✘/.test(line)) ?? lines.pop() ?? "(no message)";
  return first.replace(/^error: /, "").replace(/^✘\s*/, "").slice(0, 300);
}

/** Tenths of a millisecond are below what a process's timing means; fewer digits keep the results file small. */
function tenths(value: number): number | null {
  return Number.isFinite(value) ? Math.round(value * 10) / 10 : null;
}

export interface Limits {
  timeoutMs: number;
  heapMiB: number;
}

/** One tool's command line on one document (bench/cli-child.mjs). */
async function command(tool: "ours" | "ots", spec: string, out: string, limits: Limits): Promise<ToolResult> {
  const result = await runProcess(process.execPath, [path.join(REPO_ROOT, "bench/cli-child.mjs"), tool, spec, out], { env: childEnv(), timeoutMs: limits.timeoutMs });
  stopIfInterrupted(result);
  let figures: StepReport;
  try {
    figures = lastJsonLine<StepReport>(result.stdout);
  } catch {
    return { accepted: false, refusal: crash(result, limits.timeoutMs, limits.heapMiB), ms: null, maxRssKiB: null };
  }
  const measured = { ms: tenths(figures.ms), maxRssKiB: figures.maxRssKiB };
  return figures.ok ? { accepted: true, ...measured } : { accepted: false, refusal: refusalLine(result.stderr).replace(spec, ""), ...measured };
}

/** The strict type-check of a package folder or of one file (bench/corpus-child.ts), in the default heap. */
async function typeCheck(target: string, limits: Limits): Promise<TypeCheckResult> {
  const result = await runProcess(process.execPath, ["--import", "tsx", path.join(REPO_ROOT, "bench/corpus-child.ts"), "typecheck", target], { env: childEnv(), timeoutMs: limits.timeoutMs });
  stopIfInterrupted(result);
  let step: StepReport;
  try {
    step = lastJsonLine<StepReport>(result.stdout);
  } catch {
    return { ok: false, error: crash(result, limits.timeoutMs, limits.heapMiB), ms: null, maxRssKiB: null, heapLimitMiB: limits.heapMiB };
  }
  const check: TypeCheckResult = { ok: step.ok, ms: tenths(step.ms), maxRssKiB: step.maxRssKiB };
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

export async function measure(document: string, scratch: string, index: number, limits: Limits, identity: Pick<ResultLine, "commit" | "machine" | "jobs">): Promise<ResultLine> {
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

export function summary(line: ResultLine): string {
  const tool = (t: ToolResult) => (t.accepted ? `${ms(t.ms ?? NaN)}${t.typecheck?.ok ? "" : ` (types: ${t.typecheck?.error ?? `${t.typecheck?.diagnostics ?? "?"} diagnostics`})`}` : "refused");
  return `${line.document}: ours ${tool(line.ours)}, openapi-typescript ${tool(line.ots)}`;
}

/** Once before measuring: generator/run.mjs builds its bundle on a first run, and both tools' files get into the file cache. */
export async function warmUp(scratch: string, limits: Limits): Promise<void> {
  await command("ours", path.join(REPO_ROOT, "openapi/openapi.yaml"), path.join(scratch, "warm-up"), limits);
  await command("ots", path.join(REPO_ROOT, "openapi/openapi.yaml"), path.join(scratch, "warm-up.ts"), limits);
}
