/**
 * The job helpers' requests against Prism, which validates every request against the contract:
 * a wrong method, path, header or body shape would come back as an error here.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GpuCloudClient, runAndWait, runMany, waitForJob } from "../../generated/gpu-cloud-client/src/index.ts";
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
});
