/**
 * The generator on contracts of other shapes (test/fixtures/contracts): golden files for what the
 * generator computes (the runtime is a verbatim copy of templates/runtime, checked as such), strict
 * type-checking of each package, and for the servable ones, every operation called through the
 * generated client against Prism. The hostile contract must compile and run nothing.
 */
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runtimeFiles } from "../../generator/emit/runtime.ts";
import { generateFiles, type Generated } from "../../generator/generate.ts";
import { writeOutput } from "../../generator/write/index.ts";
import { repoRoot, startPrism, type RunningPrism } from "../support/prism.ts";
import { TYPE_CHECK_BUDGET_MS } from "../support/type-check.ts";

const fixturesDir = path.join(repoRoot, "test/fixtures/contracts");
const fixtures = fs.readdirSync(fixturesDir).filter((f) => f.endsWith(".yaml")).sort();
// Inside the repository so the generated packages resolve openapi-fetch from its node_modules.
const outRoot = path.join(repoRoot, ".tmp/fixtures");

/** Runtime files are templates/runtime copied verbatim: one assertion covers them, not a golden per fixture. */
function isRuntimeCopy(filePath: string): boolean {
  return filePath.startsWith("src/runtime/");
}

function strictDiagnostics(dir: string): string[] {
  const config = ts.readConfigFile(path.join(dir, "tsconfig.json"), ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, dir);
  const program = ts.createProgram(parsed.fileNames, { ...parsed.options, noEmit: true });
  return ts.getPreEmitDiagnostics(program).map((d) => `${d.file ? path.relative(dir, d.file.fileName) : ""}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`);
}

describe.each(fixtures)("fixture %s", (fixture) => {
  const name = fixture.replace(/\.yaml$/, "");
  const outDir = path.join(outRoot, name);
  let generated: Generated;

  beforeAll(async () => {
    generated = await generateFiles({ spec: path.join(fixturesDir, fixture), out: outDir });
    await writeOutput(outDir, generated.files);
  });

  it("matches its golden files", async () => {
    const computed = generated.files.filter((file) => !isRuntimeCopy(file.path));
    for (const file of computed) {
      await expect(file.contents).toMatchFileSnapshot(path.join(repoRoot, "test/golden", name, `${file.path}.golden`));
    }
    const goldens = fs.readdirSync(path.join(repoRoot, "test/golden", name), { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length;
    expect(goldens).toBe(computed.length);
  });

  it("copies every runtime template verbatim behind the generated-file header", () => {
    const header = generated.files.find((file) => file.path === "src/client.ts")!.contents.split("\n")[0] + "\n";
    const copies = generated.files.filter((file) => isRuntimeCopy(file.path));
    // An extension's runtime only where the contract uses it (models give the package its job helpers,
    // pods their helpers, event streams their reader), and the command registry only with a command.
    const has = (file: string) => generated.files.some((generatedFile) => generatedFile.path === file);
    const folders = generated.api.extensions.map((extension) => extension.name);
    expect(folders.includes("model-endpoints")).toBe(has("src/jobs.ts"));
    expect(folders.includes("pod-budget")).toBe(has("src/pods.ts"));
    const templates = runtimeFiles([...folders, ...(has("src/bin.ts") ? ["cli"] : [])]);
    expect(copies.map((file) => file.path).sort()).toEqual(templates.map((file) => file.path).sort());
    for (const template of templates) {
      expect(copies.find((file) => file.path === template.path)?.contents, template.path).toBe(header + template.contents);
    }
  });

  it("type-checks under strict with zero diagnostics", { timeout: TYPE_CHECK_BUDGET_MS }, () => {
    expect(strictDiagnostics(outDir)).toEqual([]);
  });

  it("loads without running anything from the contract", async () => {
    const global = globalThis as { pwned?: unknown };
    delete global.pwned;
    const module = await import(path.join(outDir, "src/index.ts"));
    const ClientClass = Object.values<any>(module).find((v) => typeof v === "function" && /Client$/.test(v.name));
    expect(ClientClass, "a client class is exported").toBeTypeOf("function");
    // A contract without security needs no option; one whose every operation needs a key, the key.
    const client = new ClientClass(generated.api.security.requiredEverywhere ? { apiKey: "k" } : {});
    for (const operation of generated.api.operations) expect(typeof client[operation.methodName], operation.methodName).toBe("function");
    expect(global.pwned).toBeUndefined();
  });
});

describe.each(["shapes.yaml", "minimal.yaml"])("the client generated from %s against Prism", (fixture) => {
  const name = fixture.replace(/\.yaml$/, "");
  let prism: RunningPrism;
  let generated: Generated;
  let client: any;

  beforeAll(async () => {
    generated = await generateFiles({ spec: path.join(fixturesDir, fixture) });
    const outDir = path.join(outRoot, `${name}-live`);
    await writeOutput(outDir, generated.files);
    prism = await startPrism(path.join(fixturesDir, fixture));
    const module = await import(path.join(outDir, "src/index.ts"));
    const ClientClass = Object.values<any>(module).find((v) => typeof v === "function" && /Client$/.test(v.name));
    const servers = Object.fromEntries(generated.api.servers.map((s) => [s.key, prism.baseUrl]));
    const credentials = generated.api.security.schemes.length > 0 ? { apiKey: "fixture-key" } : {};
    client = new ClientClass({ ...credentials, maxRetries: 0, ...servers });
  });
  afterAll(async () => {
    await prism?.stop();
  });

  it("calls every operation with its documented example and gets a typed success", async () => {
    const results: string[] = [];
    for (const operation of generated.api.operations) {
      const params = operation.exampleParams;
      const args = params ? [structuredClone(params)] : [];
      // multipart and binary bodies: the contract's example is text; send it the way a user would.
      if (operation.requestBody?.mediaType === "multipart/form-data") {
        const body = (args[0] as any).body;
        for (const [key, value] of Object.entries(body)) if (typeof value === "string" && /file/i.test(key)) body[key] = new Blob([value], { type: "image/png" });
      }
      const result = await client[operation.methodName](...args);
      results.push(`${operation.operationId} ${result.status}`);
      expect(result.status, operation.operationId).toBeGreaterThanOrEqual(200);
      expect(result.status).toBeLessThan(300);
      if (operation.responseKind === "json") expect(result.data, operation.operationId).toBeTypeOf("object");
      if (operation.responseKind === "text") expect(result.data).toBeTypeOf("string");
      if (operation.responseKind === "blob") expect(result.data).toBeInstanceOf(Blob);
      if (operation.responseKind === "none") expect(result.data).toBeUndefined();
    }
    expect(results.length).toBe(generated.api.operations.length);
  });
});
