/**
 * Part 3: how long a maintainer waits after a contract change. The generator against
 * openapi-typescript alone, on this contract and on a large synthetic one
 * (bench/make-large-contract.ts: 1,000 operations, 2,000 schemas):
 *
 * - cold: a fresh process per run. For the generator, `node generator/run.mjs --spec X --out TMP`
 *   timed from spawn to exit (what `npm run generate` runs, without npm; its bundle of the generator
 *   already built, as after any earlier run), once more with an empty bundle cache (the first run
 *   after a change to the generator), and bench/generation-child.ts, which splits a cold run of the
 *   sources in one thread into startup, import and stages;
 * - warm: a second `generate` in the same process;
 * - openapi-typescript: `openapiTS(file URL)` + `astToString` + write, cold and warm, and its CLI.
 *
 * A run that passes its deadline is stopped; the watchdog of generation-child.ts then says which
 * stage and which functions it was in.
 *
 *   node --import tsx bench/generation.ts [--quick] [--json]
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { ChildReport, StageTimes } from "./generation-child.ts";
import { writeLargeContract, type LargeContractStats } from "./make-large-contract.ts";
import {
  bytes,
  CONTRACT,
  isMain,
  lastJsonLine,
  markdownTable,
  median,
  ms,
  progress,
  ratio,
  REPO_ROOT,
  runProcess,
  runTsNode,
} from "./lib.ts";

const OTS_CLI = path.join(REPO_ROOT, "node_modules", "openapi-typescript", "bin", "cli.js");

interface Frame {
  functionName: string;
  url: string;
}
interface ProfileNode {
  id: number;
  callFrame: Frame;
  children?: number[];
}

export interface StallReport {
  atMs: number;
  stage: string;
  /** Generator call chains (root → leaf) the main thread was in, with their share of samples. */
  chains: { chain: string; share: number }[];
  /** Functions with the most self time in the sampled window. */
  hot: { name: string; share: number }[];
}

export interface DocumentResult {
  document: string;
  description: string;
  generatorCli: { runs: number[]; error?: string };
  /** The same with an empty bundle cache: the first run after the generator's sources changed. */
  generatorCliFirst: { runs: number[]; error?: string };
  generator: ChildReport & { timedOut?: boolean; deadlineMs?: number; stall?: StallReport };
  otsCli: { runs: number[]; error?: string };
  ots: ChildReport;
}

export interface GenerationResult {
  documents: DocumentResult[];
  /** Import time of the generator's dependencies in a fresh process (median of runs per module). */
  imports: { module: string; ms: number }[];
  goals: {
    contractColdMs: number;
    /** The same, the first run after the generator's sources changed (it bundles them first). */
    contractFirstRunMs: number;
    contractColdMet: boolean;
    /** `npm run generate`'s command against openapi-typescript's CLI, both spawn → exit (NaN when not run). */
    largeRatioCli: number;
    /** In-process, one thread: generate() against openapiTS(), both cold. */
    largeRatioCold: number;
    largeRatioWarm: number;
    largeMet: boolean;
    largeNote: string;
    /** This contract: `npm run generate`'s command against openapi-typescript's CLI, both spawn → exit, medians. */
    contractRatioCli: number;
  };
  markdown: string;
}

const STAGE_OF: Record<string, string> = {
  loadContract: "load",
  buildModel: "model",
  emitAll: "emit",
  writeOutput: "write",
};

function packageOf(url: string): string {
  const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (match) return match[1]!;
  if (url.includes("/generator/")) return path.relative(REPO_ROOT, url.replace(/^file:\/\//, ""));
  if (url.startsWith("node:")) return url;
  return url ? path.basename(url) : "native";
}

/** What the watchdog's profile says the main thread was doing at the deadline. */
export function analyseStall(file: string): StallReport | undefined {
  if (!fs.existsSync(file)) return undefined;
  const { atMs, profile } = JSON.parse(fs.readFileSync(file, "utf8")) as { atMs: number; profile?: { nodes: ProfileNode[]; samples: number[] } };
  if (!profile) return undefined;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const chains = new Map<string, number>();
  const hot = new Map<string, number>();
  const stages = new Map<string, number>();
  let total = 0;
  for (const id of profile.samples) {
    const leaf = byId.get(id)!;
    if (["(idle)", "(program)", "(root)"].includes(leaf.callFrame.functionName)) continue;
    total++;
    const frames: Frame[] = [];
    for (let cursor: number | undefined = id; cursor !== undefined; cursor = parent.get(cursor)) frames.unshift(byId.get(cursor)!.callFrame);
    const generatorFrames = frames.filter((f) => f.url.includes("/generator/"));
    const names = generatorFrames.map((f) => f.functionName || "(anonymous)");
    // Below the deepest generator frame: which library does the work.
    const deepest = generatorFrames.at(-1);
    const below = deepest ? frames.slice(frames.lastIndexOf(deepest) + 1).find((f) => !f.url.includes("/generator/") && f.url) : undefined;
    const chain = names.length === 0 ? "(no generator frame: GC, runtime)" : `${names.filter((n, i) => i === 0 || n !== names[i - 1]).join(" → ")}${below ? ` → [${packageOf(below.url)}]` : ""}`;
    chains.set(chain, (chains.get(chain) ?? 0) + 1);
    const stage = names.map((n) => STAGE_OF[n]).find(Boolean) ?? "(outside the stages)";
    stages.set(stage, (stages.get(stage) ?? 0) + 1);
    const hotKey = `${leaf.callFrame.functionName || "(anonymous)"} [${packageOf(leaf.callFrame.url)}]`;
    hot.set(hotKey, (hot.get(hotKey) ?? 0) + 1);
  }
  const top = (map: Map<string, number>, count: number) =>
    [...map.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, count)
      .map(([name, n]) => ({ name, share: n / Math.max(1, total) }))
      .filter((entry) => entry.share >= 0.005);
  const stage = top(stages, 1)[0]?.name ?? "unknown";
  return {
    atMs,
    stage,
    chains: top(chains, 5).map(({ name, share }) => ({ chain: name, share })),
    hot: top(hot, 8),
  };
}

async function timeCli(
  label: string,
  args: (out: string) => string[],
  runs: number,
  timeoutMs: number,
  env?: NodeJS.ProcessEnv,
): Promise<{ runs: number[]; error?: string }> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), "bench-gen-cli-"));
    try {
      progress(`${label} (${i + 1}/${runs})`);
      const result = await runProcess(process.execPath, args(out), { timeoutMs, env });
      if (result.code !== 0) return { runs: times, error: result.code === null ? `killed after ${ms(timeoutMs)}` : result.stderr.trim().split("\n").slice(0, 3).join(" ") };
      times.push(result.wallMs);
    } finally {
      fs.rmSync(out, { recursive: true, force: true });
    }
  }
  return { runs: times };
}

async function runChild(tool: string, spec: string, options: { warm: boolean; deadlineMs?: number }): Promise<DocumentResult["generator"]> {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), "bench-gen-"));
  const watchdogFile = path.join(out, "..", `${path.basename(out)}-watchdog.json`);
  try {
    const args = [tool, spec, path.join(out, "pkg"), ...(options.warm ? ["--warm"] : [])];
    if (options.deadlineMs) args.push("--deadline-ms", String(options.deadlineMs), "--watchdog-file", watchdogFile);
    const result = await runTsNode("bench/generation-child.ts", args, [], { timeoutMs: (options.deadlineMs ?? 600_000) + 30_000 });
    if (result.code === 0) return lastJsonLine<ChildReport>(result.stdout);
    const stall = analyseStall(watchdogFile);
    if (!stall && result.code !== null) {
      return { tool, startupMs: NaN, importMs: NaN, error: { message: `exited with ${result.code}: ${result.stderr.trim().split("\n").slice(-5).join(" ")}`, stack: [] } };
    }
    return {
      tool,
      startupMs: NaN,
      importMs: NaN,
      timedOut: true,
      deadlineMs: options.deadlineMs,
      stall,
      error: stall ? undefined : { message: `exited with ${result.code}: ${result.stderr.slice(-500)}`, stack: [] },
    };
  } finally {
    fs.rmSync(out, { recursive: true, force: true });
    fs.rmSync(watchdogFile, { force: true });
  }
}

async function measureDocument(
  document: string,
  description: string,
  spec: string,
  options: { cliRuns: number; deadlineMs: number; warmIfUnderMs: number },
): Promise<DocumentResult> {
  progress(`generation on ${document}: generator, cold process with stages`);
  let generator = await runChild("generator", spec, { warm: false, deadlineMs: options.deadlineMs });
  // The warm run only when the cold one was quick enough to afford a second.
  if (!generator.error && !generator.timedOut && (generator.first?.total ?? Infinity) < options.warmIfUnderMs) {
    progress(`generation on ${document}: generator, cold + warm in one process`);
    const both = await runChild("generator", spec, { warm: true, deadlineMs: options.deadlineMs * 2 });
    if (!both.error && !both.timedOut) generator = both;
  }
  const cliArgs = (out: string) => [path.join(REPO_ROOT, "generator", "run.mjs"), "--spec", spec, "--out", path.join(out, "pkg")];
  const canRun = options.cliRuns > 0 && !generator.timedOut && !generator.error;
  // Builds the bundle if the sources changed since the last run, so the timed runs below find it.
  if (canRun) await timeCli(`generation on ${document}: node generator/run.mjs, warming the bundle cache`, cliArgs, 1, options.deadlineMs);
  const generatorCli = canRun ? await timeCli(`generation on ${document}: node generator/run.mjs`, cliArgs, options.cliRuns, options.deadlineMs) : { runs: [] };
  // One run with a bundle cache of its own, empty: inside node_modules, so the bundle's imports resolve.
  let generatorCliFirst: { runs: number[]; error?: string } = { runs: [] };
  if (canRun) {
    const cache = fs.mkdtempSync(path.join(REPO_ROOT, "node_modules", ".cache", "bench-generator-"));
    try {
      generatorCliFirst = await timeCli(`generation on ${document}: node generator/run.mjs, empty bundle cache`, cliArgs, 1, options.deadlineMs, {
        ...process.env,
        GPU_CLOUD_GENERATOR_CACHE: cache,
      });
    } finally {
      fs.rmSync(cache, { recursive: true, force: true });
    }
  }
  progress(`generation on ${document}: openapi-typescript, cold + warm in one process`);
  const ots = await runChild("openapi-typescript", spec, { warm: true, deadlineMs: options.deadlineMs });
  const otsCli = await timeCli(
    `generation on ${document}: openapi-typescript CLI`,
    (out) => [OTS_CLI, spec, "--output", path.join(out, "schema.ts")],
    Math.max(1, options.cliRuns),
    options.deadlineMs,
  );
  return { document, description, generator, generatorCli, generatorCliFirst, ots, otsCli };
}

async function measureImports(runs: number): Promise<GenerationResult["imports"]> {
  const samples = new Map<string, number[]>();
  for (let i = 0; i < runs; i++) {
    progress(`generation: import cost of the generator's modules (${i + 1}/${runs})`);
    const result = await runTsNode("bench/generation-child.ts", ["imports", CONTRACT, os.tmpdir()]);
    if (result.code !== 0) return [];
    for (const entry of lastJsonLine<ChildReport>(result.stdout).imports ?? []) {
      samples.set(entry.module, [...(samples.get(entry.module) ?? []), entry.ms]);
    }
  }
  return [...samples.entries()].map(([module, times]) => ({ module, ms: median(times) }));
}

export async function runGeneration(options: { quick?: boolean } = {}): Promise<GenerationResult> {
  const deadlineMs = Number(process.env.BENCH_GENERATION_DEADLINE_S ?? (options.quick ? 30 : 45)) * 1000;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-large-contract-"));
  try {
    const large: LargeContractStats = writeLargeContract(dir);
    const contractSize = fs.statSync(CONTRACT).size;
    const documents = [
      await measureDocument("this contract", `\`openapi/openapi.yaml\` (${bytes(contractSize)})`, CONTRACT, {
        cliRuns: options.quick ? 1 : 3,
        deadlineMs,
        warmIfUnderMs: Infinity,
      }),
      await measureDocument(
        "large synthetic",
        `${large.operations} operations, ${large.schemas} schemas, ${large.paths} paths (${bytes(large.bytes)} JSON)`,
        large.file,
        { cliRuns: options.quick ? 0 : 1, deadlineMs, warmIfUnderMs: 20_000 },
      ),
    ];
    const imports = await measureImports(options.quick ? 1 : 3);
    const [contract, synthetic] = documents as [DocumentResult, DocumentResult];
    const contractColdMs = contract.generatorCli.runs.length > 0 ? median(contract.generatorCli.runs) : (contract.generator.coldMs ?? NaN);
    const contractFirstRunMs = contract.generatorCliFirst.runs.length > 0 ? median(contract.generatorCliFirst.runs) : NaN;
    const otsCold = synthetic.ots.coldMs ?? NaN;
    const genCold = synthetic.generator.timedOut ? Infinity : (synthetic.generator.coldMs ?? NaN);
    const largeRatioCold = genCold / otsCold;
    const largeRatioWarm = synthetic.generator.warm && synthetic.ots.warm ? synthetic.generator.warm.total / synthetic.ots.warm.total : NaN;
    const largeRatioCli =
      synthetic.generatorCli.runs.length > 0 && synthetic.otsCli.runs.length > 0 ? median(synthetic.generatorCli.runs) / median(synthetic.otsCli.runs) : NaN;
    // Judged on what a maintainer runs (both CLIs) when measured, else on the in-process cold runs.
    const judged = Number.isFinite(largeRatioCli) ? largeRatioCli : largeRatioCold;
    const contractRatioCli =
      contract.generatorCli.runs.length > 0 && contract.otsCli.runs.length > 0 ? median(contract.generatorCli.runs) / median(contract.otsCli.runs) : NaN;
    const goals = {
      contractRatioCli,
      contractColdMs,
      contractFirstRunMs,
      contractColdMet: contractColdMs < 2_000 && !(contractFirstRunMs >= 2_000),
      largeRatioCli,
      largeRatioCold,
      largeRatioWarm,
      largeMet: Number.isFinite(judged) && judged <= 3 && !synthetic.generator.error,
      largeNote: synthetic.generator.timedOut
        ? `the generator did not finish within ${ms(deadlineMs)} (≥ ${ratio(deadlineMs / otsCold, 1)} openapi-typescript's cold time)`
        : synthetic.generator.error
          ? `the generator failed: ${synthetic.generator.error.message.split("\n")[0]}`
          : "",
    };
    const result: GenerationResult = { documents, imports, goals, markdown: "" };
    result.markdown = generationMarkdown(result, deadlineMs);
    return result;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function stageCells(times: StageTimes | undefined): string[] {
  if (!times) return ["–", "–", "–", "–", "–"];
  const cell = (value: number | undefined) => (value === undefined ? "–" : ms(value));
  return [cell(times.load), cell(times.model), cell(times.emit), cell(times.write), ms(times.total)];
}

function generationMarkdown(result: GenerationResult, deadlineMs: number): string {
  const rows: string[][] = [];
  const notes: string[] = [];
  for (const doc of result.documents) {
    const g = doc.generator;
    const cliCold = doc.generatorCli.runs.length
      ? `${ms(median(doc.generatorCli.runs))}${doc.generatorCli.runs.length > 1 ? ` (median of ${doc.generatorCli.runs.length})` : ""}` +
        (doc.generatorCliFirst.runs.length ? `; ${ms(median(doc.generatorCliFirst.runs))} with an empty bundle cache` : "")
      : (doc.generatorCli.error ?? "–");
    if (g.timedOut) {
      rows.push([doc.document, "generator", "–", `> ${ms(deadlineMs)} (stopped)`, ms(g.startupMs), "–", "–", "–", "–", "–", "–", "–"]);
      if (g.stall) {
        notes.push(
          `**The generator did not finish on the ${doc.document} document within ${ms(deadlineMs)}.** At the deadline it was in the **${g.stall.stage}** stage. ` +
            `Where the main thread was during the last two thirds of that time (generator call chain → library doing the work, share of samples):`,
          "",
          ...g.stall.chains.map((c) => `- ${(c.share * 100).toFixed(0)} %: \`${c.chain}\``),
          "",
          `Hottest functions: ${g.stall.hot.map((h) => `\`${h.name}\` ${(h.share * 100).toFixed(0)} %`).join(", ")}.`,
        );
      }
    } else if (g.error) {
      rows.push([doc.document, "generator", "–", "failed", ms(g.startupMs), ms(g.importMs), "–", "–", "–", "–", "–", "–"]);
      notes.push(`**The generator failed on the ${doc.document} document:** ${g.error.message.split("\n")[0]}${g.error.stack.length ? ` (at ${g.error.stack.slice(0, 3).join(" ← ")})` : ""}.`);
    } else {
      rows.push([doc.document, "generator", cliCold, ms(g.coldMs ?? NaN), ms(g.startupMs), ms(g.importMs), ...stageCells(g.first), g.warm ? ms(g.warm.total) : "–"]);
      if (g.warm) rows.push([doc.document, "generator, warm stages", "", "", "", "", ...stageCells(g.warm), ""]);
    }
    const o = doc.ots;
    const otsCli = doc.otsCli.runs.length ? `${ms(median(doc.otsCli.runs))}${doc.otsCli.runs.length > 1 ? ` (median of ${doc.otsCli.runs.length})` : ""}` : doc.otsCli.error ?? "–";
    if (o.error || (o as DocumentResult["generator"]).timedOut) {
      rows.push([doc.document, "openapi-typescript", otsCli, "failed", "–", "–", "–", "–", "–", "–", "–", "–"]);
      notes.push(`openapi-typescript failed on the ${doc.document} document: ${o.error?.message ?? "timed out"}.`);
    } else {
      rows.push([doc.document, "openapi-typescript alone", otsCli, ms(o.coldMs ?? NaN), ms(o.startupMs), ms(o.importMs), "–", "–", "–", "–", ms(o.first?.total ?? NaN), o.warm ? ms(o.warm.total) : "–"]);
    }
  }
  const g = result.goals;
  const [contract, synthetic] = result.documents as [DocumentResult, DocumentResult];
  const contractOtsCold = contract.ots.coldMs ?? NaN;
  return [
    markdownTable(
      ["Document", "Tool", "cold, CLI process (spawn → exit)", "cold, in-process, one thread: start → first run done", "of which startup", "import", "load", "model", "emit", "write", "first run", "warm run (same process)"],
      rows,
    ),
    "",
    `Documents: this contract is ${result.documents[0]!.description}; the large one is ${result.documents[1]!.description}, written by \`bench/make-large-contract.ts\`. ` +
      "The generator's CLI is `node generator/run.mjs` (what `npm run generate` runs): the generator bundled once per version of its sources (\"empty bundle cache\": the first run after a change, which bundles first), " +
      "`src/schema.ts` emitted by openapi-typescript in a worker thread beside the other emitters, which write text and load no compiler. " +
      "The in-process columns run the sources through `tsx` in one thread (its transform cache warm), split into \"startup\" (Node + tsx until the benchmark's first line), \"import\" (the tool's modules) and the stages. " +
      "openapi-typescript alone = `openapiTS(file URL)` + `astToString` + one write; its CLI is `openapi-typescript FILE --output FILE`.",
    ...(notes.length ? ["", ...notes] : []),
    ...(result.imports.length
      ? [
          "",
          markdownTable(
            ["Generator import cost, fresh process (each module's first import, in this order)", ...result.imports.map((i) => `\`${i.module}\``), "total"],
            [["median", ...result.imports.map((i) => ms(i.ms)), ms(result.imports.reduce((sum, i) => sum + i.ms, 0))]],
          ),
          "",
          "The CLI loads TypeScript (for openapi-typescript) in the worker thread, on the other core, with `require` (importing it as an ES module makes Node scan the 9 MB file for export names first).",
        ]
      : []),
    "",
    `Goal (this contract generates in under 2 s cold): ${ms(g.contractColdMs)}` +
      `${Number.isFinite(g.contractFirstRunMs) ? `, ${ms(g.contractFirstRunMs)} for the first run after a change to the generator` : ""} → **${g.contractColdMet ? "met" : "missed"}**` +
      `${Number.isFinite(contractOtsCold) ? ` (openapi-typescript alone, in-process cold: ${ms(contractOtsCold)}).` : "."}`,
    `Goal (large document: whole generator ≤ 3× openapi-typescript): ` +
      `${Number.isFinite(g.largeRatioCli) ? `CLI against CLI ${ratio(g.largeRatioCli, 1)}; ` : ""}in-process cold ${Number.isFinite(g.largeRatioCold) ? ratio(g.largeRatioCold, 1) : "∞"}` +
      `${Number.isFinite(g.largeRatioWarm) ? `, warm ${ratio(g.largeRatioWarm, 1)}` : ""} → **${g.largeMet ? "met" : "missed"}**${g.largeNote ? ` (${g.largeNote})` : ""}.`,
    ...(synthetic.generator.first && !synthetic.generator.timedOut
      ? [`Large document, slowest generator stage: ${slowestStage(synthetic.generator.first)}.`]
      : []),
  ].join("\n");
}

function slowestStage(times: StageTimes): string {
  const stages = (["load", "model", "emit", "write"] as const).map((stage) => [stage, times[stage] ?? 0] as const).sort((a, b) => b[1] - a[1]);
  const [name, value] = stages[0]!;
  return `${name}, ${ms(value)} of ${ms(times.total)}`;
}

if (isMain(import.meta.url)) {
  const result = await runGeneration({ quick: process.argv.includes("--quick") });
  process.stdout.write(process.argv.includes("--json") ? `${JSON.stringify(result)}\n` : `${result.markdown}\n`);
}
