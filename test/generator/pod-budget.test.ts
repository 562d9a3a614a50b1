/**
 * The pod-budget extension: a contract opts in with `x-pod-cost` (on the operation that creates a
 * pod) and `x-pod-readiness` (on the one that reads it); one without them gets nothing of it, and a
 * key that is wrong is refused with its JSON pointer.
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { generateFiles } from "../../generator/generate.ts";
import { writeOutput } from "../../generator/write/index.ts";
import { repoRoot } from "../support/prism.ts";
import { TYPE_CHECK_BUDGET_MS } from "../support/type-check.ts";

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

/** `GET /machines/{id}/logs` answering `mediaType`, with `tail` and a `level` filter `pods logs` has no flag for. */
function logsPath(mediaType: string): string {
  return `
  /machines/{id}/logs:
    get:
      operationId: streamMachineLogs
      parameters:
        - { name: id, in: path, required: true, schema: { type: string } }
        - { name: tail, in: query, schema: { type: integer, minimum: 0 } }
        - { name: level, in: query, schema: { type: string } }
      responses: { '200': { description: ok, content: { ${mediaType}: { schema: { type: string } } } } }`;
}

/** A tiny API of machines with a price list, its extension keys given (or not). */
function contract(cost = "", readiness = "", extraPaths = ""): string {
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
  /machines/{id}/action:
    post:
      operationId: actOnMachine
      parameters: [{ name: id, in: path, required: true, schema: { type: string } }]
      requestBody: { required: true, ${json("{ type: object, required: [action], properties: { action: { type: string, enum: [start, stop, restart, terminate] } } }")} }
      responses: { '200': { description: ok, ${json("{ type: object }")} } }
  /prices:
    get:
      operationId: listPrices
      responses: { '200': { description: ok, ${json("{ type: object }")} } }
  /prices/{kind}:
    get:
      operationId: getPrice
      parameters: [{ name: kind, in: path, required: true, schema: { type: string } }]
      responses: { '200': { description: ok, ${json("{ type: object }")} } }${extraPaths}
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
    expect(pods).toContain("operations.startMachine(client, sent, requestOptions)");
    expect(pods).toContain("operations.getMachine(client, { path: { id: id } }, requestOptions)");
    expect(pods).toContain('ready: ["UP"]');
    expect(files.some((f) => f.path === "src/runtime/pod-budget/wait.ts")).toBe(true);
    expect(files.find((f) => f.path === "src/index.ts")!.contents).toContain('export * from "./pods.js";');
    expect(files.find((f) => f.path === "README.md")!.contents).toContain("## Pods within a budget");
  });

  it("gives a contract without models a terminal command of its own: pods and gpus, bound to the operations beside the keys", { timeout: TYPE_CHECK_BUDGET_MS }, async () => {
    const { files } = await generate(contract(COST, READINESS));
    const bin = files.find((f) => f.path === "src/bin.ts")!.contents;
    expect(bin).toContain("podCommands({");
    expect(bin).not.toContain("modelCommands");
    expect(bin).toContain("getPod: (client, id, options) => operations.getMachine(client, { path: { id: id } }, options),");
    expect(bin).toContain('podAction: (client, id, action, options) => operations.actOnMachine(client, { path: { id: id }, body: { action } as ActOnMachineParams["body"] }, options),');
    // No operation lists machines (GET /machines): no pods list.
    expect(bin).not.toContain("listPods");
    // The price list takes no stock query: asked for as it is.
    expect(bin).toContain("listGpuTypes: (client, options) => operations.listPrices(client, options),");
    expect(files.some((f) => f.path === "src/runtime/cli/commands.ts")).toBe(true);
    expect(JSON.parse(files.find((f) => f.path === "package.json")!.contents).bin).toBeDefined();
    // The README's terminal section names the commands this package has, and only those.
    const readme = files.find((f) => f.path === "README.md")!.contents;
    const terminal = readme.slice(readme.indexOf("### Pods from the terminal"));
    for (const command of ["pods create --input pod.json --max-cost-per-hour USD", "pods get <pod-id>", "pods terminate <pod-id> --yes", "pods wait <pod-id>", "gpus"]) expect(terminal).toContain(command);
    expect(terminal).not.toContain("pods list");
    expect(terminal).not.toContain("pods logs");
    // It runs: inside the repository so the package resolves its dependencies.
    const outDir = path.join(repoRoot, ".tmp/pod-budget-bin");
    fs.rmSync(outDir, { recursive: true, force: true });
    await writeOutput(outDir, files);
    const help = await promisify(execFile)(path.join(repoRoot, "node_modules/.bin/tsx"), [path.join(outDir, "src/bin.ts"), "--help"]);
    expect(help.stdout).toContain("pods create (--input FILE.json | --set KEY=VALUE ...) --max-cost-per-hour USD");
    expect(help.stdout).toContain("pods terminate <pod-id> --yes");
    expect(help.stdout).not.toContain("pods list");
    // No log stream beside the read operation: no pods logs, in the help or the binding.
    expect(help.stdout).not.toContain("pods logs");
    expect(bin).not.toContain("podLogs");
    expect(help.stdout).not.toContain("<model>");
    // And it compiles under the package's strict settings.
    await promisify(execFile)(path.join(repoRoot, "node_modules/.bin/tsc"), ["-p", path.join(outDir, "tsconfig.json"), "--noEmit"]);
  });

  it("binds pods logs to an event stream at the read path's /logs, with the filters it takes", async () => {
    const { files } = await generate(contract(COST, READINESS, logsPath("text/event-stream")));
    const bin = files.find((f) => f.path === "src/bin.ts")!.contents;
    expect(bin).toContain('podLogs: (client, id, query, options) => operations.streamMachineLogs(client, { path: { id: id }, query: query as StreamMachineLogsParams["query"] }, options),');
    // `level` has no flag: only tail is passed on.
    expect(bin).toContain('logFilters: ["tail"],');
    // The README's terminal section has it, with the flags it takes and no other.
    const readme = files.find((f) => f.path === "README.md")!.contents;
    expect(readme).toContain("pods logs <pod-id> [--follow] [--tail N]` prints");
    expect(readme).toContain("through `streamMachineLogs`");
  });

  it("binds no pods logs when the operation at the read path's /logs does not stream events", async () => {
    const { files } = await generate(contract(COST, READINESS, logsPath("application/json")));
    const bin = files.find((f) => f.path === "src/bin.ts")!.contents;
    expect(bin).not.toContain("podLogs");
    expect(bin).not.toContain("logFilters");
  });

  it("gives no terminal command to a contract with neither models nor pods", async () => {
    const { files } = await generate(contract());
    expect(files.some((f) => f.path === "src/bin.ts" || f.path.startsWith("src/runtime/cli/"))).toBe(false);
    expect(JSON.parse(files.find((f) => f.path === "package.json")!.contents).bin).toBeUndefined();
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
