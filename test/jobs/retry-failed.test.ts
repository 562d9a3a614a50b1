/**
 * retryFailed: a job that ends FAILED or TIMED_OUT runs again under its id with the retry operation,
 * never submitted twice, on the stateful fake of the model endpoints and a simulated clock.
 */
import { describe, expect, it, vi } from "vitest";
import {
  CostLimitError,
  GpuCloudClient,
  InvalidRequestError,
  JobFailedError,
  MODEL_CATALOG,
  runAndWait,
  runMany,
} from "../../generated/gpu-cloud-client/src/index.ts";
import * as runtimeJobs from "../../generated/gpu-cloud-client/src/runtime/model-endpoints/index.ts";
import { VIDEO, input, fake, client, time, startFake, useFakeSession } from "./fake-session.ts";

useFakeSession();

describe("retryFailed: a failed job runs again under its id", () => {
  const retries = () => fake.log.filter((entry) => entry.path.includes("/retry/"));
  const runs = () => fake.log.filter((entry) => entry.path.endsWith("/run"));

  it("retries a FAILED job with the retry operation, never submits it again, and counts the attempts", async () => {
    await startFake({ plan: () => ({ queuedPolls: 1, runningPolls: 1, outcome: "FAILED" }) });
    const result = await runAndWait(client, VIDEO, input(), { retryFailed: 2, now: time.now, sleep: time.sleep });
    expect(result.status).toBe("COMPLETED");
    expect(result.attempts).toBe(2);
    expect(fake.jobs.get(result.id)?.retries).toBe(1);
    expect(retries().map((entry) => entry.path)).toEqual([`/v2/${VIDEO}/retry/${result.id}`]);
    expect(runs()).toHaveLength(1);
    expect(fake.duplicateSubmissions()).toBe(0);
  });

  it("stops after retryFailed retries, with the last failure and the attempts", async () => {
    await startFake({ plan: () => ({ queuedPolls: 1, runningPolls: 1, outcome: "TIMED_OUT" }), retryPlan: () => ({ queuedPolls: 1, runningPolls: 1, outcome: "FAILED" }) });
    const error = await runAndWait(client, VIDEO, input(), { retryFailed: 2, now: time.now, sleep: time.sleep }).catch((e) => e);
    expect(error).toBeInstanceOf(JobFailedError);
    expect(error.status).toBe("FAILED");
    expect(error.attempts).toBe(3);
    expect(error.message).toContain("after 3 attempts");
    expect(retries()).toHaveLength(2);
    expect(runs()).toHaveLength(1);
  });

  it("does not retry without the option, nor a CANCELLED job", async () => {
    for (const [outcome, retryFailed] of [["FAILED", 0], ["CANCELLED", 3]] as const) {
      await startFake({ plan: () => ({ queuedPolls: 1, runningPolls: 1, outcome }) });
      const error = await runAndWait(client, VIDEO, input(), { retryFailed, now: time.now, sleep: time.sleep }).catch((e) => e);
      expect(error).toBeInstanceOf(JobFailedError);
      expect(error.attempts).toBe(1);
      expect(retries()).toHaveLength(0);
      await fake.stop();
    }
  });

  it("says why a retry the service refused was not made, and does not resubmit", async () => {
    await startFake({ plan: () => ({ queuedPolls: 1, runningPolls: 1, outcome: "FAILED" }), endpointLimits: { retry: { requests: 0, windowSeconds: 10 } } });
    const once = new GpuCloudClient({ apiKey: "jobs-key", publicEndpointBaseUrl: fake.baseUrl, baseUrl: fake.baseUrl, fetch: fake.service.handler, maxRetries: 0 });
    const error = await runAndWait(once, VIDEO, input(), { retryFailed: 1, now: time.now, sleep: time.sleep }).catch((e) => e);
    expect(error).toBeInstanceOf(JobFailedError);
    expect(error.retryRefused).toContain("429");
    expect(error.message).toContain("not retried:");
    expect(runs()).toHaveLength(1);
  });

  it("retries within a batch, each item telling its attempts", async () => {
    await startFake({ plan: (given) => ({ queuedPolls: 1, runningPolls: 1, outcome: given["prompt"] === "shot 2" ? "FAILED" : "COMPLETED" }) });
    const batch = await runMany(client, VIDEO, [input(1), input(2), input(3)], { retryFailed: 1, now: time.now, sleep: time.sleep });
    expect(batch.items.map((item) => (item.ok ? item.result.attempts : undefined))).toEqual([1, 2, 1]);
    expect(runs()).toHaveLength(3);
  });

  it("counts each possible run against maxCostUsd, and checks the option before any request", async () => {
    await startFake();
    // 0.50 USD a run: 3 runs may cost 1.50.
    const costly = await runAndWait(client, VIDEO, input(), { retryFailed: 2, maxCostUsd: 1 }).catch((e) => e);
    expect(costly).toBeInstanceOf(CostLimitError);
    expect(costly.message).toContain("1.50 USD (3 runs per job, counting retryFailed)");
    for (const retryFailed of [-1, 1.5, Number.NaN]) {
      const error = await runAndWait(client, VIDEO, input(), { retryFailed }).catch((e) => e);
      expect(error).toBeInstanceOf(InvalidRequestError);
      expect(error.field).toBe("retryFailed");
    }
    const stub = { runModel: vi.fn(), getModelJob: vi.fn() };
    const missing = await runtimeJobs.runAndWait(stub as never, MODEL_CATALOG, VIDEO, input(), { retryFailed: 1 }).catch((e) => e);
    expect(missing.field).toBe("retryFailed");
    expect(fake.log).toHaveLength(0);
  });
});
