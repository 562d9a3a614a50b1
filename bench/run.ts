/**
 * `npm run bench`: every benchmark in sequence, each in its own process, then one Markdown report
 * on stdout (progress goes to stderr) to paste into the README's Performance section.
 *
 *   node --import tsx bench/run.ts [--quick] [--only bundle,overhead,generation,sse,pagination] [--no-profile]
 *
 * Benchmarks are not tests: they fail nothing, they report figures and whether each goal is met.
 * When the per-call goal is missed, a CPU profile of the client layer follows (bench/profile-client.ts).
 */
import type { BundleResult } from "./bundle-size.ts";
import type { OverheadResult } from "./client-overhead.ts";
import type { EventStreamsResult } from "./event-streams.ts";
import type { GenerationResult } from "./generation.ts";
import type { PaginationResult } from "./pagination.ts";
import { bytes, lastJsonLine, machineDescription, markdownTable, ms, percent, progress, ratio, runTsNode } from "./lib.ts";
import type { ProfileReport } from "./profile-client.ts";

const quick = process.argv.includes("--quick");
const onlyIndex = process.argv.indexOf("--only");
const only = onlyIndex === -1 ? undefined : new Set(process.argv[onlyIndex + 1]?.split(","));
const wants = (part: string) => only === undefined || only.has(part);

async function part<T>(name: string, script: string, nodeFlags: string[] = [], extra: string[] = []): Promise<T | undefined> {
  const started = performance.now();
  progress(`${name}…`);
  const result = await runTsNode(script, ["--json", ...(quick ? ["--quick"] : []), ...extra], nodeFlags, { echoStderr: true });
  progress(`${name} done in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  if (result.code !== 0) {
    process.stdout.write(`\n**${name} failed** (exit ${result.code}):\n\n\`\`\`\n${result.stderr.trim().split("\n").slice(-15).join("\n")}\n\`\`\`\n`);
    return undefined;
  }
  return lastJsonLine<T>(result.stdout);
}

const started = performance.now();
const machine = machineDescription();
const out: string[] = [];
out.push(
  "## Performance",
  "",
  `Measured with \`npm run bench\` on ${machine.cpu}, ${machine.cores} cores, ${machine.memory} RAM, Node ${machine.node}, ${machine.os}` +
    `${quick ? " (quick mode: fewer rounds, figures noisier)" : ""}. Loopback server in its own process; figures vary by a few percent between runs.`,
);

const goals: string[][] = [];
let overhead: OverheadResult | undefined;

if (wants("overhead")) {
  overhead = await part<OverheadResult>("per-call overhead and memory", "bench/client-overhead.ts", ["--expose-gc"]);
  if (overhead) {
    out.push("", "### Per-call overhead (bench/client-overhead.ts)", "", overhead.markdown);
    for (const goal of overhead.goal) {
      goals.push([
        `Per call, ${goal.operation}: generated client with request validation at most 1.00× openapi-fetch alone`,
        `${percent(goal.ratio - 1)} at p50, ${goal.extraUs.toFixed(0)} µs/call (rounds p10–p90 ${percent(goal.p10 - 1)} … ${percent(goal.p90 - 1)}; by mean ${percent(goal.meanRatio - 1)})`,
        goal.met ? "met" : "**missed**",
      ]);
    }
    if (overhead.memory) {
      goals.push([
        `Memory: heap growth does not scale with calls (${overhead.memory.calls.toLocaleString("en-US")} calls)`,
        `${overhead.memory.regressionBytesPerCall.toFixed(2)} B/call after the first ${overhead.memory.firstMark.toLocaleString("en-US")} (heap ${bytes(overhead.memory.heapBefore)} → ${bytes(overhead.memory.heapAt100k)})`,
        overhead.memory.flat ? "met" : "**missed**",
      ]);
    }
  }
}

if (wants("generation")) {
  const generation = await part<GenerationResult>("generation time", "bench/generation.ts");
  if (generation) {
    out.push("", "### Generation time (bench/generation.ts)", "", generation.markdown);
    const g = generation.goals;
    goals.push([
      "This contract generates in under 2 s cold",
      `${ms(g.contractColdMs)}${Number.isFinite(g.contractFirstRunMs) ? ` (${ms(g.contractFirstRunMs)} right after a change to the generator)` : ""}`,
      g.contractColdMet ? "met" : "**missed**",
    ]);
    goals.push([
      "This contract: `npm run generate` within 1.3× openapi-typescript's own command (time, cold, spawn → exit)",
      Number.isFinite(g.contractRatioCli) ? `${ratio(g.contractRatioCli, 2)} (peak memory: see the corpus bench, which measures it per command)` : "not measured",
      Number.isFinite(g.contractRatioCli) && g.contractRatioCli <= 1.3 ? "met" : "**missed**",
    ]);
    goals.push([
      "Large document: whole generator ≤ 3× openapi-typescript",
      `${Number.isFinite(g.largeRatioCli) ? `CLI against CLI ${ratio(g.largeRatioCli, 1)}; ` : ""}` +
        `${Number.isFinite(g.largeRatioCold) ? `in-process cold ${ratio(g.largeRatioCold, 1)}` : "did not finish"}${Number.isFinite(g.largeRatioWarm) ? `, warm ${ratio(g.largeRatioWarm, 1)}` : ""}${g.largeNote ? `; ${g.largeNote}` : ""}`,
      g.largeMet ? "met" : "**missed**",
    ]);
  }
}

if (wants("bundle")) {
  const bundle = await part<BundleResult>("bundle size", "bench/bundle-size.ts");
  if (bundle) {
    out.push("", "### Bundle size (bench/bundle-size.ts)", "", bundle.markdown);
    const kib = (row: { gzip: number } | undefined) => (row === undefined ? NaN : row.gzip / 1024);
    const listPods = Math.min(kib(bundle.rows.find((r) => r.id === "management")), kib(bundle.rows.find((r) => r.id === "management-function")));
    const oneModel = kib(bundle.rows.find((r) => r.id === "run-and-wait"));
    goals.push(["Bundle: an app that only lists pods ≤ 8 KiB gzip (smallest way: the standalone function)", `${listPods.toFixed(1)} KiB`, listPods <= 8 ? "met" : "**missed**"]);
    goals.push(["Bundle: one model through `runAndWait` ≤ 12 KiB gzip", `${oneModel.toFixed(1)} KiB`, oneModel <= 12 ? "met" : "**missed**"]);
    // A missed goal is accounted for file by file: what each input adds to the startup code.
    for (const [id, missed] of [["management-function", listPods > 8], ["run-and-wait", oneModel > 12]] as const) {
      const row = bundle.rows.find((r) => r.id === id);
      if (!missed || row === undefined) continue;
      out.push(
        "",
        `#### Startup bytes per input file: ${row.label}`,
        "",
        `${bytes(row.minified)} minified at startup (${bytes(row.gzip)} gzip), by input (minified, before compression):`,
        "",
        markdownTable(["Input", "Minified", "Share"], row.inputs.map((input) => [input.file, bytes(input.bytes), `${((100 * input.bytes) / row.minified).toFixed(1)} %`])),
      );
    }
  }
}

if (wants("sse")) {
  const streams = await part<EventStreamsResult>("event streams", "bench/event-streams.ts");
  if (streams) out.push("", "### Event streams (bench/event-streams.ts)", "", streams.markdown);
}

if (wants("pagination")) {
  const paging = await part<PaginationResult>("pagination", "bench/pagination.ts");
  if (paging) {
    out.push("", "### Auto-pagination per page (bench/pagination.ts)", "", paging.markdown);
    goals.push([
      "Iterating a paging operation ≤ 1.02× a hand-written loop over the same client, per page",
      `items ${ratio(paging.ratio, 3)}, pages ${ratio(paging.pagesRatio, 3)}`,
      paging.met ? "met" : "**missed**",
    ]);
  }
}

if (overhead && overhead.goal.some((goal) => !goal.met) && !process.argv.includes("--no-profile")) {
  const profile = await part<ProfileReport>("CPU profile of the client layer", "bench/profile-client.ts");
  if (profile) {
    out.push(
      "",
      "### Where the per-call time goes (bench/profile-client.ts)",
      "",
      "The per-call goal is missed, so the generated client (request validation on) and openapi-fetch alone were profiled with V8's CPU profiler on an in-memory fetch (no socket, no server), and the samples attributed to the client's source files and functions.",
      "",
      profile.markdown,
    );
  }
}

if (goals.length > 0) out.push("", "### Goals", "", markdownTable(["Goal", "Measured", "Result"], goals));
out.push("", `_Whole run: ${((performance.now() - started) / 1000).toFixed(0)} s._`);
process.stdout.write(`${out.join("\n")}\n`);
