/**
 * Runs the TypeScript examples of docs/client.md (from its "Using the client" section on) and
 * docs/validators.md against Prism, as written: only the package import is pointed at the generated
 * source, and `fetch` is pointed at the mock.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { fetchSentTo, repoRoot, startPrism, type RunningPrism } from "../support/prism.ts";

const clientDoc = fs.readFileSync(path.join(repoRoot, "docs/client.md"), "utf8");
const validatorsDoc = fs.readFileSync(path.join(repoRoot, "docs/validators.md"), "utf8");
const sections = [clientDoc.slice(clientDoc.indexOf("## Using the client")), validatorsDoc];
const examples = sections.flatMap((section) => [...section.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!));
const generatedIndex = path.join(repoRoot, "generated/gpu-cloud-client/src/index.ts");
const generatedValidators = path.join(repoRoot, "generated/gpu-cloud-client/src/validators.js");

let prism: RunningPrism;
const realFetch = globalThis.fetch;

beforeAll(async () => {
  prism = await startPrism();
  // The examples use the contract's default hosts: send whatever they call to the mock instead.
  globalThis.fetch = fetchSentTo(prism.baseUrl, realFetch);
  process.env.GPU_CLOUD_API_KEY = "readme-example-key";
});
afterAll(async () => {
  globalThis.fetch = realFetch;
  delete process.env.GPU_CLOUD_API_KEY;
  await prism?.stop();
});

describe("documented examples", () => {
  it("has examples to run", () => {
    expect(examples.length).toBeGreaterThanOrEqual(4);
  });

  it.each(examples.map((code, index) => [index + 1, code] as const))("example %i runs against the mock", async (index, code) => {
    expect(code).toMatch(/from "gpu-cloud-client(\/validators)?"/);
    const file = path.join(repoRoot, `test/client/.tmp-readme-example-${index}.ts`);
    const pointed = code
      .replace('from "gpu-cloud-client"', `from ${JSON.stringify(generatedIndex)}`)
      .replace('from "gpu-cloud-client/validators"', `from ${JSON.stringify(generatedValidators)}`);
    fs.writeFileSync(file, pointed);
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    try {
      await import(`${file}?run=${Date.now()}`);
      const printed = log.mock.calls.map((args) => args.join(" ")).join("\n");
      expect(printed.length).toBeGreaterThan(0);
      expect(printed).not.toContain("undefined undefined");
      if (index === 1) expect(printed).toMatch(/7h9k2m4n6p RUNNING standalone[\s\S]*requests left this minute: 57/);
      if (index === 2) expect(printed).toMatch(/COMPLETED https:\/\/\S+\.mp4 1\.5/);
      // The validators examples: what each line's comment says.
      if (code.includes("isEndpointScaling")) {
        expect(printed).toBe('2\nmust be >= 0.5,must match QueueDelayScaling (selected by type "QUEUE_DELAY")\nmust be one of "QUEUE_DELAY", "REQUEST_COUNT" (the discriminator), not "LATENCY"');
      } else if (code.includes("/validators")) expect(printed).toBe("/duration: must be one of 5, 10, 15\n1280*720\nfalse");
      // The jobs example: the estimate, a finished job's URL and cost, a batch in input order and its total.
      if (code.includes("runMany")) expect(printed).toMatch(/^1\nhttps:\/\/\S+\.mp4 0\.5 .*20\d\d.*\n0 https:\S+\n1 https:\S+\ntotal 1$/);
    } finally {
      log.mockRestore();
      fs.rmSync(file, { force: true });
    }
  });
});
