/**
 * waitForJob against the stateful fake of the model endpoints, on a simulated clock: polls through
 * the job's statuses to its typed result or failure, backoff, rate limits, timeout and abort, and a
 * job whose results the service no longer keeps.
 */
import { describe, expect, it, vi } from "vitest";
import {
  GpuCloudClient,
  JobExpiredError,
  JobFailedError,
  JobWaitError,
  runAndWait,
  waitForJob,
} from "../../generated/gpu-cloud-client/src/index.ts";
import * as runtimeJobs from "../../generated/gpu-cloud-client/src/runtime/model-endpoints/index.ts";
import { VIDEO, input, fake, client, time, startFake, useFakeSession } from "./fake-session.ts";

useFakeSession();

describe("waitForJob", () => {
  it("polls every 2 s through IN_QUEUE and IN_PROGRESS to a typed COMPLETED result", async () => {
    await startFake({ plan: () => ({ queuedPolls: 2, runningPolls: 2, outcome: "COMPLETED" }) });
    const { data: job } = await client.runModel(VIDEO, input());
    const seen: string[] = [];
    const result = await waitForJob(client, VIDEO, job.id, { now: time.now, sleep: time.sleep, onProgress: (p) => seen.push(p.job.status) });
    expect(result.status).toBe("COMPLETED");
    expect(result.output.video_url).toBe(`https://files.fake.test/${job.id}.mp4`);
    expect(result.url).toBe(result.output.video_url);
    expect(result.costUsd).toBe(0.5);
    expect(result.delayTime).toBe(200);
    expect(result.executionTime).toBe(2000);
    // Seven days from the last poll that found the job running (sent 2 s before the one that found it done).
    expect(result.expiresAt?.getTime()).toBe(time.clock.now - 2000 + 7 * 24 * 3600 * 1000);
    expect(seen).toEqual(["IN_QUEUE", "IN_QUEUE", "IN_PROGRESS", "IN_PROGRESS", "COMPLETED"]);
    expect(time.clock.pauses).toEqual([2000, 2000, 2000, 2000]);
  });

  it.each(["FAILED", "CANCELLED", "TIMED_OUT"] as const)("throws a typed JobFailedError when the job ends %s", async (outcome) => {
    await startFake({ plan: () => ({ queuedPolls: 1, runningPolls: 1, outcome }) });
    const { data: job } = await client.runModel(VIDEO, input());
    const error = await waitForJob(client, VIDEO, job.id, { now: time.now, sleep: time.sleep }).catch((e) => e);
    expect(error).toBeInstanceOf(JobFailedError);
    expect(error).toMatchObject({ jobId: job.id, status: outcome, reason: `job ended ${outcome}`, kind: "job_failed" });
  });

  it("gives no expiry when the first poll already finds the job finished (it may have finished days ago)", async () => {
    await startFake({ plan: () => ({ queuedPolls: 0, runningPolls: 0, outcome: "COMPLETED" }) });
    const { data: job } = await client.runModel(VIDEO, input());
    const result = await waitForJob(client, VIDEO, job.id, { now: time.now, sleep: time.sleep });
    expect(result.url).toBeDefined();
    expect(result.expiresAt).toBeUndefined();
  });

  it("is bounded by default: a job that never finishes ends the wait after 30 minutes", async () => {
    await startFake({ plan: () => ({ queuedPolls: 0, runningPolls: 100_000, outcome: "COMPLETED" }) });
    // Allowed to run an hour: the service's default execution timeout (10 minutes) would end it first.
    const { data: job } = await client.runModel(VIDEO, input(), { jobOptions: { policy: { executionTimeout: 3_600_000 } } });
    const started = time.clock.now;
    const error = await waitForJob(client, VIDEO, job.id, { now: time.now, sleep: time.sleep }).catch((e) => e);
    expect(error).toBeInstanceOf(JobWaitError);
    expect(error.kind).toBe("timeout");
    expect(time.clock.now - started).toBe(30 * 60_000);
  });

  it("keeps waiting on a status it has never seen", async () => {
    const statuses = ["IN_QUEUE", "WARMING_UP", "SOMETHING_NEW", "COMPLETED"];
    const stub = {
      runModel: vi.fn(),
      runModelSync: vi.fn(),
      getModelJob: vi.fn(async () => ({ data: { id: "j", status: statuses.shift()!, output: { video_url: "u", cost: 1 } }, status: 200, headers: new Headers(), rateLimit: undefined })),
    };
    const result = await runtimeJobs.waitForJob(stub as never, { endpoints: {}, terminalStatuses: { COMPLETED: "success", FAILED: "failure" } }, VIDEO, "j", { now: time.now, sleep: time.sleep });
    expect(result.status).toBe("COMPLETED");
    expect(stub.getModelJob).toHaveBeenCalledTimes(4);
  });

  it("slows its polls once a job runs long, up to a bound", async () => {
    await startFake({ plan: () => ({ queuedPolls: 3, runningPolls: 30, outcome: "COMPLETED" }) });
    const { data: job } = await client.runModel(VIDEO, input());
    await waitForJob(client, VIDEO, job.id, { now: time.now, sleep: time.sleep, intervalMs: 2000, backoffAfterMs: 10_000, backoffFactor: 1.5, maxIntervalMs: 8000 });
    const pauses = time.clock.pauses;
    expect(pauses.slice(0, 5)).toEqual([2000, 2000, 2000, 2000, 2000]);
    expect(pauses[5]).toBe(3000);
    expect(pauses[6]).toBe(4500);
    expect(Math.max(...pauses)).toBe(8000);
    expect(pauses.at(-1)).toBe(8000);
  });

  it("waits for a rate-limit window's reset instead of provoking a 429", async () => {
    await startFake({
      quotas: [{ name: "minute", quota: 3, seconds: 60 }, { name: "hour", quota: 100, seconds: 3600 }, { name: "day", quota: 1000, seconds: 86400 }],
      plan: () => ({ queuedPolls: 2, runningPolls: 2, outcome: "COMPLETED" }),
    });
    const { data: job } = await client.runModel(VIDEO, input());
    const result = await waitForJob(client, VIDEO, job.id, { now: time.now, sleep: time.sleep });
    expect(result.status).toBe("COMPLETED");
    expect(fake.tooManyRequests).toBe(0);
    expect(Math.max(...time.clock.pauses)).toBeGreaterThanOrEqual(50_000);
  });

  it("waits Retry-After when the server answers 429 anyway", async () => {
    // A quota the RateLimit header does not announce (no header parsing can foresee it).
    await startFake({ quotas: [{ name: "minute", quota: 2, seconds: 30 }], plan: () => ({ queuedPolls: 1, runningPolls: 0, outcome: "COMPLETED" }) });
    const { data: job } = await client.runModel(VIDEO, input());
    const noHeaderClient = new GpuCloudClient({
      // The same user as the client that submitted: quotas are per user.
      apiKey: "jobs-key",
      publicEndpointBaseUrl: fake.baseUrl,
      maxRetries: 0,
      fetch: async (request: Request) => {
        const response = await fake.service.handler(request);
        const headers = new Headers(response.headers);
        headers.delete("ratelimit");
        return new Response(response.body, { status: response.status, headers });
      },
    });
    const result = await waitForJob(noHeaderClient, VIDEO, job.id, { now: time.now, sleep: time.sleep });
    expect(result.status).toBe("COMPLETED");
    expect(fake.tooManyRequests).toBeGreaterThan(0);
    // Two requests at t=0 filled the 30 s window; the poll at t=2 s is told to wait the remaining 28 s.
    expect(time.clock.pauses).toEqual([2000, 28_000]);
  });

  it("ends a wait on timeout with the last job seen", async () => {
    await startFake({ plan: () => ({ queuedPolls: 100, runningPolls: 0, outcome: "COMPLETED" }) });
    const { data: job } = await client.runModel(VIDEO, input());
    const error = await waitForJob(client, VIDEO, job.id, { now: time.now, sleep: time.sleep, timeoutMs: 9_000 }).catch((e) => e);
    expect(error).toBeInstanceOf(JobWaitError);
    expect(error.kind).toBe("timeout");
    expect(error.lastJob).toMatchObject({ id: job.id, status: "IN_QUEUE" });
    expect(error.polls).toBe(5);
  });

  it("ends a wait on abort promptly, leaving no timer or listener behind", async () => {
    vi.useFakeTimers();
    try {
      const controller = new AbortController();
      const stub = {
        runModel: vi.fn(),
        runModelSync: vi.fn(),
        getModelJob: vi.fn(async () => ({ data: { id: "j", status: "IN_PROGRESS" }, status: 200, headers: new Headers(), rateLimit: undefined })),
      };
      const listeners = vi.spyOn(controller.signal, "addEventListener");
      const removed = vi.spyOn(controller.signal, "removeEventListener");
      const pending = runtimeJobs.waitForJob(stub as never, { endpoints: {}, terminalStatuses: { COMPLETED: "success" } }, VIDEO, "j", { signal: controller.signal });
      await vi.advanceTimersByTimeAsync(4_500);
      controller.abort();
      const error = await pending.catch((e) => e);
      expect(error).toBeInstanceOf(runtimeJobs.JobWaitError);
      expect(error.kind).toBe("aborted");
      expect(error.lastJob).toMatchObject({ status: "IN_PROGRESS" });
      expect(stub.getModelJob).toHaveBeenCalledTimes(3);
      expect(vi.getTimerCount()).toBe(0);
      expect(removed.mock.calls.length).toBeGreaterThanOrEqual(listeners.mock.calls.length - 1);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("results before they expire", () => {
  it("knows until when the service keeps the result, from the operation that made the job", async () => {
    await startFake({ plan: () => ({ queuedPolls: 1, runningPolls: 1, outcome: "COMPLETED" }) });
    const queued = await runAndWait(client, VIDEO, input(1), { now: time.now, sleep: time.sleep });
    // Kept 30 minutes after run, counted from the last poll that found the job running (2 s before the end).
    expect(queued.keptUntil?.getTime()).toBe(time.clock.now - 2000 + 30 * 60_000);
    const before = time.clock.now;
    const synced = await runAndWait(client, VIDEO, input(2), { sync: true, now: time.now, sleep: time.sleep });
    // Kept 1 minute after runsync, counted from the submission (the job had not finished then).
    expect(synced.keptUntil!.getTime() - 60_000).toBeGreaterThanOrEqual(before);
    expect(synced.keptUntil!.getTime() - 60_000).toBeLessThanOrEqual(time.clock.now);
  });

  it("turns a poll after the retention into a typed JobExpiredError naming the retention", async () => {
    await startFake({ plan: () => ({ queuedPolls: 0, runningPolls: 1, outcome: "COMPLETED" }) });
    const { data: job } = await client.runModel(VIDEO, input());
    await waitForJob(client, VIDEO, job.id, { now: time.now, sleep: time.sleep });
    time.clock.now += 31 * 60_000;
    const error = await waitForJob(client, VIDEO, job.id, { now: time.now, sleep: time.sleep }).catch((e) => e);
    expect(error).toBeInstanceOf(JobExpiredError);
    expect(error.kind).toBe("job_expired");
    expect(error.jobId).toBe(job.id);
    expect(error.message).toContain("1 min after runsync, 30 min after run");
  });
});
