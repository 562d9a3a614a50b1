/**
 * The built package on every runtime its users run: the smoke suite (test/runtimes/smoke-cases.mjs,
 * plain JavaScript on web APIs) imports its dist/ and runs unchanged on the workspace's Node (20),
 * Node 22 and 24, Deno and Bun, installed from the npm registry into test/runtimes/node_modules
 * (`npm run runtimes:install`, with install scripts off; .ci/run does it), and bundled into a page of
 * headless Chromium.
 * Deno runs with `--allow-read` only: the client must work without `--allow-env` or `--allow-net`.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import * as esbuild from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CASE_NAMES } from "../runtimes/smoke-cases.mjs";
import { repoRoot } from "../support/prism.ts";
import { BUILD_TIMEOUT_MS, CHROMIUM_MISSING, chromium, copyPackage, expectSuccess, findChromium, generatedPackage, remove, run, scratch, toolEnv } from "./support.ts";

const runtimesDir = path.join(repoRoot, "test", "runtimes");
const installed = path.join(runtimesDir, "node_modules");
const smokeScript = path.join(runtimesDir, "smoke.mjs");
const NOT_INSTALLED = "not installed: run `npm run runtimes:install` (the npm packages in test/runtimes/package.json)";

interface Runtime {
  name: string;
  /** The binary, or why there is none that runs here. */
  binary: string | { skip: string };
  args(script: string, entry: string): string[];
}

/** The first candidate that answers `--version`; else why none runs (missing, or failing here). */
function runnable(candidates: string[]): string | { skip: string } {
  const present = candidates.filter((candidate) => fs.existsSync(candidate));
  if (present.length === 0) return { skip: NOT_INSTALLED };
  const failures: string[] = [];
  for (const candidate of present) {
    const probe = spawnSync(candidate, ["--version"], { encoding: "utf8", timeout: 30_000 });
    if (probe.status === 0) return candidate;
    failures.push(`${path.relative(repoRoot, candidate)}: ${(probe.error?.message ?? probe.stderr ?? "").trim().split("\n")[0] || `exit ${probe.status}`}`);
  }
  return { skip: `installed but cannot run on this machine (${failures.join("; ")})` };
}

const nodeArgs = (script: string, entry: string) => [script, entry];
const arch = `${process.platform}-${process.arch}`;
const bunArch = `${process.platform}-${process.arch === "arm64" ? "aarch64" : process.arch}`;
const RUNTIMES: Runtime[] = [
  { name: `Node ${process.versions.node.split(".")[0]} (the workspace's)`, binary: process.execPath, args: nodeArgs },
  { name: "Node 22", binary: runnable([path.join(installed, "node22", "bin", "node")]), args: nodeArgs },
  { name: "Node 24", binary: runnable([path.join(installed, "node24", "bin", "node")]), args: nodeArgs },
  {
    name: "Deno",
    // The binary of the deno package's platform package (installed without scripts, the wrapper's link is not made).
    binary: runnable([path.join(installed, "@deno", `${arch}-glibc`, "deno"), path.join(installed, "@deno", arch, "deno"), path.join(installed, "deno", "deno")]),
    args: (script, entry) => ["run", "--no-lock", "--no-prompt", "--allow-read", script, entry],
  },
  {
    name: "Bun",
    // The binary of the bun package's platform package (installed without scripts, its postinstall does not move it to
    // bun/bin/bun.exe); a CPU without AVX2 needs the baseline build, a package of its own to add.
    binary: runnable([
      path.join(installed, "@oven", `bun-${bunArch}`, "bin", "bun"),
      path.join(installed, "@oven", `bun-${bunArch}-baseline`, "bin", "bun"),
      path.join(installed, "bun", "bin", "bun.exe"),
    ]),
    args: nodeArgs,
  },
];

let work: string | undefined;
let packageDir: string;
let entry: string;

beforeAll(async () => {
  // In the repository, so that the package's dependencies resolve from the workspace's node_modules.
  work = scratch("runtimes-", true);
  packageDir = copyPackage(generatedPackage, path.join(work, "package"));
  expectSuccess(await run("npm", ["run", "build:esm"], { cwd: packageDir, env: toolEnv(), timeoutMs: BUILD_TIMEOUT_MS }), "npm run build:esm");
  entry = path.join(packageDir, "dist", "index.js");
}, BUILD_TIMEOUT_MS);

afterAll(() => remove(work));

/** Each case's line, `ok - name` or `not ok - name`, in the order of CASE_NAMES (which cases did not report are missing). */
function caseLines(stdout: string): string[] {
  return stdout
    .split("\n")
    .filter((line) => /^(ok|not ok) - /.test(line))
    .map((line) => line.replace(/ # .*$/, ""));
}

const everyCaseOk = CASE_NAMES.map((name) => `ok - ${name}`);

describe("the smoke suite on each runtime", () => {
  it("has cases to run", () => {
    expect(CASE_NAMES.length).toBeGreaterThanOrEqual(10);
  });

  for (const runtime of RUNTIMES) {
    const skip = typeof runtime.binary === "string" ? undefined : runtime.binary.skip;
    it.skipIf(skip !== undefined)(`${runtime.name}${skip ? `: ${skip}` : ""}`, { timeout: 120_000 }, async () => {
      const binary = runtime.binary as string;
      const env = { ...toolEnv({ DENO_NO_UPDATE_CHECK: "1", DO_NOT_TRACK: "1" }) };
      // The client would read these: the suite gives its options itself.
      for (const name of Object.keys(env)) if (name.startsWith("GPU_CLOUD_")) delete env[name];
      const result = await run(binary, runtime.args(smokeScript, entry), { cwd: packageDir, env, timeoutMs: 90_000 });
      const output = `${result.stdout}\n${result.stderr}`;
      expect(caseLines(result.stdout), output).toEqual(everyCaseOk);
      expect(result.code, output).toBe(0);
    });
  }
});

describe("the smoke suite in headless Chromium", () => {
  const binary = findChromium();
  it.skipIf(!binary)(`runs every case in a page (${binary ? "chromium" : CHROMIUM_MISSING})`, { timeout: 120_000 }, async () => {
    const app = [
      `import * as pkg from ${JSON.stringify(entry)};`,
      `import { runSmokeCases } from ${JSON.stringify(path.join(runtimesDir, "smoke-cases.mjs"))};`,
      "const lines = [];",
      "runSmokeCases(pkg, ({ name, ok, detail }) => lines.push(`${ok ? 'ok' : 'not ok'} - ${name} # ${detail}`))",
      "  .then((failures) => { document.getElementById('out').textContent = lines.join('\\n') + `\\nfinished: ${failures} failed`; },",
      "        (error) => { document.getElementById('out').textContent = `crashed: ${error}`; });",
    ].join("\n");
    fs.writeFileSync(path.join(work!, "smoke-app.mjs"), app);
    await esbuild.build({ entryPoints: [path.join(work!, "smoke-app.mjs")], bundle: true, platform: "browser", format: "iife", outfile: path.join(work!, "smoke-app.js"), logLevel: "silent" });
    fs.writeFileSync(path.join(work!, "smoke.html"), '<!doctype html><meta charset="utf-8"><title>smoke</title><pre id="out">pending</pre><script src="smoke-app.js"></script>\n');

    const result = await chromium(binary!, `file://${path.join(work!, "smoke.html")}`, ["--virtual-time-budget=30000", "--dump-dom"], 90_000);
    const text = /<pre id="out">([\s\S]*?)<\/pre>/.exec(result.stdout)?.[1]?.replace(/&quot;/g, '"').replace(/&gt;/g, ">").replace(/&lt;/g, "<").replace(/&amp;/g, "&");
    expect(text, `page did not finish:\n${result.stdout.slice(0, 2000)}\n${result.stderr.slice(-2000)}`).toMatch(/finished: \d+ failed$/);
    expect(caseLines(text!), text).toEqual(everyCaseOk);
  });
});
