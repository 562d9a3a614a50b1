/**
 * A package generated from a contract without model endpoints is the generic core only: no job
 * helpers, no terminal command, no job runtime, no `@types/node`, no event-stream runtime or parser; and it builds on its own in a
 * fresh folder outside this workspace (`npm install && npm run build`, dependencies from the npm
 * registry), as a team that generated it would build it.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { generateFiles } from "../../generator/generate.ts";
import { writeOutput } from "../../generator/write/index.ts";
import { repoRoot } from "../support/prism.ts";
import { expectSuccess, remove, run, scratch } from "./support.ts";

const minimal = path.join(repoRoot, "test/fixtures/contracts/minimal.yaml");
let work: string | undefined;

afterAll(() => remove(work));

describe("a package without model endpoints", () => {
  it("carries no job code and builds in a fresh folder", async () => {
    const generated = await generateFiles({ spec: minimal });
    const paths = generated.files.map((file) => file.path);
    expect(paths.filter((file) => /jobs|model|bin\.ts|cli\.ts/.test(file))).toEqual([]);
    const source = (file: string) => generated.files.find((f) => f.path === file)!.contents;
    expect(source("src/client.ts")).not.toMatch(/runModel|ModelId|model-calls/);
    expect(source("src/operation-specs.ts")).not.toMatch(/checkParams|\$models/);
    expect(source("src/index.ts")).not.toMatch(/ServerWaitOptions|jobs|models/);
    const manifest = JSON.parse(generated.files.find((file) => file.path === "package.json")!.contents);
    expect(manifest.bin).toBeUndefined();
    expect(manifest.devDependencies).not.toHaveProperty("@types/node");
    // No event stream in the contract: no event-stream runtime, and no parser to install.
    expect(paths.filter((file) => file.includes("server-sent-events"))).toEqual([]);
    expect(Object.keys(manifest.dependencies)).toEqual(["openapi-fetch"]);
    const readme = generated.files.find((file) => file.path === "README.md")!.contents;
    expect(readme).not.toMatch(/runAndWait|Waiting for jobs|Terminal command|MODEL_ENDPOINTS/);

    work = scratch("standalone-");
    const out = path.join(work, "client");
    await writeOutput(out, generated.files);
    // Only the npm registry: the machine's npm installs the manifest's own dependencies.
    const env = { ...process.env, npm_config_update_notifier: "false", npm_config_fund: "false", npm_config_audit: "false", NO_COLOR: "1" };
    expectSuccess(await run("npm", ["install", "--no-package-lock"], { cwd: out, env, timeoutMs: 300_000 }), "npm install");
    expectSuccess(await run("npm", ["run", "build"], { cwd: out, env, timeoutMs: 300_000 }), "npm run build");
    expect(fs.existsSync(path.join(out, "dist", "index.js"))).toBe(true);
    expect(fs.existsSync(path.join(out, "dist", "cjs", "index.js"))).toBe(true);
    expect(fs.existsSync(path.join(out, "dist", "index.d.ts"))).toBe(true);
  }, 600_000);
});
