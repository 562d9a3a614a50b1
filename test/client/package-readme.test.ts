/**
 * The package README: its "Hooks, raw responses and logging" example run as written against Prism
 * (only the package import pointed at the generated source, the service's host at the mock),
 * checking what it printed and sent; its operation examples and models table read as text.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { repoRoot, startPrism, type RunningPrism } from "../support/prism.ts";

const readme = fs.readFileSync(path.join(repoRoot, "generated/gpu-cloud-client/README.md"), "utf8");
const start = readme.indexOf("## Hooks, raw responses and logging");
const section = readme.slice(start, readme.indexOf("\n## ", start + 1));
const example = /```ts\n([\s\S]*?)```/.exec(section)?.[1];

let prism: RunningPrism;
const realFetch = globalThis.fetch;
const sentTraceIds: Array<string | null> = [];

beforeAll(async () => {
  prism = await startPrism();
  globalThis.fetch = (async (input: Request | string | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    sentTraceIds.push(request.headers.get("x-trace-id"));
    const url = new URL(request.url);
    return realFetch(new Request(prism.baseUrl + url.pathname + url.search, request));
  }) as typeof fetch;
  process.env.GPU_CLOUD_API_KEY = "package-readme-key";
});
afterAll(async () => {
  globalThis.fetch = realFetch;
  delete process.env.GPU_CLOUD_API_KEY;
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

  it("names no `data` for an operation answered without a body, and lists every model with its input and price", () => {
    expect(readme).toContain("await client.deleteRegistry({");
    expect(readme).not.toMatch(/const \{ data \} = await (client\.)?deleteRegistry\(/);
    const table = readme.slice(readme.indexOf("| Model | Kind |"), readme.indexOf("\n\n", readme.indexOf("| Model | Kind |")));
    expect(table).toContain("| `wan-2-6-i2v` | video | **`prompt`**, **`image`**,");
    expect(table).toMatch(/\| `black-forest-labs-flux-1-dev` \| image \| .* \| USD per megapixel: `width` × `height` ÷ 1000000 at 0\.02 USD \|/);
  });
});
