/**
 * The pod-budget extension: a contract opts in with `x-pod-cost` (on the operation that creates a
 * pod) and `x-pod-readiness` (on the one that reads it); one without them gets nothing of it, and a
 * key that is wrong is refused with its JSON pointer.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { generateFiles } from "../../generator/generate.ts";

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "pod-budget-"));
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

const COST = `
      x-pod-cost:
        priceOperation: getPrice
        gpuTypeFrom: /accelerator/kind
        gpuCountFrom: /accelerator/units
        defaultGpuCount: 1
        cloudFrom: /tier
        defaultCloud: standard
        rates: { standard: /usd/standard, spot: /usd/spot }`;
const READINESS = `
      x-pod-readiness:
        statusFrom: /state
        ready: [UP]
        failed: [DOWN]
        portsFrom: /ports
        mappingsFrom: /live`;

/** A tiny API of machines with a price list, its extension keys given (or not). */
function contract(cost = "", readiness = ""): string {
  const json = (schema: string) => `content: { application/json: { schema: ${schema} } }`;
  return `openapi: 3.1.0
info: { title: Machines, version: 1.0.0 }
servers: [{ url: 'https://machines.example.test' }]
paths:
  /machines:
    post:
      operationId: startMachine${cost}
      requestBody: { required: true, ${json("{ type: object }")} }
      responses: { '201': { description: ok, ${json("{ type: object, properties: { id: { type: string } } }")} } }
  /machines/{id}:
    get:
      operationId: getMachine${readiness}
      parameters: [{ name: id, in: path, required: true, schema: { type: string } }]
      responses: { '200': { description: ok, ${json("{ type: object, properties: { state: { type: string } } }")} } }
  /prices/{kind}:
    get:
      operationId: getPrice
      parameters: [{ name: kind, in: path, required: true, schema: { type: string } }]
      responses: { '200': { description: ok, ${json("{ type: object }")} } }
`;
}

let count = 0;
async function generate(text: string) {
  const file = path.join(scratch, `machines-${count++}.yaml`);
  fs.writeFileSync(file, text);
  return generateFiles({ spec: file });
}

describe("the pod-budget extension", { timeout: 120_000 }, () => {
  it("gives nothing to a contract without its keys", async () => {
    const { files } = await generate(contract());
    expect(files.map((f) => f.path).filter((p) => /pods|pod-budget/.test(p))).toEqual([]);
    expect(files.find((f) => f.path === "README.md")!.contents).not.toContain("Pods within a budget");
  });

  it("binds the helpers to the operations and pointers the keys name", async () => {
    const { files } = await generate(contract(COST, READINESS));
    const pods = files.find((f) => f.path === "src/pods.ts")!.contents;
    expect(pods).toContain('priceOperation: "getPrice"');
    expect(pods).toContain('rates: { standard: "/usd/standard", spot: "/usd/spot" }');
    expect(pods).toContain("operations.getPrice(client, { path: { kind: gpuTypeId } }, options)");
    expect(pods).toContain("operations.startMachine(client, params, requestOptions)");
    expect(pods).toContain("operations.getMachine(client, { path: { id: id } }, requestOptions)");
    expect(pods).toContain('ready: ["UP"]');
    expect(files.some((f) => f.path === "src/runtime/pod-budget/wait.ts")).toBe(true);
    expect(files.find((f) => f.path === "src/index.ts")!.contents).toContain('export * from "./pods.js";');
    expect(files.find((f) => f.path === "README.md")!.contents).toContain("## Pods within a budget");
  });

  it("emits only the helpers of the keys given", async () => {
    const { files } = await generate(contract("", READINESS));
    const pods = files.find((f) => f.path === "src/pods.ts")!.contents;
    expect(pods).toContain("export function waitForPod");
    expect(pods).not.toContain("createPodWithinBudget");
    expect(pods).not.toContain("POD_COST");
  });

  it("refuses a wrong key with its pointer", async () => {
    const cases: Array<[string, string, string, RegExp]> = [
      [COST.replace("defaultGpuCount: 1", "defaultGpuCount: 1\n        surcharge: 2"), "", "/paths/~1machines/post/x-pod-cost/surcharge", /not a key/],
      [COST.replace("gpuTypeFrom: /accelerator/kind", "gpuTypeFrom: accelerator.kind"), "", "/paths/~1machines/post/x-pod-cost/gpuTypeFrom", /JSON pointer/],
      [COST.replace("priceOperation: getPrice", "priceOperation: getPriceList"), "", "/paths/~1machines/post/x-pod-cost/priceOperation", /names no operation/],
      [COST.replace("priceOperation: getPrice", "priceOperation: startMachine"), "", "/paths/~1machines/post/x-pod-cost/priceOperation", /exactly one path parameter/],
      [COST.replace("defaultCloud: standard", "defaultCloud: premium"), "", "/paths/~1machines/post/x-pod-cost/defaultCloud", /one of the clouds/],
      [COST.replace("defaultGpuCount: 1", "defaultGpuCount: 0"), "", "/paths/~1machines/post/x-pod-cost/defaultGpuCount", /whole number/],
      ["", READINESS.replace("        mappingsFrom: /live", ""), "/paths/~1machines~1{id}/get/x-pod-readiness", /go together/],
      ["", READINESS.replace("failed: [DOWN]", "failed: [DOWN, UP]"), "/paths/~1machines~1{id}/get/x-pod-readiness/failed", /both ready and failed/],
      ["", READINESS.replace("ready: [UP]", "ready: []"), "/paths/~1machines~1{id}/get/x-pod-readiness/ready", /at least one/],
    ];
    for (const [cost, readiness, pointer, reason] of cases) {
      const error = await generate(contract(cost, readiness)).catch((e: unknown) => e);
      expect((error as { pointer?: string }).pointer, pointer).toBe(pointer);
      expect((error as Error).message).toMatch(reason);
    }
    // On an operation that takes no id, a readiness key fits nowhere.
    const misplaced = contract(READINESS, "");
    const error = await generate(misplaced).catch((e: unknown) => e);
    expect((error as { pointer?: string }).pointer).toBe("/paths/~1machines/post/x-pod-readiness");
  });
});
