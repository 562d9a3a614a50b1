/**
 * The job helpers' requests against Prism, which validates every request against the contract:
 * a wrong method, path, header or body shape would come back as an error here.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GpuCloudClient, JobWaitError, runAndWait, runMany, streamJob, waitForJob } from "../../generated/gpu-cloud-client/src/index.ts";
import { startPrism, type RunningPrism } from "../support/prism.ts";

let prism: RunningPrism;
let client: GpuCloudClient;
const input = { prompt: "A lighthouse at dawn", image: "https://images.example.org/l.jpg", duration: 10, size: "1920*1080" } as const;

beforeAll(async () => {
  prism = await startPrism(undefined, ["--errors"]);
  client = new GpuCloudClient({ apiKey: "prism-key", baseUrl: prism.baseUrl, publicEndpointBaseUrl: prism.baseUrl, maxRetries: 0 });
});
afterAll(async () => {
  await prism?.stop();
});

describe("job helpers against the Prism mock", () => {
  it("runAndWait with run, then status", async () => {
    const result = await runAndWait(client, "wan-2-6-i2v", input, { intervalMs: 10 });
    expect(result.status).toBe("COMPLETED");
    expect(result.url).toMatch(/^https:\/\//);
  });

  it("runAndWait with runsync", async () => {
    const result = await runAndWait(client, "wan-2-6-i2v", input, { sync: true, intervalMs: 10 });
    expect(result.id).toMatch(/^sync-/);
    expect(result.costUsd).toBe(1.5);
  });

  it("waitForJob and runMany", async () => {
    const result = await waitForJob(client, "black-forest-labs-flux-1-dev", "6c1b3a9e", { intervalMs: 10 });
    expect(result.status).toBe("COMPLETED");
    const batch = await runMany(client, "black-forest-labs-flux-1-dev", [{ prompt: "a" }, { prompt: "b", width: 512, height: 512 }], { intervalMs: 10 });
    expect(batch.succeeded).toBe(2);
  });

  it("jobOptions: webhook, policy and s3Config in the run body", async () => {
    const jobOptions = {
      webhook: "https://hooks.example.org/done",
      policy: { executionTimeout: 60_000, lowPriority: false, ttl: 3_600_000 },
      s3Config: { accessId: "AKIAEXAMPLE", accessSecret: "prism-s3-secret", bucketName: "outputs", endpointUrl: "https://s3.example.org" },
    };
    expect((await runAndWait(client, "wan-2-6-i2v", input, { intervalMs: 10, jobOptions })).status).toBe("COMPLETED");
    expect((await client.runModelSync("wan-2-6-i2v", input, { jobOptions })).status).toBe(200);
  });

  it("cancel on abort: the cancel request the helper sends", async () => {
    const controller = new AbortController();
    const error = await runAndWait(client, "wan-2-6-i2v", input, { intervalMs: 10, signal: controller.signal, cancelOnAbort: true, onProgress: () => controller.abort() }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JobWaitError);
    const report = (error as JobWaitError).cancellation!;
    expect(report.failed).toEqual([]);
    expect(report.cancelled.length + report.ended.length).toBe(1);
  });

  it("the per-model job and endpoint calls", async () => {
    const id = "6c1b3a9e-2d4f-4e8a-b7c5-91f0d2e3a4b5-u1";
    expect((await client.cancelModelJob("wan-2-6-i2v", id)).data.status).toBe("CANCELLED");
    expect((await client.retryModelJob("wan-2-6-i2v", id)).data.status).toBe("IN_QUEUE");
    expect((await client.streamModelJob("wan-2-6-i2v", id)).data.stream.length).toBeGreaterThan(0);
    for await (const chunk of streamJob(client, "wan-2-6-i2v", id, { intervalMs: 10 })) {
      expect(chunk).toHaveProperty("output");
      break;
    }
    expect((await client.getModelHealth("wan-2-6-i2v")).data.jobs).toBeDefined();
    expect((await client.purgeModelQueue("wan-2-6-i2v")).data.removed).toBe(3);
  });
});
