/**
 * Number options that make no sense (NaN, negative, zero or fractional counts, Infinity where it
 * would mean never) are refused before any request, naming the option, as `timeoutMs` is.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GpuCloudClient, InvalidRequestError, runAndWait, runMany, waitForJob } from "../../generated/gpu-cloud-client/src/index.ts";
import { startRecordingServer, type RecordingServer } from "../support/recording-server.ts";

const MODEL = "wan-2-6-i2v";
const input = { prompt: "p", image: "https://images.example.org/1.jpg" };

let server: RecordingServer;
let client: GpuCloudClient;
beforeAll(async () => {
  server = await startRecordingServer(() => ({ status: 500 }));
  client = new GpuCloudClient({ apiKey: "k", baseUrl: server.url, publicEndpointBaseUrl: server.url, maxRetries: 0 });
});
afterAll(() => server.close());

async function refusal(attempt: () => Promise<unknown>): Promise<InvalidRequestError> {
  const error: unknown = await attempt().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(InvalidRequestError);
  return error as InvalidRequestError;
}

const WAIT_OPTIONS: Array<[string, unknown[]]> = [
  ["intervalMs", [Number.NaN, -5, 0, Infinity]],
  ["backoffAfterMs", [Number.NaN, -1]],
  ["backoffFactor", [Number.NaN, 0.5, -2, Infinity]],
  ["maxIntervalMs", [Number.NaN, -1, 0]],
  ["timeoutMs", [Number.NaN, -1]],
];

describe.each(WAIT_OPTIONS)("%s", (option, values) => {
  it.each(values)("%s is refused by waitForJob, runAndWait and runMany before any request", async (value) => {
    for (const attempt of [
      () => waitForJob(client, MODEL, "job-1", { [option]: value }),
      () => runAndWait(client, MODEL, input, { [option]: value }),
      () => runMany(client, MODEL, [input], { [option]: value }),
    ]) {
      const error = await refusal(attempt);
      expect(error.field).toBe(option);
      expect(error.message).toContain(`${option} must be`);
      expect(error.message).toContain(`not ${String(value)}`);
    }
    expect(server.requests).toEqual([]);
  });
});

it.each([Number.NaN, 0, -1, 1.5, Infinity])("runMany refuses concurrency %s, even for no input", async (concurrency) => {
  for (const inputs of [[input], []]) {
    const error = await refusal(() => runMany(client, MODEL, inputs, { concurrency }));
    expect(error.field).toBe("concurrency");
    expect(error.message).toContain("concurrency must be a whole number of jobs, 1 or more");
  }
  expect(server.requests).toEqual([]);
});

it.each([Number.NaN, -1, Infinity])("runAndWait and runMany refuse maxCostUsd %s", async (maxCostUsd) => {
  for (const attempt of [() => runAndWait(client, MODEL, input, { maxCostUsd }), () => runMany(client, MODEL, [input], { maxCostUsd })]) {
    const error = await refusal(attempt);
    expect(error.field).toBe("maxCostUsd");
  }
  expect(server.requests).toEqual([]);
});

it.each([Number.NaN, -1, Infinity])("runModelSync refuses waitMs %s", async (waitMs) => {
  const error = await refusal(() => client.runModelSync(MODEL, input, { waitMs }));
  expect(error.field).toBe("waitMs");
  expect(server.requests).toEqual([]);
});

it("accepts what makes sense: Infinity where it means no limit", async () => {
  const stub = {
    runModel: async () => ({ data: { id: "j", status: "COMPLETED", output: {} }, status: 200, headers: new Headers(), rateLimit: undefined }),
    getModelJob: async () => ({ data: { id: "j", status: "COMPLETED", output: {} }, status: 200, headers: new Headers(), rateLimit: undefined }),
  };
  const options = { timeoutMs: Infinity, backoffAfterMs: Infinity, maxIntervalMs: Infinity, intervalMs: 1, backoffFactor: 1, concurrency: 3, maxCostUsd: 0 };
  await expect(runMany(stub as never, "black-forest-labs-flux-1-dev" as never, [], { ...options, maxCostUsd: undefined })).resolves.toMatchObject({ items: [] });
  await expect(waitForJob(stub as never, "black-forest-labs-flux-1-dev" as never, "j", options)).resolves.toMatchObject({ status: "COMPLETED" });
});
