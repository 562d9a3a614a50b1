/**
 * The standalone operation functions (`<package>/operations`): each sends its operation as the
 * client's method does (same checks, same answer), on the client's core; and an app that calls one
 * of them bundles that operation only.
 */
import path from "node:path";
import * as esbuild from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GpuCloudClient, GpuCloudClientCore, InvalidRequestError } from "../../generated/gpu-cloud-client/src/index.ts";
import { deleteRegistry, getJobStatus, listPods, run } from "../../generated/gpu-cloud-client/src/operations.ts";
import { repoRoot, startPrism, type RunningPrism } from "../support/prism.ts";

let prism: RunningPrism;
let core: GpuCloudClientCore;
let client: GpuCloudClient;

beforeAll(async () => {
  prism = await startPrism(undefined, ["--errors"]);
  const options = { apiKey: "operations-key", baseUrl: prism.baseUrl, publicEndpointBaseUrl: prism.baseUrl, maxRetries: 0 };
  core = new GpuCloudClientCore(options);
  client = new GpuCloudClient(options);
});
afterAll(async () => {
  await prism?.stop();
});

describe("standalone operation functions", () => {
  it("answer as the methods do, on the core or on the full client", async () => {
    const byFunction = await listPods(core, { query: { includeClusterPods: true } });
    const byMethod = await client.listPods({ query: { includeClusterPods: true } });
    expect(byFunction.status).toBe(200);
    expect(byFunction.data).toEqual(byMethod.data);
    expect((await listPods(client)).status).toBe(200);
    expect((await getJobStatus(core, { path: { model_endpoint_id: "wan-2-6-i2v", job_id: "6c1b3a9e" } })).data.status).toBe("COMPLETED");
    expect((await deleteRegistry(core, { path: { id: "reg_1" } })).status).toBe(204);
  });

  it("check a job's input against the model its path names, as run does, before sending", async () => {
    const bad = await run(core, { path: { model_endpoint_id: "wan-2-6-i2v" }, body: { input: { prompt: "a fox", image: "not a url", duration: 7 } } }).catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(InvalidRequestError);
    expect((bad as InvalidRequestError).message).toMatch(/^run: 2 invalid fields, nothing was sent:\n {2}body\.input\.image: .*\n {2}body\.input\.duration: must be one of 5, 10, 15$/);
    const unchecked = new GpuCloudClientCore({ apiKey: "k", publicEndpointBaseUrl: prism.baseUrl, validateRequests: false, maxRetries: 0 });
    // Without request validation nothing is checked here: Prism answers what it makes of the body.
    const answer = await run(unchecked, { path: { model_endpoint_id: "wan-2-6-i2v" }, body: { input: { prompt: "a fox", image: "not a url", duration: 7 } } }).catch((e: unknown) => e);
    expect(answer).not.toBeInstanceOf(InvalidRequestError);
  });

  it("bundle only what an app calls: listPods alone carries no other operation", async () => {
    const generated = path.join(repoRoot, "generated/gpu-cloud-client/src");
    const bundleOf = async (contents: string) => {
      const result = await esbuild.build({ stdin: { contents, resolveDir: generated, loader: "ts" }, bundle: true, minify: true, format: "esm", platform: "browser", write: false, logLevel: "silent" });
      return result.outputFiles[0]!.text;
    };
    const alone = await bundleOf('import { GpuCloudClientCore } from "./index.ts"; import { listPods } from "./operations.ts"; listPods(new GpuCloudClientCore()).then(console.log);');
    const viaClass = await bundleOf('import { GpuCloudClient } from "./index.ts"; new GpuCloudClient().listPods().then(console.log);');
    expect(alone).toContain("/v2/pods");
    for (const other of ["/v2/registries/{id}", "/v2/{model_endpoint_id}/runsync", "/v2/templates"]) {
      expect(alone).not.toContain(other);
      expect(viaClass).toContain(other);
    }
    // What the class drags in besides: the other operations' specs and validators (about 18 kB minified).
    expect(viaClass.length - alone.length).toBeGreaterThan(12_000);
  });
});
