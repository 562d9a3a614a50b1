/**
 * Published for real: verdaccio (from node_modules, loopback, storage in a temporary folder, no
 * uplinks) receives the package from `scripts/release.mjs` (the `npm run release` script, with
 * --skip-tests so it does not run this suite inside itself), which must first refuse a package that
 * drifts from the contract, failing tests and a version already published. Then a fresh project
 * installs the package from that registry and calls the API (Prism) with it.
 *
 * The consumer's other dependency (openapi-fetch) comes from the usual
 * registry through the npm cache (--prefer-offline), installed first; only our package comes from
 * verdaccio (`npm install gpu-cloud-client@<version> --registry <verdaccio>`). So the registry needs
 * no uplink and no network, and the package installed can only be the one just published: a
 * proxying registry could serve a same-named package from npmjs.org instead.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateFiles } from "../../generator/generate.ts";
import { writeOutput, type OutputFile } from "../../generator/write/index.ts";
import { contractPath, repoRoot, startPrism, type RunningPrism } from "../support/prism.ts";
import { BUILD_TIMEOUT_MS, consumerProject, expectSuccess, remove, run, scratch, startVerdaccio, toolEnv, type RunningRegistry } from "./support.ts";

let registryDir: string | undefined;
let work: string | undefined;
let consumer: string | undefined;
let registry: RunningRegistry | undefined;
let prism: RunningPrism | undefined;
let prismStarting: Promise<RunningPrism> | undefined;
let out: string;
let files: OutputFile[];
let manifest: { name: string; version: string; dependencies: Record<string, string> };

/** `npm run release -- …` as a user runs it (the script, with node), authenticated by the temporary .npmrc only. */
function release(...args: string[]) {
  return run(process.execPath, [path.join(repoRoot, "scripts/release.mjs"), "--registry", registry!.url, "--out", out, ...args], {
    cwd: repoRoot,
    env: toolEnv({ NPM_CONFIG_USERCONFIG: registry!.npmrc }),
    timeoutMs: BUILD_TIMEOUT_MS,
  });
}

async function published(): Promise<{ status: number; body: any }> {
  const response = await fetch(`${registry!.url}${manifest.name}`);
  return { status: response.status, body: await response.json() };
}

beforeAll(async () => {
  registryDir = scratch("verdaccio-");
  // The package folder the release script publishes, generated afresh (in .tmp/ so its build finds the workspace's TypeScript).
  work = scratch("release-", true);
  out = path.join(work, "gpu-cloud-client");
  // Started now, awaited last; afterAll waits for it, so a failure in between cannot leak the process.
  prismStarting = startPrism().then((running) => (prism = running));
  prismStarting.catch(() => undefined);
  ({ files } = await generateFiles({ spec: contractPath, out }));
  await writeOutput(out, files);
  manifest = JSON.parse(fs.readFileSync(path.join(out, "package.json"), "utf8"));
  registry = await startVerdaccio(registryDir);
  await prismStarting;
}, 120_000);

afterAll(async () => {
  await prismStarting?.catch(() => undefined);
  await registry?.stop();
  await prism?.stop();
  remove(consumer);
  remove(work);
  remove(registryDir);
});

describe("npm run release", { timeout: BUILD_TIMEOUT_MS + 60_000 }, () => {
  it("refuses a package that drifts from the contract, and publishes nothing", async () => {
    const client = path.join(out, "src/client.ts");
    fs.appendFileSync(client, "// a hand edit\n");
    try {
      const result = await release("--skip-tests");
      expect(result.code, result.stdout + result.stderr).toBe(1);
      expect(result.stderr).toContain("drifts from the contract");
      expect(result.stderr).toContain("changed: src/client.ts");
      expect((await published()).status).toBe(404);
    } finally {
      await writeOutput(out, files);
    }
  });

  it("refuses when the tests fail, and publishes nothing", async () => {
    const result = await release("--test-command", `"${process.execPath}" -e "process.exit(3)"`);
    expect(result.code, result.stdout + result.stderr).toBe(1);
    expect(result.stderr).toContain("the tests failed");
    expect((await published()).status).toBe(404);
  });

  it("--dry-run builds and goes through npm publish --dry-run without publishing", async () => {
    const result = await release("--skip-tests", "--dry-run");
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toContain(`dry run: ${manifest.name}@${manifest.version} would be published`);
    expect((await published()).status).toBe(404);
  });

  it("publishes the built package to the registry with npm publish", async () => {
    const result = await release("--skip-tests");
    expect(result.code, result.stdout + result.stderr).toBe(0);
    const { status, body } = await published();
    expect(status).toBe(200);
    expect(body["dist-tags"].latest).toBe(manifest.version);
    expect(body.versions[manifest.version].dist.integrity).toMatch(/^sha512-/);
    expect(body.versions[manifest.version].exports["."].require.default).toBe("./dist/cjs/index.js");
  });

  it("refuses to publish the same version twice", async () => {
    const result = await release("--skip-tests");
    expect(result.code, result.stdout + result.stderr).toBe(1);
    expect(result.stderr).toContain(`${manifest.name}@${manifest.version} is already on the registry`);
  });
});

describe("a project installing the package from the registry", { timeout: 150_000 }, () => {
  it("installs it from there and uses it against the API", async () => {
    consumer = consumerProject(scratch("gpu-registry-consumer-"));
    // Dependencies first, from the usual registry (the npm cache has them).
    const dependencies = Object.entries(manifest.dependencies).map(([name, range]) => `${name}@${range}`);
    expectSuccess(await run("npm", ["install", ...dependencies, "--prefer-offline", "--no-audit", "--no-fund"], { cwd: consumer, env: toolEnv(), timeoutMs: 120_000 }), "npm install <dependencies>");
    // Then the package, from verdaccio only.
    expectSuccess(
      await run("npm", ["install", `${manifest.name}@${manifest.version}`, "--registry", registry!.url, "--no-audit", "--no-fund"], {
        cwd: consumer,
        env: toolEnv({ NPM_CONFIG_USERCONFIG: registry!.npmrc }),
        timeoutMs: 120_000,
      }),
      "npm install from verdaccio",
    );
    // The tarball installed is the one the registry holds.
    const lock = JSON.parse(fs.readFileSync(path.join(consumer, "package-lock.json"), "utf8"));
    const entry = lock.packages[`node_modules/${manifest.name}`];
    expect(entry, JSON.stringify(lock.packages)).toMatchObject({ version: manifest.version, integrity: (await published()).body.versions[manifest.version].dist.integrity });
    if (entry.resolved) expect(entry.resolved.startsWith(registry!.url)).toBe(true);

    fs.writeFileSync(
      path.join(consumer, "use.mjs"),
      [
        `import { GpuCloudClient, ApiError } from ${JSON.stringify(manifest.name)};`,
        "const url = process.env.PRISM_URL;",
        'const client = new GpuCloudClient({ apiKey: "registry-key", baseUrl: url, publicEndpointBaseUrl: url, maxRetries: 0 });',
        "const { status, data } = await client.listPods();",
        "console.log(JSON.stringify({ status, pods: Array.isArray(data.pods), apiError: typeof ApiError }));",
        "",
      ].join("\n"),
    );
    const result = expectSuccess(await run(process.execPath, ["use.mjs"], { cwd: consumer, env: { ...process.env, PRISM_URL: prism!.baseUrl } }), "node use.mjs");
    expect(JSON.parse(result.stdout.trim())).toEqual({ status: 200, pods: true, apiError: "function" });
  });
});
