/**
 * Where the generated client spends its time per call. Bundles bench/profile-worker.ts with esbuild
 * (with a source map), runs it under V8's CPU profiler for the generated client (request validation
 * on, the default) and for openapi-fetch alone, on an in-memory fetch, then reads the profiles:
 *
 * - CPU per call of each, and the difference: the generated layer's own cost;
 * - the top self-time functions of the client layer (generated sources and the runtime);
 * - CPU attributed to the nearest client-layer frame on the stack: that function's own code plus the
 *   platform work it calls directly (new Request, Headers, AbortController, timers, JSON.parse…).
 *
 *   node --import tsx bench/profile-client.ts [--calls N] [--operation getJobStatus|listPods]
 *
 * bench/run.ts runs it when the per-call goal is missed.
 */
import fs from "node:fs";
import { SourceMap } from "node:module";
import os from "node:os";
import path from "node:path";
import * as esbuild from "esbuild";
import { isMain, lastJsonLine, markdownTable, progress, REPO_ROOT, runProcess } from "./lib.ts";

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

type Layer = "client" | "openapi-fetch" | "benchmark" | "platform";

interface Frame {
  name: string;
  source: string;
  line: number;
  layer: Layer;
}

function layerOf(source: string): Layer {
  if (source.includes("generated/gpu-cloud-client/src/")) return "client";
  if (source.includes("node_modules/openapi-fetch/")) return "openapi-fetch";
  if (source.includes("bench/")) return "benchmark";
  return "platform";
}

function displaySource(source: string): string {
  const relative = source.startsWith("/") ? path.relative(REPO_ROOT, source) : source;
  return relative.replace(/^generated\/gpu-cloud-client\//, "").replace(/^node:internal\/deps\//, "node:").replace(/^node:internal\//, "node:");
}

/** Maps profile positions in the bundle back to the sources. */
function resolver(bundlePath: string, map: SourceMap) {
  const bundleUrl = `file://${bundlePath}`;
  const cache = new Map<string, Frame>();
  return (frame: CallFrame): Frame => {
    const key = `${frame.url}:${frame.lineNumber}:${frame.columnNumber}:${frame.functionName}`;
    let resolved = cache.get(key);
    if (resolved) return resolved;
    let source = frame.url || "(native)";
    let line = frame.lineNumber + 1;
    if (frame.url === bundleUrl) {
      const entry = map.findEntry(frame.lineNumber, frame.columnNumber) as { originalSource?: string; originalLine?: number };
      if (entry.originalSource) {
        source = path.resolve(path.dirname(bundlePath), entry.originalSource.replace(/^file:\/\//, ""));
        line = (entry.originalLine ?? 0) + 1;
      }
    }
    resolved = { name: frame.functionName || "(anonymous)", source, line, layer: layerOf(source) };
    cache.set(key, resolved);
    return resolved;
  };
}

const label = (frame: Frame) => `${frame.name} — ${displaySource(frame.source)}:${frame.line}`;

interface Entry {
  name: string;
  usPerCall: number;
}

export interface ProfileSummary {
  operation: string;
  contender: string;
  calls: number;
  cpuUsPerCall: number;
  layerUsPerCall: Record<Layer | "gc", number>;
  topClientSelf: Entry[];
  topAttributed: Entry[];
  /** Attributed CPU summed per client-layer source file. */
  byFile: Entry[];
}

function analyse(profile: CpuProfile, resolve: (frame: CallFrame) => Frame, calls: number, operation: string, contender: string): ProfileSummary {
  const byId = new Map<number, ProfileNode>();
  const parent = new Map<number, number>();
  for (const node of profile.nodes) {
    byId.set(node.id, node);
    for (const child of node.children ?? []) parent.set(child, node.id);
  }
  const selfUs = new Map<number, number>();
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i]!;
    selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  }
  const clientSelf = new Map<string, number>();
  const attributed = new Map<string, number>();
  const byFile = new Map<string, number>();
  const layers: Record<Layer | "gc", number> = { client: 0, "openapi-fetch": 0, benchmark: 0, platform: 0, gc: 0 };
  let busy = 0;
  const add = (map: Map<string, number>, key: string, us: number) => map.set(key, (map.get(key) ?? 0) + us);

  for (const [id, us] of selfUs) {
    const leaf = byId.get(id)!;
    const name = leaf.callFrame.functionName;
    if (name === "(idle)" || name === "(program)" || name === "(root)") continue;
    busy += us;
    if (name === "(garbage collector)") {
      layers.gc += us;
      continue;
    }
    const leafFrame = resolve(leaf.callFrame);
    if (leafFrame.layer === "client") add(clientSelf, label(leafFrame), us);
    let owner: Frame | undefined;
    for (let cursor: number | undefined = id; cursor !== undefined; cursor = parent.get(cursor)) {
      const frame = resolve(byId.get(cursor)!.callFrame);
      if (frame.layer !== "platform") {
        owner = frame;
        break;
      }
    }
    layers[owner?.layer ?? "platform"] += us;
    if (owner && owner.layer !== "benchmark") add(attributed, `${owner.layer === "openapi-fetch" ? "[openapi-fetch] " : ""}${label(owner)}`, us);
    if (owner && owner.layer !== "benchmark") {
      const file = displaySource(owner.source).replace(/^node_modules\/(openapi-fetch)\/.*$/, "$1 (dependency)");
      add(byFile, file, us);
    }
  }
  const top = (map: Map<string, number>, count: number): Entry[] =>
    [...map.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, count)
      .map(([entryName, us]) => ({ name: entryName, usPerCall: us / calls }));
  for (const key of Object.keys(layers) as (keyof typeof layers)[]) layers[key] /= calls;
  return {
    operation,
    contender,
    calls,
    cpuUsPerCall: busy / calls,
    layerUsPerCall: layers,
    topClientSelf: top(clientSelf, 10),
    topAttributed: top(attributed, 12),
    byFile: top(byFile, 12),
  };
}

export interface ProfileReport {
  summaries: ProfileSummary[];
  markdown: string;
}

/** Calls per profile: the pods body is 90 KiB of JSON, so fewer calls give as many samples. */
const DEFAULT_CALLS: Record<string, number> = { getJobStatus: 15_000, listPods: 2_500 };

export async function profileClient(options: { calls?: number; operations?: string[] } = {}): Promise<ProfileReport> {
  const operations = options.operations ?? ["getJobStatus", "listPods"];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-profile-"));
  try {
    const bundlePath = path.join(dir, "profile-worker.mjs");
    await esbuild.build({
      entryPoints: [path.join(REPO_ROOT, "bench", "profile-worker.ts")],
      outfile: bundlePath,
      bundle: true,
      format: "esm",
      platform: "node",
      target: "node20",
      sourcemap: "external",
      external: ["esbuild"],
      // The bundle lives in a temporary folder but must find the repository (contract, server).
      define: {
        "import.meta.dirname": JSON.stringify(path.join(REPO_ROOT, "bench")),
        "import.meta.url": JSON.stringify("file:///bench-profile-worker-bundle"),
      },
      // CommonJS dependencies (yaml) require Node built-ins.
      banner: { js: `import { createRequire as __createRequire } from "node:module"; const require = __createRequire(${JSON.stringify(path.join(REPO_ROOT, "package.json"))});` },
      logLevel: "error",
    });
    const map = new SourceMap(JSON.parse(fs.readFileSync(`${bundlePath}.map`, "utf8")));
    const resolve = resolver(bundlePath, map);
    const summaries: ProfileSummary[] = [];
    for (const operation of operations) {
      const calls = options.calls ?? DEFAULT_CALLS[operation] ?? 10_000;
      for (const contender of ["openapi-fetch", "gen-validate"]) {
        progress(`profiling ${contender} on ${operation}, ${calls} calls, in-memory fetch`);
        const out = path.join(dir, `${contender}-${operation}.cpuprofile`);
        const run = await runProcess(process.execPath, [bundlePath, contender, operation, String(calls), out], { echoStderr: true });
        if (run.code !== 0) throw new Error(`profiled process failed (${run.code})`);
        lastJsonLine(run.stdout);
        const profile = JSON.parse(fs.readFileSync(out, "utf8")) as CpuProfile;
        summaries.push(analyse(profile, resolve, calls, operation, contender));
        if (contender === "gen-validate") fs.copyFileSync(out, path.join(os.tmpdir(), `gpu-cloud-client-${operation}.cpuprofile`));
      }
    }
    return { summaries, markdown: profileMarkdown(summaries) };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function profileMarkdown(summaries: ProfileSummary[]): string {
  const f = (us: number) => `${us.toFixed(1)} µs`;
  const parts: string[] = [];
  const operations = [...new Set(summaries.map((s) => s.operation))];
  parts.push(
    markdownTable(
      ["Profiled CPU per call (in-memory fetch)", "openapi-fetch alone", "generated, validateRequests: true", "extra", "of which client layer", "openapi-fetch", "platform (no client frame above)", "GC"],
      operations.map((operation) => {
        const of = summaries.find((s) => s.operation === operation && s.contender === "openapi-fetch")!;
        const gen = summaries.find((s) => s.operation === operation && s.contender === "gen-validate")!;
        return [
          operation,
          f(of.cpuUsPerCall),
          f(gen.cpuUsPerCall),
          `${f(gen.cpuUsPerCall - of.cpuUsPerCall)} (${(((gen.cpuUsPerCall - of.cpuUsPerCall) / of.cpuUsPerCall) * 100).toFixed(0)} %)`,
          f(gen.layerUsPerCall.client),
          f(gen.layerUsPerCall["openapi-fetch"]),
          f(gen.layerUsPerCall.platform),
          f(gen.layerUsPerCall.gc),
        ];
      }),
    ),
  );
  parts.push(
    "",
    markdownTable(
      ["CPU per call by source file of the nearest client frame (generated, validateRequests: true)", ...operations],
      [...new Set(summaries.filter((s) => s.contender === "gen-validate").flatMap((s) => s.byFile.map((e) => e.name)))].map((file) => [
        `\`${file}\``,
        ...operations.map((operation) => {
          const entry = summaries.find((s) => s.operation === operation && s.contender === "gen-validate")!.byFile.find((e) => e.name === file);
          return entry ? f(entry.usPerCall) : "–";
        }),
      ]),
    ),
  );
  for (const operation of operations) {
    const gen = summaries.find((s) => s.operation === operation && s.contender === "gen-validate")!;
    parts.push(
      "",
      markdownTable(
        [`${operation}: CPU by nearest client-layer frame (own code + platform calls it makes)`, "per call"],
        gen.topAttributed.map((e) => [`\`${e.name}\``, f(e.usPerCall)]),
      ),
      "",
      markdownTable([`${operation}: top self time in the client layer`, "per call"], gen.topClientSelf.map((e) => [`\`${e.name}\``, f(e.usPerCall)])),
    );
  }
  parts.push(
    "",
    "The profiled processes run one after the other, not interleaved, so their totals are noisier than the in-memory table of the per-call part: read them for where the time goes, and that table for how much.",
    "",
    `Profiles of the generated client kept at \`${path.join(os.tmpdir(), "gpu-cloud-client-<operation>.cpuprofile")}\` (bundle positions; open in Chrome DevTools or speedscope).`,
  );
  return parts.join("\n");
}

if (isMain(import.meta.url)) {
  const argument = (name: string) => {
    const index = process.argv.indexOf(name);
    return index === -1 ? undefined : process.argv[index + 1];
  };
  const operation = argument("--operation");
  const calls = argument("--calls");
  const report = await profileClient({ calls: calls ? Number(calls) : undefined, operations: operation ? [operation] : undefined });
  process.stdout.write(process.argv.includes("--json") ? `${JSON.stringify(report)}\n` : `${report.markdown}\n`);
}
