/**
 * JSON request bodies hold only what JSON can: NaN and ±Infinity (which JSON.stringify would send
 * as `null`) and BigInt are refused before sending, naming the field, for every operation.
 */
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { GpuCloudClient, InvalidRequestError } from "../../generated/gpu-cloud-client/src/index.ts";
import { ClientCore, type OperationSpec } from "../../generated/gpu-cloud-client/src/runtime/client-core.ts";
import { startRecordingServer, type RecordingServer } from "../support/recording-server.ts";

let server: RecordingServer;
let client: GpuCloudClient;
beforeAll(async () => {
  server = await startRecordingServer(() => ({ status: 200, headers: { "content-type": "application/json" }, body: '{"id":"job-1","status":"IN_QUEUE"}' }));
  client = new GpuCloudClient({ apiKey: "k", baseUrl: server.url, publicEndpointBaseUrl: server.url });
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
});

async function refusal(attempt: () => Promise<unknown>): Promise<InvalidRequestError> {
  const error: unknown = await attempt().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(InvalidRequestError);
  return error as InvalidRequestError;
}

it.each([Number.NaN, Infinity, -Infinity])("refuses %s in a field the schema does not type, naming it", async (value) => {
  // Not a model of the contract: its input has no schema, so only the body's serialisation can see it.
  const error = await refusal(() => client.runModel("my-own-model" as never, { prompt: "p", options: { steps: [1, value] } } as never));
  expect(error.field).toBe("body.input.options.steps.1");
  expect(error.message).toContain("body.input.options.steps.1 must be a finite number");
  expect(server.requests).toEqual([]);
});

it("refuses NaN in a typed field with request validation off", async () => {
  const lenient = new GpuCloudClient({ apiKey: "k", publicEndpointBaseUrl: server.url, validateRequests: false });
  const error = await refusal(() => lenient.runModelSync("wan-2-6-i2v", { prompt: "p", image: "https://i.example/1.jpg", seed: Number.NaN }));
  expect(error.field).toBe("body.input.seed");
  expect(server.requests).toEqual([]);
});

it("refuses a BigInt, naming the field, rather than throwing a bare TypeError", async () => {
  const error = await refusal(() => client.runModel("my-own-model" as never, { n: 10n } as never));
  expect(error.field).toBe("body.input.n");
  expect(server.requests).toEqual([]);
});

it("refuses them in any operation's JSON body, and in a multipart part written as JSON", async () => {
  const json: OperationSpec = { operationId: "putThing", method: "PUT", path: "/things/1", server: "api", requestMediaType: "application/json", responseKind: "none" };
  const multipart: OperationSpec = { ...json, operationId: "upload", requestMediaType: "multipart/form-data" };
  class Client extends ClientCore {
    constructor() {
      super({ maxRetries: 0 }, { servers: { api: server.url } });
    }
    send(spec: OperationSpec, body: unknown) {
      return this.request<unknown>(spec, { body });
    }
  }
  const core = new Client();
  expect((await refusal(() => core.send(json, [{ size: { width: Number.NaN } }]))).field).toBe("body.0.size.width");
  expect((await refusal(() => core.send(multipart, { meta: { ratio: Infinity } }))).field).toBe("body.meta.ratio");
  expect(server.requests).toEqual([]);
  // A real null, and a value whose toJSON gives a finite number, go as they are.
  await core.send(json, { a: null, at: new Date(0), n: { toJSON: () => 3 } });
  expect(server.requests.map((r) => r.body.toString())).toEqual(['{"a":null,"at":"1970-01-01T00:00:00.000Z","n":3}']);
});

it("sends each header once, whatever case the caller, the contract and the client spell it in", async () => {
  const named = new GpuCloudClient({ apiKey: "k", publicEndpointBaseUrl: server.url, userAgent: "my-app/1.0" });
  await named.runModel("wan-2-6-i2v", { prompt: "p", image: "https://i.example/1.jpg" }, { headers: { "Content-Type": "application/json; charset=utf-8", "x-client-name": "spoofed", AUTHORIZATION: "Bearer other" } });
  const [sent] = server.requests;
  // Node joins repeated header values with ", ": one value each means one header each.
  expect(sent!.headers["content-type"]).toBe("application/json");
  expect(sent!.headers["x-client-name"]).toBe("my-app/1.0");
  expect(sent!.headers["authorization"]).toBe("Bearer k");
});
