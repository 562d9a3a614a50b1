/**
 * The corpus benchmark's quick mode, one document in this process: this generator (`generate`),
 * the package's strict type-check, openapi-typescript's Node API and the strict type-check of its
 * output. For acceptance and type-checks across the whole corpus, hours faster than a process per
 * step; its times are not a user's (no process start, a warm JIT) and its memory is the worker's,
 * so the report compares cost only on lines measured the full way (bench/corpus-measure.ts).
 *
 * The package runtime (`src/runtime/`) is the same for many documents and imports nothing outside
 * itself: each distinct runtime (its files' text without the header, and the compiler options) is
 * checked in full once per process; after that a package's own files are checked, the runtime's
 * declarations read but its bodies not checked again.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { generate } from "../generator/generate.ts";
import { GENERATED_MARK } from "../generator/write/header.ts";
import { typeCheckFile, typeCheckPackages } from "../test/corpus/typecheck.ts";
import { NODE_MODULES } from "./corpus-documents.ts";
import type { ToolResult, TypeCheckResult } from "./corpus-results.ts";
import { firstLine, openapiTypescriptTypes } from "./openapi-typescript-api.ts";

function files(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((name) => fs.statSync(path.join(dir, name)).isFile()).sort();
}

/** The runtime's identity: its files' text less the generated header line, and the package's compiler options. */
export function runtimeKey(packageDir: string): string {
  const hash = createHash("sha256");
  const config = ts.readConfigFile(path.join(packageDir, "tsconfig.json"), ts.sys.readFile).config;
  hash.update(JSON.stringify(config?.compilerOptions ?? {}));
  const runtime = path.join(packageDir, "src", "runtime");
  for (const name of files(runtime)) {
    const text = fs.readFileSync(path.join(runtime, name), "utf8");
    hash.update(`\0${name}\0${text.split("\n").filter((line) => !line.includes(GENERATED_MARK)).join("\n")}`);
  }
  return hash.digest("hex");
}

function checkResult(found: string[], started: number): TypeCheckResult {
  return { ok: found.length === 0, diagnostics: found.length, ...(found[0] ? { firstDiagnostic: found[0].slice(0, 200) } : {}), ms: Math.round(performance.now() - started), maxRssKiB: null };
}

/** Runtimes already checked in full by this process. */
const checkedRuntimes = new Set<string>();

export function typeCheckPackage(packageDir: string): TypeCheckResult {
  const started = performance.now();
  const key = runtimeKey(packageDir);
  const runtimeDir = `${path.join(packageDir, "src", "runtime")}${path.sep}`;
  const found = typeCheckPackages([packageDir], checkedRuntimes.has(key) ? (file) => !file.startsWith(runtimeDir) : undefined).get(packageDir)!;
  if (found.length === 0) checkedRuntimes.add(key);
  return checkResult(found, started);
}

function outputBytes(dir: string): number {
  return files(dir).reduce((sum, name) => sum + fs.statSync(path.join(dir, name)).size, 0);
}

/** Both tools on one document (a path under node_modules), their outputs written under `scratch` and removed. */
export async function measureInProcess(document: string, scratch: string): Promise<{ ours: ToolResult; ots: ToolResult }> {
  const spec = path.join(NODE_MODULES, document);
  const outDir = path.join(scratch, "ours");
  const otsFile = path.join(scratch, "ots", "schema.ts");
  try {
    let started = performance.now();
    let ours: ToolResult;
    try {
      await generate({ spec, out: outDir });
      ours = { accepted: true, ms: Math.round(performance.now() - started), maxRssKiB: null, outputBytes: outputBytes(path.join(outDir, "src")) };
      ours.typecheck = typeCheckPackage(outDir);
    } catch (error) {
      ours = { accepted: false, refusal: firstLine(error, spec).slice(0, 300), ms: null, maxRssKiB: null };
    }
    started = performance.now();
    const types = await openapiTypescriptTypes(spec);
    let ots: ToolResult;
    if (types.ok) {
      fs.mkdirSync(path.dirname(otsFile), { recursive: true });
      fs.writeFileSync(otsFile, types.text);
      ots = { accepted: true, ms: Math.round(performance.now() - started), maxRssKiB: null, outputBytes: Buffer.byteLength(types.text) };
      const checkStarted = performance.now();
      ots.typecheck = checkResult(typeCheckFile(otsFile), checkStarted);
    } else ots = { accepted: false, refusal: types.error.slice(0, 300), ms: null, maxRssKiB: null };
    return { ours, ots };
  } finally {
    fs.rmSync(outDir, { recursive: true, force: true });
    fs.rmSync(path.dirname(otsFile), { recursive: true, force: true });
  }
}
