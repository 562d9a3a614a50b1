/**
 * The generated package's `scripts/build-javascript.mjs`: the modules emitted as JavaScript with a
 * declaration file (the validators) reach dist/ as they are and dist/cjs/ as CommonJS, each with
 * its declarations; a module that does not parse fails the build, naming it.
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createRequire } from "node:module";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { repoRoot } from "../support/prism.ts";

const run = promisify(execFile);
const script = path.join(repoRoot, "generated/gpu-cloud-client/scripts/build-javascript.mjs");
const dirs: string[] = [];

afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

function packageWith(files: Record<string, string>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "build-javascript-"));
  dirs.push(dir);
  fs.mkdirSync(path.join(dir, "scripts"));
  fs.copyFileSync(script, path.join(dir, "scripts/build-javascript.mjs"));
  fs.symlinkSync(path.join(repoRoot, "node_modules"), path.join(dir, "node_modules"));
  fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ type: "module" }));
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
  return dir;
}

describe("scripts/build-javascript.mjs", () => {
  it("copies each module and its declarations into dist, and into dist/cjs as CommonJS", async () => {
    const dir = packageWith({
      "src/checks.js": 'import { helper } from "./runtime/helper.js";\nexport function isThing(value) {\n  return helper(value);\n}\n',
      "src/checks.d.ts": "export declare function isThing(value: unknown): boolean;\n",
      "src/runtime/helper.js": "export function helper(value) {\n  return typeof value === \"string\";\n}\n",
      "src/types-only.ts": "export type T = string;\n",
    });
    await run(process.execPath, ["scripts/build-javascript.mjs", "esm"], { cwd: dir });
    await run(process.execPath, ["scripts/build-javascript.mjs", "cjs"], { cwd: dir });
    expect(fs.readFileSync(path.join(dir, "dist/checks.js"), "utf8")).toBe(fs.readFileSync(path.join(dir, "src/checks.js"), "utf8"));
    expect(fs.readFileSync(path.join(dir, "dist/checks.d.ts"), "utf8")).toContain("isThing(value: unknown): boolean");
    expect(fs.existsSync(path.join(dir, "dist/cjs/checks.d.ts"))).toBe(true);
    // TypeScript files are tsc's to build, not this script's.
    expect(fs.existsSync(path.join(dir, "dist/types-only.ts"))).toBe(false);
    fs.writeFileSync(path.join(dir, "dist/cjs/package.json"), JSON.stringify({ type: "commonjs" }));
    const required = createRequire(path.join(dir, "dist/cjs/index.js"))("./checks.js") as { isThing: (value: unknown) => boolean };
    expect([required.isThing("a"), required.isThing(1)]).toEqual([true, false]);
  });

  it("fails on a module that does not parse, naming it, and refuses an unknown format", async () => {
    const dir = packageWith({ "src/broken.js": "export const x = ;\n" });
    const failed = await run(process.execPath, ["scripts/build-javascript.mjs", "cjs"], { cwd: dir }).then(() => undefined, (error: { code: number; stderr: string }) => error);
    expect(failed?.code).toBe(1);
    expect(failed?.stderr).toMatch(/src\/broken\.js: Expression expected/);
    const usage = await run(process.execPath, ["scripts/build-javascript.mjs", "umd"], { cwd: dir }).then(() => undefined, (error: { code: number; stderr: string }) => error);
    expect(usage?.code).toBe(2);
    expect(usage?.stderr).toContain("usage: node scripts/build-javascript.mjs esm|cjs");
  });
});
