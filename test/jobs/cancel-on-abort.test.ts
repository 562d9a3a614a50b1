/**
 * cancelOnAbort: a wait that ends before its job (an abort, timeoutMs) cancels the job, on the
 * stateful fake of the model endpoints and a simulated clock; nothing is sent after the helper returns.
 */
import { describe, expect, it, vi } from "vitest";
import {
  AbortedError,
  BatchAbortedError,
  GpuCloudClient,
  InvalidRequestError,
  JobWaitError,
  MODEL_CATALOG,
  runAndWait,
  runMany,
} from "../../generated/gpu-cloud-client/src/index.ts";
import * as runtimeJobs from "../../generated/gpu-cloud-client/src/runtime/model-endpoints/index.ts";
import { VIDEO, input, fake, client, time, startFake, answer, useFakeSession } from "./fake-session.ts";

useFakeSession();

describe("cancelOnAbort: a wait that ends before its job cancels the job", () => {
  const cancels = () => fake.log.filter((entry) => entry.path.includes("/cancel/"));

  it("cancels the job when the caller aborts, and says so; without the option the job keeps running", async () => {
    await startFake({ plan: () => ({ queuedPolls: 50, runningPolls: 0, outcome: "COMPLETED" }) });
    for (const cancelOnAbort of [true, false]) {
      const controller = new AbortController();
      const sleep = async (ms: number, signal?: AbortSignal) => {
        if (time.clock.pauses.length === 3) controller.abort();
        await time.sleep(ms, signal);
      };
      const error = await runAndWait(client, VIDEO, input(), { cancelOnAbort, signal: controller.signal, now: time.now, sleep }).catch((e) => e);
      expect(error).toBeInstanceOf(JobWaitError);
      expect(error.kind).toBe("aborted");
      const job = fake.jobs.get(error.jobId)!;
      if (cancelOnAbort) {
        expect(error.cancellation).toEqual({ cancelled: [error.jobId], ended: [], failed: [] });
        expect(error.message).toContain(`cancelled ${error.jobId}`);
        expect(job.cancelled).toBe(true);
      } else {
        expect(error.cancellation).toBeUndefined();
        expect(job.cancelled).toBeFalsy();
      }
      time.clock.pauses.length = 0;
    }
    expect(cancels()).toHaveLength(1);
  });

  it("cancels the job when timeoutMs passes", async () => {
    await startFake({ plan: () => ({ queuedPolls: 50, runningPolls: 0, outcome: "COMPLETED" }) });
    const error = await runAndWait(client, VIDEO, input(), { cancelOnAbort: true, timeoutMs: 9_000, now: time.now, sleep: time.sleep }).catch((e) => e);
    expect(error).toBeInstanceOf(JobWaitError);
    expect(error.kind).toBe("timeout");
    expect(error.cancellation.cancelled).toEqual([error.jobId]);
    expect(fake.jobs.get(error.jobId)?.cancelled).toBe(true);
  });

  it("tells a job that had ended before the cancel reached it from one it cancelled", async () => {
    // Seen IN_PROGRESS at 4 s, the wait times out at 5 s; the job's plan ends at its next step.
    await startFake({ plan: () => ({ queuedPolls: 1, runningPolls: 1, outcome: "COMPLETED" }) });
    const error = await runAndWait(client, VIDEO, input(), { cancelOnAbort: true, timeoutMs: 5_000, now: time.now, sleep: time.sleep }).catch((e) => e);
    expect(error.kind).toBe("timeout");
    expect(error.lastJob.status).toBe("IN_PROGRESS");
    expect(error.cancellation).toEqual({ cancelled: [], ended: [{ jobId: error.jobId, status: "COMPLETED" }], failed: [] });
    expect(error.message).toContain(`already ended: ${error.jobId} (COMPLETED)`);
  });

  it("reports a cancel the service refused, without throwing it", async () => {
    await startFake({ plan: () => ({ queuedPolls: 50, runningPolls: 0, outcome: "COMPLETED" }), endpointLimits: { cancel: { requests: 0, windowSeconds: 10 } } });
    const once = new GpuCloudClient({ apiKey: "jobs-key", publicEndpointBaseUrl: fake.baseUrl, baseUrl: fake.baseUrl, fetch: fake.service.handler, maxRetries: 0 });
    const error = await runAndWait(once, VIDEO, input(), { cancelOnAbort: true, timeoutMs: 5_000, now: time.now, sleep: time.sleep }).catch((e) => e);
    expect(error).toBeInstanceOf(JobWaitError);
    expect(error.cancellation.cancelled).toEqual([]);
    expect(error.cancellation.failed).toEqual([{ jobId: error.jobId, reason: expect.stringContaining("429") }]);
    expect(error.message).not.toContain("jobs-key");
  });

  it("on a batch's abort cancels exactly the accepted jobs that had not ended, and sends nothing after it returns", async () => {
    // The first job ends at its first poll; the others would run on.
    await startFake({ plan: (given) => ({ queuedPolls: given["prompt"] === "shot 1" ? 1 : 50, runningPolls: 0, outcome: "COMPLETED" }) });
    const controller = new AbortController();
    const sleep = async (ms: number, signal?: AbortSignal) => {
      if (time.clock.pauses.length === 8) controller.abort();
      await time.sleep(ms, signal);
    };
    const error = await runMany(client, VIDEO, [input(1), input(2), input(3), input(4), input(5)], { concurrency: 2, cancelOnAbort: true, signal: controller.signal, now: time.now, sleep }).catch((e) => e);
    expect(error).toBeInstanceOf(BatchAbortedError);
    const finished = [...fake.jobs.values()].filter((job) => job.endedAt !== undefined && !job.cancelled).map((job) => job.id);
    const unfinished = error.acceptedJobIds.filter((id: string) => !finished.includes(id));
    expect(unfinished.length).toBeGreaterThan(0);
    expect([...error.cancellation.cancelled].sort()).toEqual([...unfinished].sort());
    expect(cancels().map((entry) => entry.path.split("/").at(-1)).sort()).toEqual([...unfinished].sort());
    expect(error.message).toContain("cancelled");
    const sent = fake.log.length;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(fake.log.length).toBe(sent);
  });

  it("sends a batch's cancels within the cancel operation's documented limits", async () => {
    await startFake({ plan: () => ({ queuedPolls: 50, runningPolls: 0, outcome: "COMPLETED" }), quotas: [], endpointLimits: { cancel: { requests: 2, windowSeconds: 5 } } });
    // One at a time, so that on the simulated clock a request arrives when the gate let it go.
    const catalog = { ...MODEL_CATALOG, requestLimits: { ...MODEL_CATALOG.requestLimits, cancel: { requests: 2, windowSeconds: 5, concurrent: 1 } } };
    const controller = new AbortController();
    const sleep = async (ms: number, signal?: AbortSignal) => {
      if (time.clock.pauses.length === 6) controller.abort();
      await time.sleep(ms, signal);
    };
    const error = await runtimeJobs.runMany(client, catalog, VIDEO, [input(1), input(2), input(3)], { concurrency: 3, cancelOnAbort: true, signal: controller.signal, now: time.now, sleep }).catch((e) => e);
    expect(error).toBeInstanceOf(runtimeJobs.BatchAbortedError);
    expect(error.cancellation.cancelled).toHaveLength(3);
    expect(cancels().map((entry) => entry.status)).toEqual([200, 200, 200]);
  });

  it("is refused, naming the option, by an API without a cancel operation", async () => {
    const stub = { runModel: vi.fn(), getModelJob: vi.fn() };
    const error = await runtimeJobs.runAndWait(stub as never, MODEL_CATALOG, VIDEO, input(), { cancelOnAbort: true }).catch((e) => e);
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect(error.field).toBe("cancelOnAbort");
    expect(stub.runModel).not.toHaveBeenCalled();
  });

  const done = (status: string, extra: object = {}) => answer({ id: "j", status, ...extra });

  it("cancels a job whose retry request the caller aborted (it may be queued again)", async () => {
    const controller = new AbortController();
    const stub = {
      runModel: vi.fn(async () => done("IN_QUEUE")),
      getModelJob: vi.fn(async () => done("FAILED", { error: "boom" })),
      retryModelJob: vi.fn(async () => {
        controller.abort();
        throw new AbortedError({ reason: "aborted" });
      }),
      cancelModelJob: vi.fn(async () => done("CANCELLED")),
    };
    const error = await runtimeJobs.runAndWait(stub as never, MODEL_CATALOG, VIDEO, input(), { retryFailed: 1, cancelOnAbort: true, signal: controller.signal, now: time.now, sleep: time.sleep }).catch((e) => e);
    expect(error).toBeInstanceOf(runtimeJobs.JobWaitError);
    expect(error.kind).toBe("aborted");
    expect(error.cancellation.cancelled).toEqual(["j"]);
    expect(stub.cancelModelJob).toHaveBeenCalledTimes(1);
  });
});
