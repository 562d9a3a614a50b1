/**
 * Response validators are a module of their own (`src/response-validators.js`), imported by the
 * client only once `validateResponses` is on: an app bundled without it ships none of them, one
 * with it loads them in a separate chunk, and a failed load is tried again on the next call.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ClientCore, type OperationSpec, type ResponseValidators } from "../../generated/gpu-cloud-client/src/runtime/client-core.ts";
import { GpuCloudClient, ResponseValidationError } from "../../generated/gpu-cloud-client/src/index.ts";
import { bundleApp as bundle } from "../support/app-bundle.ts";
import { repoRoot } from "../support/prism.ts";
import { startRecordingServer, type Reply } from "../support/recording-server.ts";

const INDEX = JSON.stringify(path.join(repoRoot, "generated/gpu-cloud-client/src/index.ts"));
/** A string only the pod list's response validator holds (the pointer of a pod's `createdAt` format, below the pod's schema). */
const POD_VALIDATOR_MARK = "/properties/createdAt/format";

describe("response validators", () => {
  it("stay out of an app that does not check responses", async () => {
    const { startup, onDemand } = await bundle(`import { GpuCloudClient } from ${INDEX};
new GpuCloudClient({ apiKey: "k" }).listPods().then((r) => console.log(r.data.pods.length));`);
    expect(startup).toContain("listPods");
    expect(startup).not.toContain(POD_VALIDATOR_MARK);
    // Still reachable, in the chunk the client would load if asked to.
    expect(onDemand).toContain(POD_VALIDATOR_MARK);
  });

  it("are loaded on the first checked response, once, and a failed load is tried again", async () => {
    let loads = 0;
    const validators: ResponseValidators = { listThings: { "200": (body) => (Array.isArray(body) ? [] : [{ path: "", keyword: "type", message: "must be an array", schemaPath: "/x" }]) } };
    const spec: OperationSpec = { operationId: "listThings", method: "GET", path: "/things", server: "api", responseKind: "json" };
    let answer: unknown = [];
    class Client extends ClientCore {
      constructor(validateResponses: boolean) {
        super(
          {
            validateResponses,
            maxRetries: 0,
            fetch: async () => new Response(JSON.stringify(answer), { headers: { "content-type": "application/json" } }),
          },
          {
            servers: { api: "https://api.example.test" },
            loadResponseValidators: async () => {
              loads++;
              if (loads === 1) throw new Error("chunk failed to load");
              return validators;
            },
          },
        );
      }
      list() {
        return this.request<unknown>(spec);
      }
    }

    const lenient = new Client(false);
    answer = { not: "an array" };
    await expect(lenient.list()).resolves.toMatchObject({ data: { not: "an array" } });
    expect(loads).toBe(0);

    const strict = new Client(true);
    await expect(strict.list()).rejects.toThrow("chunk failed to load");
    await expect(strict.list()).rejects.toBeInstanceOf(ResponseValidationError);
    answer = [1, 2];
    await expect(strict.list()).resolves.toMatchObject({ data: [1, 2] });
    expect(loads).toBe(2);
  });

  it("check each success status against its own schema, and a status without one (204) not at all", async () => {
    const mustHave = (name: string) => (body: unknown) =>
      typeof body === "object" && body !== null && name in body ? [] : [{ path: "", keyword: "required", message: `must have required property "${name}"`, schemaPath: "/x" }];
    const validators: ResponseValidators = { replaceThing: { "200": mustHave("name"), "201": null, "2XX": mustHave("jobId") } };
    const spec: OperationSpec = { operationId: "replaceThing", method: "PUT", path: "/things/1", server: "api", responseKind: "json" };
    let reply = new Response(null, { status: 204 });
    class Client extends ClientCore {
      constructor() {
        super(
          { validateResponses: true, maxRetries: 0, fetch: async () => reply },
          { servers: { api: "https://api.example.test" }, loadResponseValidators: async () => validators },
        );
      }
      replace() {
        return this.request<unknown>(spec);
      }
    }
    const client = new Client();
    const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
    reply = json(202, { jobId: "j-1" });
    await expect(client.replace()).resolves.toMatchObject({ status: 202, data: { jobId: "j-1" } });
    reply = json(200, { name: "n" });
    await expect(client.replace()).resolves.toMatchObject({ status: 200 });
    reply = json(200, { jobId: "j-1" });
    await expect(client.replace()).rejects.toBeInstanceOf(ResponseValidationError);
    reply = new Response(null, { status: 204 });
    await expect(client.replace()).resolves.toMatchObject({ status: 204, data: undefined });
    // Documented without a JSON schema: the 2XX range does not claim it.
    reply = json(201, { created: true });
    await expect(client.replace()).resolves.toMatchObject({ status: 201 });
  });

  it.each<[string, Reply]>([
    ["a 204, a status listPods does not list", { status: 204 }],
    ["a 200 without the body its schema requires", { status: 200, headers: { "content-type": "application/json" }, body: "" }],
    ["a 201 with a body, a status listPods does not list", { status: 201, headers: { "content-type": "application/json" }, body: '{"pods":[]}' }],
  ])("refuse %s, and let it through without validateResponses", async (_, reply) => {
    const server = await startRecordingServer(() => reply);
    try {
      const strict = new GpuCloudClient({ apiKey: "k", baseUrl: server.url, validateResponses: true });
      const error = await strict.listPods().catch((e) => e);
      expect(error).toBeInstanceOf(ResponseValidationError);
      expect(error).toMatchObject({ status: reply.status, operationId: "listPods" });
      if (reply.status !== 200) expect(error.message).toContain(`returned ${reply.status}, which is not a status the contract lists for this operation (only 200)`);
      const lenient = new GpuCloudClient({ apiKey: "k", baseUrl: server.url });
      await expect(lenient.listPods()).resolves.toMatchObject({ status: reply.status });
    } finally {
      await server.close();
    }
  });
});
