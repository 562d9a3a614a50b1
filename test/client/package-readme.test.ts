/**
 * The package README: its "Hooks, raw responses and logging" example run as written against Prism
 * (only the package import pointed at the generated source, the service's host at the mock),
 * checking what it printed and sent; its operation examples and models table read as text.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { readmeExamplesSource } from "../publish/support.ts";
import { fetchSentTo, repoRoot, startPrism, type RunningPrism } from "../support/prism.ts";
import { MODEL_ENDPOINTS } from "../../generated/gpu-cloud-client/src/index.ts";
import { TYPE_CHECK_BUDGET_MS } from "../support/type-check.ts";
import { typeCheckReadme, typeScriptBlocks } from "./readme-type-check.ts";

const readme = fs.readFileSync(path.join(repoRoot, "generated/gpu-cloud-client/README.md"), "utf8");
const start = readme.indexOf("## Hooks, raw responses and logging");
const section = readme.slice(start, readme.indexOf("\n## ", start + 1));
const example = /```ts\n([\s\S]*?)```/.exec(section)?.[1];

let prism: RunningPrism;
const realFetch = globalThis.fetch;
const sentTraceIds: Array<string | null> = [];
const previousKey = process.env.GPU_CLOUD_API_KEY;

beforeAll(async () => {
  prism = await startPrism();
  globalThis.fetch = fetchSentTo(prism.baseUrl, realFetch, (request) => sentTraceIds.push(request.headers.get("x-trace-id")));
  process.env.GPU_CLOUD_API_KEY = "package-readme-key";
});
afterAll(async () => {
  globalThis.fetch = realFetch;
  if (previousKey === undefined) delete process.env.GPU_CLOUD_API_KEY;
  else process.env.GPU_CLOUD_API_KEY = previousKey;
  await prism?.stop();
});

describe("the package README", () => {
  it("has a hooks example, and it runs as written: a trace header sent, each attempt timed, the raw answer read", async () => {
    expect(example).toBeDefined();
    expect(example).toContain('from "gpu-cloud-client"');
    const file = path.join(repoRoot, "test/client/.tmp-package-readme-hooks.ts");
    fs.writeFileSync(file, example!.replace('from "gpu-cloud-client"', `from ${JSON.stringify(path.join(repoRoot, "generated/gpu-cloud-client/src/index.ts"))}`));
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    try {
      await import(file);
      const printed = log.mock.calls.map((args) => args.join(" "));
      expect(printed).toEqual([expect.stringMatching(/^listPods #1: 200 in \d+ ms$/), "no request id", "200 application/json"]);
      expect(sentTraceIds).toEqual(["trace-1"]);
    } finally {
      log.mockRestore();
      fs.rmSync(file, { force: true });
    }
  });

  it("runs every TypeScript example outside the job helpers' section (run against the fake in test/jobs/readme-jobs.test.ts) against the mock, as written", async () => {
    const jobs = readme.indexOf("## Waiting for jobs");
    const rest = readme.slice(0, jobs) + readme.slice(readme.indexOf("\n## ", jobs + 1));
    const generated = path.join(repoRoot, "generated/gpu-cloud-client/src");
    const source = readmeExamplesSource(rest, "GpuCloudClient")
      .replaceAll('from "gpu-cloud-client/operations"', `from ${JSON.stringify(path.join(generated, "operations.ts"))}`)
      .replaceAll('from "gpu-cloud-client/validators"', `from ${JSON.stringify(path.join(generated, "validators.js"))}`)
      .replaceAll('from "gpu-cloud-client"', `from ${JSON.stringify(path.join(generated, "index.ts"))}`);
    const file = path.join(repoRoot, "test/client/.tmp-package-readme-all.ts");
    fs.writeFileSync(file, source);
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    try {
      const examples = Object.entries((await import(file)) as Record<string, () => Promise<void>>);
      // The key, each operation (class and function), each model, hooks, validation, errors.
      expect(examples.length).toBeGreaterThanOrEqual(15);
      for (const [name, example] of examples) await expect(example(), name).resolves.toBeUndefined();
    } finally {
      log.mockRestore();
      fs.rmSync(file, { force: true });
    }
  });

  it("type-checks, every TypeScript block of it (the new app's program included) against the package", { timeout: TYPE_CHECK_BUDGET_MS }, () => {
    const scratch = path.join(repoRoot, ".tmp/package-readme-types");
    try {
      const result = typeCheckReadme(path.join(repoRoot, "generated/gpu-cloud-client"), "gpu-cloud-client", "GpuCloudClient", scratch);
      expect(result.blocks).toBe(typeScriptBlocks(readme).length);
      expect(result.diagnostics).toEqual([]);
    } finally {
      fs.rmSync(scratch, { recursive: true, force: true });
    }
  });

  it("names the folder it was generated into, its tarball, and says its version is not the API's", () => {
    const { version } = JSON.parse(fs.readFileSync(path.join(repoRoot, "generated/gpu-cloud-client/package.json"), "utf8")) as { version: string };
    expect(readme).toContain(`cd generated/gpu-cloud-client\nnpm install && npm pack   # builds, then writes gpu-cloud-client-${version}.tgz`);
    const apiVersion = /^ {2}version: '?([^'\n]+)'?$/m.exec(fs.readFileSync(path.join(repoRoot, "openapi/openapi.yaml"), "utf8"))![1]!;
    expect(apiVersion).not.toBe(version);
    expect(readme).toContain(`It is not the API's version (${apiVersion})`);
  });

  it("the other exports' example prints what its comments say", async () => {
    const start = readme.indexOf("## Other exports");
    const code = /```ts\n([\s\S]*?)```/.exec(readme.slice(start))![1]!;
    const file = path.join(repoRoot, "test/client/.tmp-package-readme-exports.ts");
    fs.writeFileSync(file, code.replace('from "gpu-cloud-client"', `from ${JSON.stringify(path.join(repoRoot, "generated/gpu-cloud-client/src/index.ts"))}`));
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    try {
      await import(file);
      const printed = log.mock.calls.map((args) => args.map((a) => (typeof a === "string" ? a : JSON.stringify(a))).join(" "));
      expect(printed[0]).toBe(`${JSON.stringify(Object.keys(MODEL_ENDPOINTS))} ${JSON.stringify({ COMPLETED: "success", FAILED: "failure", CANCELLED: "failure", TIMED_OUT: "failure" })}`);
      expect(printed[0]).toContain('"wan-2-6-i2v","black-forest-labs-flux-1-dev",');
      expect(printed[1]).toMatch(/^2 validation issues:\n {2}\(root\): must have required property "prompt"\n {2}\(root\): must have required property "image"$/);
      expect(printed[2]).toBe('[{"name":"minute","remaining":57,"resetSeconds":30,"quota":60,"windowSeconds":60}] 2000 req-42');
      expect(printed[3]).toBe("the key [REDACTED] leaked https://example.com/path");
      expect(printed[4]).toMatch(/^GET \/missing failed with 404/);
      // The comments in the code say the same as the lines printed.
      expect(code).toContain('// [{ name: "minute", remaining: 57, resetSeconds: 30, quota: 60, windowSeconds: 60 }] 2000 req-42');
      expect(code).toContain("// the key [REDACTED] leaked https://example.com/path");
    } finally {
      log.mockRestore();
      fs.rmSync(file, { force: true });
    }
  });

  it("names no `data` for an operation answered without a body, and lists every model with its input and price", () => {
    expect(readme).toContain("await client.deleteRegistry({");
    expect(readme).not.toMatch(/const \{ data \} = await (client\.)?deleteRegistry\(/);
    const table = readme.slice(readme.indexOf("| Model | Kind |"), readme.indexOf("\n\n", readme.indexOf("| Model | Kind |")));
    expect(table).toContain("| `wan-2-6-i2v` | video | **`prompt`**, **`image`**,");
    expect(table).toMatch(/\| `black-forest-labs-flux-1-dev` \| image \| .* \| 0\.02 USD per megapixel: `width` × `height` ÷ 1000000 \|/);
    // Every model, with its price rule in each of the grammar's forms.
    for (const id of Object.keys(MODEL_ENDPOINTS)) expect(table).toContain(`| \`${id}\` |`);
    expect(table.split("\n").length - 2).toBe(Object.keys(MODEL_ENDPOINTS).length);
    for (const rule of [
      "| 0.02 USD per image, one per job |",
      "| USD per image, one per job; rate by `resolution`: 1k: 0.14; 2k: 0.14; 4k: 0.24 |",
      "| 0.45 USD per 5-second clip: `duration` ÷ 5, rounded up |",
      "| USD per second: `duration`; rate by `resolution`, `draft`: 720p,false: 0.02; 1080p,false: 0.04; 720p,true: 0.005; 1080p,true: 0.01; no estimate with `audio` |",
      "| in 10 / out 10 USD per 1000000 tokens, an upper bound: output up to `sampling_params.max_tokens`, input a token per byte of `messages` |",
      "| 0.05 USD per 1,000 characters: characters of `prompt` ÷ 1000 |",
      "| 0.001 USD per second of generated audio; no estimate (the length of the speech is known only from the result) |",
    ]) {
      expect(table).toContain(rule);
    }
  });
});
