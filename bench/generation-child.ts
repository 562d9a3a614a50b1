/**
 * One cold process of the generation benchmark (spawned by bench/generation.ts):
 *
 *   node --import tsx bench/generation-child.ts generator|openapi-typescript|imports <spec> <out-dir> [--warm] [--deadline-ms N --watchdog-file F]
 *
 * Times, from the process's own start (performance.timeOrigin): startup (Node + tsx until this
 * module runs), importing the tool, its first run per stage, and with --warm a second run in the
 * same process. Prints one JSON line.
 *
 * With --deadline-ms, a worker thread watches the clock: at a third of the deadline it starts V8's CPU
 * profiler on the main thread (through the inspector, which answers even while the main thread is
 * busy), and at the deadline writes what the main thread was doing to the watchdog file and kills
 * the process. So a run that is too slow still says which stage and which functions.
 */
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { Worker } from "node:worker_threads";

const startupMs = performance.now();
const [tool, spec, out] = process.argv.slice(2);
const warm = process.argv.includes("--warm");
const option = (name: string) => {
  const index = process.argv.indexOf(name);
  return index === -1 ? undefined : process.argv[index + 1];
};

export interface StageTimes {
  total: number;
  load?: number;
  model?: number;
  emit?: number;
  write?: number;
}

export interface ChildReport {
  tool: string;
  startupMs: number;
  importMs: number;
  /** Process start to the end of the first run: the cold time, without process exit. */
  coldMs?: number;
  first?: StageTimes;
  warm?: StageTimes;
  files?: number;
  outputBytes?: number;
  error?: { message: string; stack: string[] };
  /** With tool "imports": each heavy module's import time, in order. */
  imports?: { module: string; ms: number }[];
}

/**
 * The generator's heavy dependencies, then the generator itself (its own modules + whatever is
 * left), each loaded as the generator loads it: `require` for the ones it requires.
 */
const IMPORT_ORDER: { specifier: string; how: "import" | "require" }[] = [
  { specifier: "yaml", how: "import" },
  { specifier: "@redocly/openapi-core", how: "import" },
  { specifier: "typescript", how: "require" },
  { specifier: "openapi-typescript", how: "require" },
  { specifier: "handlebars", how: "import" },
  { specifier: "../generator/generate.ts", how: "import" },
];

/** The watchdog: see the header. Plain JavaScript, evaluated in a worker thread. */
const WATCHDOG = `
const { Session } = require("node:inspector");
const { workerData, parentPort } = require("node:worker_threads");
const fs = require("node:fs");
const { deadlineMs, file, profileMs } = workerData;
const keepAlive = setInterval(() => {}, 1000);
const session = new Session();
session.connectToMainThread();
const now = () => performance.timeOrigin + performance.now() - workerData.timeOrigin;
parentPort.on("message", () => { clearInterval(keepAlive); process.exit(0); });
setTimeout(() => {
  session.post("Profiler.enable", () => session.post("Profiler.setSamplingInterval", { interval: 1000 }, () => session.post("Profiler.start")));
  setTimeout(() => {
    session.post("Profiler.stop", (error, result) => {
      fs.writeFileSync(file, JSON.stringify({ atMs: now(), error: error ? String(error) : undefined, profile: result && result.profile }));
      process.kill(process.pid, "SIGKILL");
    });
  }, profileMs);
}, Math.max(0, deadlineMs - profileMs - now()));
`;

function startWatchdog(deadlineMs: number, file: string): Promise<Worker> {
  const worker = new Worker(WATCHDOG, {
    eval: true,
    // The last two thirds of the allowed time: long enough to see the work before V8 inlines or
    // replaces it on the stack (OSR), cheap (one sample per millisecond).
    workerData: { deadlineMs, file, profileMs: (deadlineMs * 2) / 3, timeOrigin: performance.timeOrigin },
  });
  // Referenced until it runs (so this process waits for it), then never keeps the process alive.
  return new Promise((resolve, reject) => {
    worker.once("error", reject);
    worker.once("online", () => {
      worker.unref();
      resolve(worker);
    });
  });
}

function stackOf(error: unknown): string[] {
  const stack = error instanceof Error ? (error.stack ?? "") : "";
  return stack
    .split("\n")
    .slice(1)
    .map((line) => line.trim())
    .filter((line) => line.includes("/generator/") || line.includes("node_modules"))
    .slice(0, 8);
}

function folderBytes(dir: string): { files: number; bytes: number } {
  let files = 0;
  let bytes = 0;
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) {
      files++;
      bytes += fs.statSync(path.join(entry.parentPath ?? (entry as any).path, entry.name)).size;
    }
  }
  return { files, bytes };
}

async function main(): Promise<ChildReport> {
  if (!tool || !spec || !out) throw new Error("usage: generation-child.ts generator|openapi-typescript <spec> <out>");
  const deadline = option("--deadline-ms");
  const watchdogFile = option("--watchdog-file");
  const watchdog = deadline && watchdogFile ? await startWatchdog(Number(deadline), watchdogFile) : undefined;
  const report: ChildReport = { tool, startupMs, importMs: 0 };
  try {
    if (tool === "generator") {
      let started = performance.now();
      const { generate } = await import("../generator/generate.ts");
      report.importMs = performance.now() - started;
      const run = async (dir: string): Promise<StageTimes> => {
        const t0 = performance.now();
        const result = await generate({ spec, out: dir });
        report.files = result.files.length;
        return { total: performance.now() - t0, ...result.timings };
      };
      report.first = await run(out);
      report.coldMs = performance.now();
      const size = folderBytes(out);
      report.outputBytes = size.bytes;
      if (warm) report.warm = await run(out);
    } else if (tool === "openapi-typescript") {
      const started = performance.now();
      const { default: openapiTS, astToString } = await import("openapi-typescript");
      report.importMs = performance.now() - started;
      const source = new URL(`file://${path.resolve(spec)}`);
      const run = async (): Promise<StageTimes> => {
        const t0 = performance.now();
        const ast = await openapiTS(source, { defaultNonNullable: false, alphabetize: false });
        const text = astToString(ast);
        fs.mkdirSync(out, { recursive: true });
        fs.writeFileSync(path.join(out, "schema.ts"), text);
        report.outputBytes = Buffer.byteLength(text);
        report.files = 1;
        return { total: performance.now() - t0 };
      };
      report.first = await run();
      report.coldMs = performance.now();
      if (warm) report.warm = await run();
    } else if (tool === "imports") {
      // Where the generator's import time goes: each module's first import, in load order (a
      // module's own dependencies count where first imported).
      report.imports = [];
      const require = createRequire(import.meta.url);
      for (const { specifier, how } of IMPORT_ORDER) {
        const t0 = performance.now();
        if (how === "require") require(specifier);
        else await import(specifier);
        report.imports.push({ module: `${specifier.replace("../", "")}${how === "require" ? " (require)" : ""}`, ms: performance.now() - t0 });
      }
      report.importMs = report.imports.reduce((sum, entry) => sum + entry.ms, 0);
    } else {
      throw new Error(`unknown tool ${tool}`);
    }
  } catch (error) {
    report.error = { message: error instanceof Error ? error.message : String(error), stack: stackOf(error) };
  }
  watchdog?.postMessage("done");
  return report;
}

const report = await main();
process.stdout.write(`${JSON.stringify(report)}\n`, () => process.exit(0));
