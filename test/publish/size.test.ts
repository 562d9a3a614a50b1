/**
 * The size budget: scripts/size.mjs bundles the client for the browser the way an app would (only
 * the per-model calls; then everything), prints minified and gzipped sizes, and exits 1 above the
 * budget recorded in scripts/size-budget.json.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateFiles } from "../../generator/generate.ts";
import { writeOutput } from "../../generator/write/index.ts";
import { contractPath, repoRoot } from "../support/prism.ts";
import { remove, run, scratch } from "./support.ts";

const script = path.join(repoRoot, "scripts/size.mjs");
let work: string | undefined;
let packageDir: string;

beforeAll(async () => {
  work = scratch("size-", true);
  packageDir = path.join(work, "gpu-cloud-client");
  const { files } = await generateFiles({ spec: contractPath, out: packageDir });
  await writeOutput(packageDir, files);
});

afterAll(() => remove(work));

describe("npm run size", () => {
  it("stays within the recorded budget, and prints both sizes of both bundles", async () => {
    const result = await run(process.execPath, [script, "--package", packageDir], { cwd: repoRoot, timeoutMs: 60_000 });
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toMatch(/models \(runModelSync[^)]*\)\s+[\d.]+ kB min \(budget [\d.]+ kB\)\s+[\d.]+ kB gzip/);
    expect(result.stdout).toMatch(/everything \(import \*\)\s+[\d.]+ kB min/);
  });

  it("measures real bundles: gzip below minified, the models-only app no bigger than everything", async () => {
    const result = await run(process.execPath, [script, "--package", packageDir, "--json"], { cwd: repoRoot, timeoutMs: 60_000 });
    const { sizes, problems } = JSON.parse(result.stdout);
    expect(problems).toEqual([]);
    for (const entry of ["models", "everything"]) {
      expect(sizes[entry].minified, entry).toBeGreaterThan(5_000);
      expect(sizes[entry].gzipped, entry).toBeLessThan(sizes[entry].minified);
    }
    expect(sizes.models.minified).toBeLessThanOrEqual(sizes.everything.minified);
  });

  it("exits 1 and names the bundle when a size passes its budget", async () => {
    const budget = path.join(work!, "tight-budget.json");
    const recorded = JSON.parse(fs.readFileSync(path.join(repoRoot, "scripts/size-budget.json"), "utf8"));
    recorded.entries.models.gzipped = 1_000;
    fs.writeFileSync(budget, JSON.stringify(recorded));
    const result = await run(process.execPath, [script, "--package", packageDir, "--budget", budget], { cwd: repoRoot, timeoutMs: 60_000 });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/models: gzipped [\d.]+ kB > budget 1\.0 kB/);
    expect(result.stderr).not.toContain("everything:");
  });
});
