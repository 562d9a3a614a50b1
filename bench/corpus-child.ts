/**
 * One step of the corpus benchmark on one document, in a fresh process so that its time and peak
 * memory are its own. Prints one JSON line: { ok, error?, ms, maxRssKiB, diagnostics? }.
 *
 *   node --import tsx bench/corpus-child.ts generate SPEC OUT_DIR     # this generator, in-process
 *   node --import tsx bench/corpus-child.ts ots SPEC OUT_FILE         # openapi-typescript alone
 *   node --import tsx bench/corpus-child.ts typecheck DIR_OR_FILE     # strict, zero diagnostics?
 *
 * `ms` is the step itself, after the imports, the generator's lazily loaded ones included (what a
 * warm tool spends on the document).
 */
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type * as Typescript from "typescript";
import { typeCheckPackages } from "../test/corpus/typecheck.ts";

export interface StepReport {
  ok: boolean;
  error?: string;
  ms: number;
  maxRssKiB: number;
  diagnostics?: number;
  firstDiagnostic?: string;
}

const require = createRequire(import.meta.url);

/** openapi-typescript's output on its own: strict, no package around it. */
function fileDiagnostics(file: string): string[] {
  const ts = require("typescript") as typeof Typescript;
  const program = ts.createProgram([file], { strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, skipLibCheck: true, types: [] });
  return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, " "));
}

async function step(mode: string, target: string, out: string | undefined): Promise<Omit<StepReport, "maxRssKiB">> {
  if (mode === "generate") {
    const { generateFiles } = await import("../generator/generate.ts");
    const { writeOutput } = await import("../generator/write.ts");
    // The generator loads openapi-typescript and TypeScript on first use; the ots step loads them
    // before its clock starts, so this one does too: both times are the work on the document.
    require("openapi-typescript");
    require("typescript");
    const started = performance.now();
    const generated = await generateFiles({ spec: target, out: out! });
    await writeOutput(out!, generated.files);
    return { ok: true, ms: performance.now() - started };
  }
  if (mode === "ots") {
    const { default: openapiTS, astToString } = require("openapi-typescript") as typeof import("openapi-typescript");
    const started = performance.now();
    const text = astToString(await openapiTS(pathToFileURL(target), { silent: true }));
    fs.mkdirSync(path.dirname(out!), { recursive: true });
    fs.writeFileSync(out!, text);
    return { ok: true, ms: performance.now() - started };
  }
  if (mode === "typecheck") {
    const started = performance.now();
    const found = fs.statSync(target).isDirectory() ? typeCheckPackages([target]).get(target)! : fileDiagnostics(target);
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
process.stdout.write(`\n${JSON.stringify({ ...report, maxRssKiB: process.resourceUsage().maxRSS })}\n`);
