/**
 * The type-check step of the corpus benchmark (generation is bench/cli-child.mjs), in a fresh
 * process. Prints one JSON line: { ok, error?, ms, maxRssKiB, heapLimitMiB, diagnostics?, firstDiagnostic? }
 * (heapLimitMiB: this process's heap limit, so the results show the check ran in the default heap).
 *
 *   node --import tsx bench/corpus-child.ts typecheck DIR_OR_FILE     # strict, zero diagnostics?
 */
import fs from "node:fs";
import path from "node:path";
import v8 from "node:v8";
import { typeCheckFile, typeCheckPackages } from "../test/corpus/typecheck.ts";

export interface StepReport {
  ok: boolean;
  error?: string;
  ms: number;
  maxRssKiB: number;
  heapLimitMiB?: number;
  diagnostics?: number;
  firstDiagnostic?: string;
}

async function step(mode: string, target: string, out: string | undefined): Promise<Omit<StepReport, "maxRssKiB">> {
  if (mode === "typecheck") {
    const started = performance.now();
    const found = fs.statSync(target).isDirectory() ? typeCheckPackages([target]).get(target)! : typeCheckFile(target);
    return { ok: found.length === 0, ms: performance.now() - started, diagnostics: found.length, ...(found[0] ? { firstDiagnostic: found[0].slice(0, 200) } : {}) };
  }
  throw new Error(`unknown mode ${mode}`);
}

const [mode, target, out] = process.argv.slice(2);
let report: Omit<StepReport, "maxRssKiB">;
try {
  report = await step(mode!, path.resolve(target!), out && path.resolve(out));
} catch (error) {
  const message = String((error as Error)?.message ?? error).split("\n")[0]!;
  report = { ok: false, error: message.slice(0, 300), ms: NaN };
}
process.stdout.write(`\n${JSON.stringify({ ...report, maxRssKiB: process.resourceUsage().maxRSS, heapLimitMiB: Math.round(v8.getHeapStatistics().heap_size_limit / 2 ** 20) })}\n`);
