/**
 * Regenerating into a package a team works in, as a team does: generate, `npm install` from the
 * registry (node_modules, package-lock.json, and npm's own rewrite of package.json for a
 * dependency it adds), a build's output, a file and package.json fields of the team's; then
 * regenerate from a changed contract. What the generator wrote follows the contract; the rest
 * stays; `--check` compares only what the generator owns. `dist/` is written by hand: a build
 * makes nothing there the generator treats differently from any other file of the team's.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { MANIFEST_PATH } from "../../generator/write/index.ts";
import { expectSuccess, remove, run, scratch, toolEnv } from "../publish/support.ts";
import { repoRoot } from "../support/prism.ts";

const work = scratch("regenerate-");
afterAll(() => remove(work));

const out = path.join(work, "client");
const v1 = path.join(repoRoot, "test/fixtures/contracts/event-streams.yaml");
// The next version answers plain text where it streamed events: no event-stream runtime, no eventsource-parser.
const v2 = path.join(work, "event-streams-1.1.yaml");
fs.writeFileSync(v2, fs.readFileSync(v1, "utf8").replaceAll("text/event-stream", "text/plain").replace(/^ {2}version: 1\.0\.0$/m, "  version: 1.1.0"));

function generate(spec: string, ...more: string[]) {
  return run(process.execPath, [path.join(repoRoot, "generator/run.mjs"), "--spec", spec, "--out", out, ...more], { cwd: repoRoot, env: toolEnv() });
}
const read = (relative: string) => fs.readFileSync(path.join(out, relative), "utf8");
const packageJson = () => JSON.parse(read("package.json"));

describe("regenerating in place", { timeout: 240_000 }, () => {
  it("keeps node_modules, the lock file, dist, the team's files and package.json fields; follows the contract in its own files", async () => {
    expectSuccess(await generate(v1), "generate v1");
    expect(fs.existsSync(path.join(out, "src/runtime/server-sent-events/index.ts"))).toBe(true);
    expect(packageJson().dependencies).toHaveProperty("eventsource-parser");

    // The team's workflow: install (adding a dependency of its own), build, add a file and fields.
    expectSuccess(await run("npm", ["install", "--ignore-scripts", "left-pad@1.3.0"], { cwd: out, env: toolEnv(), timeoutMs: 180_000 }), "npm install");
    expectSuccess(await run("npm", ["pkg", "set", "scripts.lint=eslint .", "publishConfig.access=public"], { cwd: out, env: toolEnv() }), "npm pkg set");
    fs.mkdirSync(path.join(out, "dist"));
    fs.writeFileSync(path.join(out, "dist/index.js"), "export {};\n");
    fs.writeFileSync(path.join(out, "NOTES.md"), "Ours.\n");
    const lock = read("package-lock.json");
    const installed = fs.readdirSync(path.join(out, "node_modules")).sort();
    expect(installed).toEqual(expect.arrayContaining(["eventsource-parser", "left-pad", "openapi-fetch"]));

    // Nothing the team did is drift.
    const unchanged = await generate(v1, "--check");
    expect(unchanged.code, unchanged.stderr).toBe(0);

    expectSuccess(await generate(v2), "generate v2");
    expect(read("package-lock.json")).toBe(lock);
    expect(fs.readdirSync(path.join(out, "node_modules")).sort()).toEqual(installed);
    expect(read("dist/index.js")).toBe("export {};\n");
    expect(read("NOTES.md")).toBe("Ours.\n");
    const manifest = packageJson();
    expect(manifest.version).toBe("1.1.0");
    expect(manifest.dependencies).toEqual({ "left-pad": "^1.3.0", "openapi-fetch": expect.any(String) });
    expect(manifest.scripts.lint).toBe("eslint .");
    expect(manifest.scripts.build).toBeDefined();
    expect(manifest.publishConfig).toEqual({ access: "public" });
    expect(fs.existsSync(path.join(out, "src/runtime/server-sent-events"))).toBe(false);
    const owned: string[] = JSON.parse(read(MANIFEST_PATH)).files;
    expect(owned).toContain("src/client.ts");
    expect(owned.filter((file) => /server-sent-events|NOTES|\block|dist\//.test(file))).toEqual([]);

    const matches = await generate(v2, "--check");
    expect(matches.code, matches.stderr).toBe(0);

    // A package generated before the manifest existed: the generated headers say what is the generator's.
    fs.rmSync(path.join(out, MANIFEST_PATH));
    const stale = path.join(out, "src/runtime/stale.ts");
    fs.writeFileSync(stale, read("src/runtime/auth.ts"));
    expectSuccess(await generate(v2), "generate v2 without a manifest");
    expect(fs.existsSync(stale)).toBe(false);
    expect(JSON.parse(read(MANIFEST_PATH)).files).toEqual(owned);
    expect([read("NOTES.md"), read("package-lock.json"), packageJson().publishConfig]).toEqual(["Ours.\n", lock, { access: "public" }]);
    fs.appendFileSync(path.join(out, "src/client.ts"), "// a hand edit\n");
    const drift = await generate(v2, "--check");
    expect(drift.code).toBe(1);
    expect(drift.stderr).toContain("changed: src/client.ts");
    expect(drift.stderr).not.toMatch(/NOTES|package-lock|dist|node_modules|package\.json/);
  });
});
