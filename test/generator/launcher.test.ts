/**
 * `npm run generate` runs generator/run.mjs: the generator bundled once per version of its sources
 * (kept under node_modules/.cache), `src/schema.ts` emitted in a worker thread. These tests run it
 * in a scratch workspace (a copy of generator/, the rest linked) so they can change a source and
 * choose the bundle folder: the output must be what the sources give in-process, a changed source
 * must give a new bundle, concurrent first runs must share one, and the tsx fallback must agree.
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateFiles } from "../../generator/generate.ts";
import { MANIFEST_PATH } from "../../generator/write/index.ts";
import { repoRoot } from "../support/prism.ts";

const run = promisify(execFile);
const workspace = fs.mkdtempSync(path.join(os.tmpdir(), "launcher-"));
const bundles = path.join(workspace, ".bundles");
// Outside the workspace the launcher runs in: the README names a folder inside it by a relative path.
const outs = fs.mkdtempSync(path.join(os.tmpdir(), "launcher-out-"));
const contract = path.join(repoRoot, "openapi/openapi.yaml");

beforeAll(() => {
  fs.cpSync(path.join(repoRoot, "generator"), path.join(workspace, "generator"), { recursive: true });
  for (const linked of ["node_modules", "templates", "openapi"]) fs.symlinkSync(path.join(repoRoot, linked), path.join(workspace, linked));
  fs.copyFileSync(path.join(repoRoot, "package.json"), path.join(workspace, "package.json"));
});
afterAll(() => {
  fs.rmSync(workspace, { recursive: true, force: true });
  fs.rmSync(outs, { recursive: true, force: true });
});

async function launch(out: string, env: Record<string, string> = {}): Promise<{ stdout: string; stderr: string }> {
  return run(process.execPath, [path.join(workspace, "generator/run.mjs"), "--spec", contract, "--out", out], {
    cwd: workspace,
    env: { ...process.env, GPU_CLOUD_GENERATOR_CACHE: bundles, ...env },
  });
}

/** Every file under `dir`, by relative path; the folder's own path, which the README names, as `<out>`. */
function files(dir: string): Record<string, string> {
  const found: Record<string, string> = {};
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    // The manifest is the write stage's record of the files, not one of them.
    if (entry.isFile() && entry.name !== MANIFEST_PATH) {
      const full = path.join(entry.parentPath, entry.name);
      found[path.relative(dir, full)] = fs.readFileSync(full, "utf8").replaceAll(dir, "<out>");
    }
  }
  return found;
}

const bundleFolders = () => (fs.existsSync(bundles) ? fs.readdirSync(bundles).sort() : []);

describe("generator/run.mjs", { timeout: 120_000 }, () => {
  it("writes what the generator gives in-process, and bundles only once", async () => {
    const out = path.join(outs, "out-1");
    const expected = Object.fromEntries((await generateFiles({ spec: contract, out })).files.map((file) => [file.path, file.contents.replaceAll(out, "<out>")]));
    await launch(path.join(outs, "out-1"));
    expect(files(path.join(outs, "out-1"))).toEqual(expected);
    const [bundle] = bundleFolders();
    expect(bundleFolders()).toHaveLength(1);
    expect(fs.readdirSync(path.join(bundles, bundle!)).sort()).toEqual(["cli.mjs", "cli.mjs.map", "schema-types-worker.mjs", "schema-types-worker.mjs.map"]);
    // Redocly is in the bundle (one file to load); the emitters load no TypeScript compiler of their
    // own (openapi-typescript's, in the worker, is the only one).
    const cli = fs.readFileSync(path.join(bundles, bundle!, "cli.mjs"), "utf8");
    expect(cli).not.toMatch(/from "@redocly\/openapi-core"/);
    expect(cli).not.toMatch(/ts-morph/);

    const builtAt = fs.statSync(path.join(bundles, bundle!, "cli.mjs")).mtimeMs;
    await launch(path.join(outs, "out-2"));
    expect(files(path.join(outs, "out-2"))).toEqual(expected);
    expect(bundleFolders()).toEqual([bundle]);
    expect(fs.statSync(path.join(bundles, bundle!, "cli.mjs")).mtimeMs).toBe(builtAt);
  });

  it("bundles anew when a source changes", async () => {
    const before = bundleFolders();
    const model = path.join(workspace, "generator/model/index.ts");
    fs.appendFileSync(model, "\n// a change\n");
    await launch(path.join(outs, "out-3"));
    const after = bundleFolders();
    expect(after).toHaveLength(before.length + 1);
    expect(files(path.join(outs, "out-3"))).toEqual(files(path.join(outs, "out-1")));
  });

  it("lets concurrent first runs share one bundle, leaving nothing half-built", async () => {
    fs.rmSync(bundles, { recursive: true, force: true });
    await Promise.all([launch(path.join(outs, "out-4")), launch(path.join(outs, "out-5")), launch(path.join(outs, "out-6"))]);
    expect(bundleFolders()).toHaveLength(1);
    for (const out of ["out-4", "out-5", "out-6"]) expect(files(path.join(outs, out))).toEqual(files(path.join(outs, "out-1")));
  });

  it("runs the sources through tsx on request, with the same output", async () => {
    fs.rmSync(bundles, { recursive: true, force: true });
    await launch(path.join(outs, "out-7"), { GPU_CLOUD_GENERATOR_FROM_SOURCES: "1" });
    expect(bundleFolders()).toEqual([]);
    expect(files(path.join(outs, "out-7"))).toEqual(files(path.join(outs, "out-1")));
  });

  it("reports an error of the worker's emitter as the run's error", async () => {
    // The loader refuses what openapi-typescript would choke on, so break the worker itself.
    fs.writeFileSync(path.join(workspace, "generator/emit/schema-types/worker.ts"), 'throw new Error("worker broke");\n');
    const failure = await launch(path.join(outs, "out-8")).then(
      () => undefined,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failure?.code).toBe(1);
    expect(failure?.stderr).toBe("error: the type emitter's worker failed: worker broke\n");
    expect(fs.existsSync(path.join(outs, "out-8"))).toBe(false);
  });

  it("reports what openapi-typescript refuses in the worker as one located line", async () => {
    const worker = "generator/emit/schema-types/worker.ts";
    fs.copyFileSync(path.join(repoRoot, worker), path.join(workspace, worker));
    // The load stage refuses a schema that is not one; past it (broken in this copy, in the
    // worker), openapi-typescript meets it and throws its own error.
    const emitter = path.join(workspace, "generator/emit/schema-types/index.ts");
    const source = fs.readFileSync(emitter, "utf8");
    const breakSchema = `  refsIntoParameters(document);\n  (document as any).paths["/b"].get.responses["200"].content["application/json"].schema = "broken";\n`;
    expect(source).toContain("  refsIntoParameters(document);\n");
    fs.writeFileSync(emitter, source.replace("  refsIntoParameters(document);\n", breakSchema));
    const renamed = path.join(workspace, "broken-in-worker.yaml");
    fs.writeFileSync(
      renamed,
      [
        "openapi: 3.1.0",
        'info: {title: Broken, version: "1"}',
        'servers: [{url: "https://broken.example.test"}]',
        "paths:",
        "  /b:",
        "    get:",
        "      operationId: getThing",
        "      responses:",
        '        "200": {description: ok, content: {application/json: {schema: {type: string}}}}',
        "",
      ].join("\n"),
    );
    const failure = await run(process.execPath, [path.join(workspace, "generator/run.mjs"), "--spec", renamed, "--out", path.join(outs, "out-9")], {
      cwd: workspace,
      env: { ...process.env, GPU_CLOUD_GENERATOR_CACHE: bundles },
    }).then(
      () => undefined,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failure?.code).toBe(1);
    expect(failure?.stderr).toBe(
      `error: ${renamed}#/paths/~1b/get/responses/200/content/application~1json: the type emitter (openapi-typescript) cannot process the document: Expected SchemaObject, received string\n`,
    );
  });
});
