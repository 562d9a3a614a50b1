/**
 * The client runs in a browser: its import graph from src/index.ts holds no Node-only module (esbuild,
 * platform "browser", every `node:` import and bare Node builtin recorded), and a bundle of it, loaded
 * by a page in headless Chromium, calls the API (Prism on loopback, which answers CORS).
 */
import fs from "node:fs";
import { builtinModules } from "node:module";
import path from "node:path";
import * as esbuild from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateFiles, type Generated } from "../../generator/generate.ts";
import { writeOutput } from "../../generator/write/index.ts";
import { contractPath, startPrism, type RunningPrism } from "../support/prism.ts";
import { CHROMIUM_MISSING, chromium, findChromium, remove, scratch } from "./support.ts";

const BUILTINS = new Set(builtinModules.filter((m) => !m.startsWith("_")));

/** Bundles `entry` for the browser and returns every Node builtin the graph imports, with its importer. */
export async function nodeImports(entry: string): Promise<{ imports: string[]; errors: string[] }> {
  const imports = new Set<string>();
  const result = await esbuild.build({
    entryPoints: [entry],
    bundle: true,
    platform: "browser",
    format: "esm",
    write: false,
    logLevel: "silent",
    plugins: [
      {
        name: "record-node-builtins",
        setup(build) {
          build.onResolve({ filter: /.*/ }, (args) => {
            const bare = args.path.replace(/^node:/, "").split("/")[0]!;
            if (args.path.startsWith("node:") || (BUILTINS.has(bare) && !args.path.startsWith("."))) {
              imports.add(`${args.path} (from ${path.basename(path.dirname(args.importer))}/${path.basename(args.importer)})`);
              return { path: args.path, external: true };
            }
            return undefined;
          });
        },
      },
    ],
  }).catch((error: esbuild.BuildFailure) => ({ errors: error.errors }));
  return { imports: [...imports].sort(), errors: result.errors.map((e) => e.text) };
}

let work: string | undefined;
let packageDir: string;
let generated: Generated;

beforeAll(async () => {
  work = scratch("browser-", true);
  packageDir = path.join(work, "package");
  generated = await generateFiles({ spec: contractPath, out: packageDir });
  await writeOutput(packageDir, generated.files);
});

afterAll(() => remove(work));

describe("the client in a browser bundle", () => {
  it("imports no Node-only module from src/index.ts (esbuild, platform browser)", async () => {
    const { imports, errors } = await nodeImports(path.join(packageDir, "src/index.ts"));
    expect(errors).toEqual([]);
    expect(imports).toEqual([]);
  });

  it("would notice one: a module importing node:fs, or a bare builtin, is reported", async () => {
    fs.writeFileSync(path.join(packageDir, "src/leaky.ts"), 'import { readFileSync } from "node:fs";\nimport { join } from "path";\nexport const leak = () => readFileSync(join("a", "b"));\n');
    fs.writeFileSync(path.join(packageDir, "src/leaky-index.ts"), 'export * from "./index.js";\nexport * from "./leaky.js";\n');
    const { imports } = await nodeImports(path.join(packageDir, "src/leaky-index.ts"));
    expect(imports).toEqual(["node:fs (from src/leaky.ts)", "path (from src/leaky.ts)"]);
  });
});

describe("the client in headless Chromium", () => {
  const binary = findChromium();
  let prism: RunningPrism | undefined;
  beforeAll(async () => {
    if (binary) prism = await startPrism();
  });
  afterAll(async () => {
    await prism?.stop();
  });

  it.skipIf(!binary)(`loads from a page and calls the API with fetch (${binary ? "chromium" : CHROMIUM_MISSING})`, { timeout: 90_000 }, async () => {
    const className = generated.api.names.client;
    const servers = generated.api.servers.map((s) => `${s.key}: url`).join(", ");
    const first = generated.api.operations.find((o) => !o.parameters.some((p) => p.required) && !o.requestBody)!;
    const app = [
      `import { ${className}, ApiError } from "./src/index.ts";`,
      `const url = ${JSON.stringify(prism!.baseUrl)};`,
      `const client = new ${className}({ apiKey: "browser-key", ${servers}, maxRetries: 0 });`,
      "const out = document.getElementById('out');",
      `client.${first.methodName}().then(`,
      "  (r) => { out.textContent = JSON.stringify({ status: r.status, data: typeof r.data, rateLimit: r.rateLimit !== undefined, env: typeof process }); },",
      "  (e) => { out.textContent = JSON.stringify({ error: String(e), apiError: e instanceof ApiError }); },",
      ");",
    ].join("\n");
    fs.writeFileSync(path.join(packageDir, "app.ts"), app);
    await esbuild.build({ entryPoints: [path.join(packageDir, "app.ts")], bundle: true, platform: "browser", format: "iife", outfile: path.join(packageDir, "app.js"), logLevel: "silent" });
    fs.writeFileSync(path.join(packageDir, "page.html"), '<!doctype html><meta charset="utf-8"><title>client</title><pre id="out">pending</pre><script src="app.js"></script>\n');

    const result = await chromium(binary!, `file://${path.join(packageDir, "page.html")}`, ["--virtual-time-budget=15000", "--dump-dom"]);
    const text = /<pre id="out">([\s\S]*?)<\/pre>/.exec(result.stdout)?.[1];
    expect(text, `page did not finish:\n${result.stdout.slice(0, 2000)}\n${result.stderr.slice(-2000)}`).toBeDefined();
    const report = JSON.parse(text!.replace(/&quot;/g, '"').replace(/&amp;/g, "&"));
    expect(report).toEqual({ status: 200, data: "object", rateLimit: true, env: "undefined" });
  });
});
