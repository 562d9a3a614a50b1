/**
 * The generated package as a consumer gets it: generated from the contract, built with its own
 * `npm run build` (ESM + CommonJS), packed with `npm pack`, installed from the tarball into a fresh
 * project outside the repository (its dependencies from the npm cache or registry), type-checked
 * (strict, NodeNext) by a consumer that calls every operation, and run against Prism, from ESM and
 * from CommonJS.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateFiles, type Generated } from "../../generator/generate.ts";
import { writeOutput } from "../../generator/write/index.ts";
import { contractPath, repoRoot, startPrism, type RunningPrism } from "../support/prism.ts";
import { modelEndpointsOf } from "../../generator/extensions/model-endpoints/model.ts";
import {
  BUILD_TIMEOUT_MS,
  buildPackage,
  CONSUMER_TSCONFIG,
  consumerCjsSource,
  consumerProject,
  consumerSource,
  expectSuccess,
  packPackage,
  readmeExamplesSource,
  remove,
  run,
  scratch,
  toolEnv,
  type Packed,
} from "./support.ts";

let work: string | undefined;
let consumer: string | undefined;
let prism: RunningPrism | undefined;
let prismStarting: Promise<RunningPrism> | undefined;
let generated: Generated;
let packageDir: string;
let packed: Packed;
let manifest: any;

beforeAll(async () => {
  // Inside the repository (.tmp/, gitignored) so the package's build finds the workspace's TypeScript and types.
  work = scratch("pack-", true);
  packageDir = path.join(work, "package");
  // Started now, awaited last; afterAll waits for it, so a failure in between cannot leak the process.
  prismStarting = startPrism().then((running) => (prism = running));
  prismStarting.catch(() => undefined);
  generated = await generateFiles({ spec: contractPath, out: packageDir });
  await writeOutput(packageDir, generated.files);
  await buildPackage(packageDir);
  packed = await packPackage(packageDir, work);
  manifest = JSON.parse(fs.readFileSync(path.join(packageDir, "package.json"), "utf8"));

  // A fresh project outside the repository: nothing from the workspace's node_modules can leak in.
  consumer = consumerProject(scratch("gpu-consumer-"));
  expectSuccess(
    await run("npm", ["install", packed.tarball, "--prefer-offline", "--no-audit", "--no-fund"], { cwd: consumer, env: toolEnv(), timeoutMs: 120_000 }),
    "npm install <tarball>",
  );
  await prismStarting;
}, 2 * BUILD_TIMEOUT_MS);

afterAll(async () => {
  await prismStarting?.catch(() => undefined);
  await prism?.stop();
  remove(consumer);
  remove(work);
});

describe("npm pack", () => {
  it("ships the built ESM and CommonJS entry points, the README and the LICENSE, and no build or test files", () => {
    for (const file of ["package.json", "README.md", "LICENSE", "dist/index.js", "dist/index.d.ts", "dist/cjs/index.js", "dist/cjs/index.d.ts", "dist/cjs/package.json", "src/index.ts"]) {
      expect(packed.files, file).toContain(file);
    }
    expect(packed.files.filter((f) => /^(node_modules|test|\.tmp)\/|^tsconfig|\.tgz$/.test(f))).toEqual([]);
    // Every entry of `files` is shipped (a CHANGELOG.md is listed only when the contract has one).
    for (const entry of manifest.files as string[]) expect(packed.files.some((f) => f === entry || f.startsWith(`${entry}/`)), entry).toBe(true);
    // Every file the manifest points at is in the tarball.
    const targets: string[] = [];
    const collect = (value: unknown) => {
      if (typeof value === "string" && value.startsWith("./")) targets.push(value.slice(2));
      else if (value && typeof value === "object") Object.values(value).forEach(collect);
    };
    [manifest.main, manifest.module, manifest.types, manifest.bin, manifest.exports].forEach(collect);
    expect(targets.length).toBeGreaterThan(4);
    for (const target of targets) expect(packed.files, target).toContain(target);
  });

  it("has a manifest a registry and a bundler can use", () => {
    expect(manifest.name).toBe("gpu-cloud-client");
    expect(manifest.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(manifest).toMatchObject({ license: "MIT", type: "module", sideEffects: false, engines: { node: ">=20" } });
    expect(manifest.exports["."]).toEqual({
      import: { types: "./dist/index.d.ts", default: "./dist/index.js" },
      require: { types: "./dist/cjs/index.d.ts", default: "./dist/cjs/index.js" },
    });
    // openapi-fetch, and the event-stream parser because this contract has log streams.
    expect(Object.keys(manifest.dependencies).sort()).toEqual(["eventsource-parser", "openapi-fetch"]);
    expect(JSON.parse(fs.readFileSync(path.join(packageDir, "dist/cjs/package.json"), "utf8"))).toEqual({ type: "commonjs" });
    expect(fs.readFileSync(path.join(packageDir, "LICENSE"), "utf8")).toMatch(/^MIT License\n\nCopyright \(c\) .+\n\nPermission is hereby granted/);
  });

  it("has a README with install, the key, and one example per operation and per model", () => {
    const readme = fs.readFileSync(path.join(consumer!, "node_modules/gpu-cloud-client/README.md"), "utf8");
    expect(readme).toContain("npm install gpu-cloud-client");
    expect(readme).toContain(generated.api.apiKeyEnvVar);
    const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)\n```/g)].map((m) => m[1]!);
    for (const operation of generated.api.operations) {
      expect(blocks.some((b) => b.includes(`client.${operation.methodName}(`)), operation.methodName).toBe(true);
    }
    for (const endpoint of (modelEndpointsOf(generated.api)?.endpoints ?? [])) {
      expect(blocks.some((b) => b.includes(`client.runModelSync(${JSON.stringify(endpoint.id)}`)), endpoint.id).toBe(true);
    }
    // Contract text is not HTML-escaped in Markdown.
    expect(readme).not.toMatch(/&#x27;|&quot;|&amp;/);
  });
});

describe("a consumer project with the tarball installed", { timeout: 150_000 }, () => {
  let compiled: Promise<void> | undefined;
  const compile = () =>
    (compiled ??= (async () => {
      fs.writeFileSync(path.join(consumer!, "consumer.ts"), consumerSource(generated, manifest.name));
      fs.writeFileSync(path.join(consumer!, "consumer-cjs.cts"), consumerCjsSource(generated, manifest.name));
      const readme = fs.readFileSync(path.join(consumer!, "node_modules", manifest.name, "README.md"), "utf8");
      fs.writeFileSync(path.join(consumer!, "readme-examples.ts"), readmeExamplesSource(readme, generated.api.names.client));
      fs.writeFileSync(path.join(consumer!, "tsconfig.json"), JSON.stringify({ ...CONSUMER_TSCONFIG, files: ["consumer.ts", "consumer-cjs.cts", "readme-examples.ts"] }, null, 2));
      const tsc = path.join(repoRoot, "node_modules", "typescript", "bin", "tsc");
      expectSuccess(await run(process.execPath, [tsc, "-p", "tsconfig.json"], { cwd: consumer!, timeoutMs: BUILD_TIMEOUT_MS }), "tsc (strict, NodeNext) on the consumer");
    })());

  it("type-checks (strict, NodeNext, lib checks on) a consumer that calls every operation, rejects wrong calls, and the README's examples", async () => {
    await compile();
    const examples = fs.readFileSync(path.join(consumer!, "readme-examples.ts"), "utf8");
    for (const operation of generated.api.operations) expect(examples).toContain(`client.${operation.methodName}(`);
    expect(fs.existsSync(path.join(consumer!, "out/consumer.js"))).toBe(true);
    expect(fs.existsSync(path.join(consumer!, "out/consumer-cjs.cjs"))).toBe(true);
  }, BUILD_TIMEOUT_MS);

  it("the README's own tsconfig.json compiles the README's examples, with nothing added", async () => {
    await compile();
    const readme = fs.readFileSync(path.join(consumer!, "node_modules", manifest.name, "README.md"), "utf8");
    const given = JSON.parse(/TypeScript:[\s\S]*?```json\n([\s\S]*?)```/.exec(readme)![1]!);
    expect(given.compilerOptions.strict).toBe(true);
    fs.writeFileSync(path.join(consumer!, "tsconfig.readme.json"), JSON.stringify({ ...given, compilerOptions: { ...given.compilerOptions, noEmit: true }, files: ["readme-examples.ts"] }, null, 2));
    const tsc = path.join(repoRoot, "node_modules", "typescript", "bin", "tsc");
    expectSuccess(await run(process.execPath, [tsc, "-p", "tsconfig.readme.json"], { cwd: consumer!, timeoutMs: BUILD_TIMEOUT_MS }), "tsc with the README's tsconfig.json");
  }, BUILD_TIMEOUT_MS);

  it("type-checks in an older setup (moduleResolution node10) with exactOptionalPropertyTypes, the validators entry point included", async () => {
    const className = generated.api.names.client;
    fs.writeFileSync(
      path.join(consumer!, "legacy.ts"),
      [
        `import { ${className}, type ${className}Options } from ${JSON.stringify(manifest.name)};`,
        `import { isPod } from ${JSON.stringify(`${manifest.name}/validators`)};`,
        "declare const fromEnvironment: string | undefined;",
        `const options: ${className}Options = { apiKey: fromEnvironment, timeoutMs: undefined, validateResponses: undefined };`,
        `export const client = new ${className}(options);`,
        "export const guard: (value: unknown) => boolean = isPod;",
        "",
      ].join("\n"),
    );
    const legacy = {
      compilerOptions: { ...CONSUMER_TSCONFIG.compilerOptions, module: "CommonJS", moduleResolution: "Node10", exactOptionalPropertyTypes: true, noEmit: true, ignoreDeprecations: "5.0" },
      files: ["legacy.ts"],
    };
    fs.writeFileSync(path.join(consumer!, "tsconfig.legacy.json"), JSON.stringify(legacy, null, 2));
    const tsc = path.join(repoRoot, "node_modules", "typescript", "bin", "tsc");
    expectSuccess(await run(process.execPath, [tsc, "-p", "tsconfig.legacy.json"], { cwd: consumer!, timeoutMs: BUILD_TIMEOUT_MS }), "tsc (node10, exactOptionalPropertyTypes) on legacy.ts");
  }, BUILD_TIMEOUT_MS);

  it("runs it with node (ESM) against Prism: every operation succeeds, and errors are the package's classes", async () => {
    await compile();
    const result = expectSuccess(await run(process.execPath, ["out/consumer.js"], { cwd: consumer!, env: { ...process.env, PRISM_URL: prism!.baseUrl }, timeoutMs: 60_000 }), "node out/consumer.js");
    const report = JSON.parse(result.stdout.trim().split("\n").at(-1)!);
    expect(report.calls.map((c: { operation: string }) => c.operation)).toEqual(generated.api.operations.map((o) => o.methodName));
    for (const call of report.calls) {
      expect(call.status, call.operation).toBeGreaterThanOrEqual(200);
      expect(call.status, call.operation).toBeLessThan(300);
    }
    expect(report.thrown).toMatchObject({ status: 401, isApiError: true, isBase: true });
    expect(report.resolved).toMatch(/\/node_modules\/gpu-cloud-client\/dist\/index\.js$/);
    // The validators entry point, and a call that loads the response validators on demand.
    expect(report.guard).toBe("function");
    expect(report.validators).toMatch(/\/node_modules\/gpu-cloud-client\/dist\/validators\.js$/);
    expect(report.validated).toBe(200);
  });

  it("require()s it from CommonJS, with the CommonJS build and its types", async () => {
    await compile();
    const result = expectSuccess(await run(process.execPath, ["out/consumer-cjs.cjs"], { cwd: consumer!, env: { ...process.env, PRISM_URL: prism!.baseUrl }, timeoutMs: 60_000 }), "node out/consumer-cjs.cjs");
    const report = JSON.parse(result.stdout.trim().split("\n").at(-1)!);
    expect(report.status).toBeGreaterThanOrEqual(200);
    expect(report.status).toBeLessThan(300);
    expect(report.apiError).toBe("function");
    expect(report.guard).toBe("function");
    expect(report.validated).toBe(200);
    expect(report.resolved).toMatch(/\/node_modules\/gpu-cloud-client\/dist\/cjs\/index\.js$/);
    // And plain require() of the package from a .cjs file, no TypeScript involved.
    fs.writeFileSync(path.join(consumer!, "plain.cjs"), `const m = require(${JSON.stringify(manifest.name)}); console.log(Object.keys(m).length, typeof m.GpuCloudClient);\n`);
    const plain = expectSuccess(await run(process.execPath, ["plain.cjs"], { cwd: consumer! }), "node plain.cjs");
    expect(plain.stdout.trim()).toMatch(/^\d+ function$/);
  });

  it("answers a call through the installed test kit (`/testing`), from ESM and from CommonJS, a 429's 12 s on the kit's clock", async () => {
    const script = (load: string) =>
      [
        load,
        "const kit = testing.createTestFetch();",
        `const client = new main.GpuCloudClient({ apiKey: "k", fetch: kit.fetch, clock: kit.clock });`,
        `kit.answer("listPods", { retryAfterSeconds: 12 });`,
        "client.listPods().then((result) => console.log(result.status, kit.clock.elapsedMs, kit.requests.length));",
        "",
      ].join("\n");
    fs.writeFileSync(path.join(consumer!, "kit.mjs"), script(`import * as main from ${JSON.stringify(manifest.name)}; import * as testing from ${JSON.stringify(`${manifest.name}/testing`)};`));
    fs.writeFileSync(path.join(consumer!, "kit.cjs"), script(`const main = require(${JSON.stringify(manifest.name)}); const testing = require(${JSON.stringify(`${manifest.name}/testing`)});`));
    for (const file of ["kit.mjs", "kit.cjs"]) {
      const result = expectSuccess(await run(process.execPath, [file], { cwd: consumer!, timeoutMs: 60_000 }), `node ${file}`);
      expect(result.stdout.trim(), file).toBe("200 12000 2");
    }
  });
});
