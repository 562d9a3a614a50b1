/**
 * Validation in the generated client: requests are checked before anything is sent (on by
 * default), responses on request, each problem with its field path and the contract's pointer.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  GpuCloudClient,
  InvalidRequestError,
  ResponseValidationError,
  validateModelInput,
  withModelDefaults,
} from "../../generated/gpu-cloud-client/src/index.ts";
import { isPod, validateImageToVideoInput, withDefaultsImageToVideoInput } from "../../generated/gpu-cloud-client/src/validators.js";
import { loadContractDocument } from "../support/contract.ts";

const examplePod = loadContractDocument().components.examples.PodListWithClusterPods.value.pods[0];
let requests = 0;
let body: unknown = { pods: [examplePod] };
let server: http.Server;
let client: GpuCloudClient;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    requests += 1;
    req.resume();
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  client = new GpuCloudClient({ apiKey: "k", baseUrl: url, publicEndpointBaseUrl: url });
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  requests = 0;
  body = { pods: [examplePod] };
});

describe("request validation (on by default)", () => {
  it("refuses a wrong parameter type before sending, naming the field", async () => {
    const error = await client.listPods({ query: { includeClusterPods: "yes" as unknown as boolean } }).catch((e) => e);
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect(error.field).toBe("query.includeClusterPods");
    expect(error.problems[0]).toMatchObject({ keyword: "type", schemaPath: "/components/parameters/IncludeClusterPods/schema/type" });
    expect(requests).toBe(0);
  });

  it("lists every problem of a model input, with field paths", async () => {
    const error = await client.runModel("wan-2-6-i2v", { prompt: "p", duration: 7, shot_type: "three" } as never).catch((e) => e);
    expect(error).toBeInstanceOf(InvalidRequestError);
    const problems = Object.fromEntries(error.problems.map((p: { path: string; message: string }) => [p.path, p.message]));
    expect(problems["body.input.duration"]).toBe("must be one of 5, 10, 15");
    expect(problems["body.input.shot_type"]).toMatch(/must be one of "single", "multi"/);
    expect(Object.keys(problems).some((path) => path.startsWith("body.input") && /image/.test(problems[path] + path))).toBe(true);
    expect(error.message).toContain("nothing was sent");
    expect(requests).toBe(0);
  });

  it("checks the input of run and runSync against the model named in the path, as runModel does", async () => {
    const input = { prompt: "A fox", width: 1024 };
    for (const call of [() => client.run({ path: { model_endpoint_id: "wan-2-6-i2v" }, body: { input } }), () => client.runSync({ path: { model_endpoint_id: "wan-2-6-i2v" }, body: { input } })]) {
      const error = await call().catch((e) => e);
      expect(error).toBeInstanceOf(InvalidRequestError);
      expect(error.problems.map((p: { path: string; message: string }) => `${p.path}: ${p.message}`)).toEqual(
        expect.arrayContaining(['body.input: must have required property "image"']),
      );
    }
    expect(requests).toBe(0);
    // Another model's input is the service's to judge.
    body = { id: "job-1", status: "IN_QUEUE" };
    await client.run({ path: { model_endpoint_id: "my-tts-model" }, body: { input: { text: "hello", voice: "alloy" } } });
    expect(requests).toBe(1);
  });

  it("leaves unknown models' inputs alone, and can be turned off", async () => {
    await client.runModel("some-new-model", { whatever: 1 });
    const lenient = new GpuCloudClient({ apiKey: "k", baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, validateRequests: false });
    body = { pods: [] };
    await lenient.listPods({ query: { includeClusterPods: "yes" as unknown as boolean } });
    expect(requests).toBe(2);
  });
});

describe("response validation (an option)", () => {
  it("throws a typed error keeping the raw body and the pointer", async () => {
    const strict = new GpuCloudClient({ apiKey: "k", baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, validateResponses: true });
    await expect(strict.listPods()).resolves.toMatchObject({ status: 200 });
    body = { pods: [{ ...examplePod, ports: ["eighty"] }] };
    const error = await strict.listPods().catch((e) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error.kind).toBe("invalid_response");
    expect(error.problems[0]).toMatchObject({ path: "/pods/0/ports/0", keyword: "pattern", schemaPath: "/components/schemas/Port/pattern" });
    expect(JSON.parse(error.rawBody).pods[0].ports).toEqual(["eighty"]);
    // Off by default: the same body passes.
    await expect(client.listPods()).resolves.toMatchObject({ status: 200 });
  });
});

describe("validators and defaults exported by the package", () => {
  it("fills the video model's defaults without touching the caller's object", () => {
    const input = { prompt: "p", image: "https://i.example/a.png" };
    const complete = withDefaultsImageToVideoInput(input);
    expect(complete).toEqual({ ...input, size: "1280*720", duration: 5, shot_type: "single", seed: -1, enable_prompt_expansion: false, enable_safety_checker: true });
    expect(input).toEqual({ prompt: "p", image: "https://i.example/a.png" });
    expect(withModelDefaults("wan-2-6-i2v", input)).toEqual(complete);
    expect(withModelDefaults("unknown-model", input)).toBe(input);
  });

  it("guards and validates", () => {
    expect(isPod(examplePod)).toBe(true);
    expect(isPod({ ...examplePod, runtime: "up" })).toBe(false);
    expect(validateImageToVideoInput({ prompt: "p", image: "https://i.example/a.png", size: "1920*1080" })).toEqual([]);
    expect(validateModelInput("wan-2-6-i2v", { prompt: 1 }).map((i) => i.path)).toContain("/prompt");
  });
});
