/**
 * The job helpers of the generated package against the stateful fake of the model endpoints.
 * Time is simulated: the helpers and the fake share one clock, and every pause advances it at once.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  BatchAbortedError,
  BudgetExceededError,
  CostLimitError,
  GpuCloudClient,
  InvalidRequestError,
  JobExpiredError,
  JobFailedError,
  JobWaitError,
  MODEL_CATALOG,
  RateLimitError,
  RateLimitWaitError,
  estimateCost,
  runAndWait,
  runMany,
  streamJob,
  waitForJob,
} from "../../generated/gpu-cloud-client/src/index.ts";
import * as runtimeJobs from "../../generated/gpu-cloud-client/src/runtime/model-endpoints/index.ts";
import { FakeModelServer, type FakeOptions } from "../support/fake-model-server.ts";

const VIDEO = "wan-2-6-i2v";
const input = (n = 0) => ({ prompt: `shot ${n}`, image: `https://images.example.org/${n}.jpg` });

/** A clock both sides read; `sleep` advances it instead of waiting, and records each pause. */
function simulatedTime() {
  const clock = { now: Date.parse("2026-11-22T12:00:00Z"), pauses: [] as number[] };
  return {
    clock,
    now: () => clock.now,
    sleep: async (ms: number, signal?: AbortSignal) => {
      if (signal?.aborted) throw new (await import("../../generated/gpu-cloud-client/src/index.ts")).AbortedError({ reason: "aborted" });
      clock.pauses.push(ms);
      clock.now += ms;
    },
  };
}

let fake: FakeModelServer;
let client: GpuCloudClient;
let time: ReturnType<typeof simulatedTime>;

async function startFake(options: FakeOptions = {}) {
  fake = await new FakeModelServer({ now: () => time.clock.now, ...options }).start();
  client = new GpuCloudClient({ apiKey: "jobs-key", publicEndpointBaseUrl: fake.baseUrl, baseUrl: fake.baseUrl });
}

beforeEach(() => {
  time = simulatedTime();
});
afterEach(async () => {
  await fake?.stop();
});

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
    const { data: job } = await client.runModel(VIDEO, input());
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
      apiKey: "k",
      publicEndpointBaseUrl: fake.baseUrl,
      maxRetries: 0,
      fetch: async (request: Request) => {
        const response = await fetch(request);
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

describe("runAndWait", () => {
  it("submits with run once and waits for the typed result", async () => {
    await startFake();
    const result = await runAndWait(client, VIDEO, { ...input(), duration: 10, size: "1920*1080" }, { now: time.now, sleep: time.sleep });
    expect(result.costUsd).toBe(1.5);
    expect(fake.log.filter((l) => l.method === "POST").map((l) => l.path)).toEqual([`/v2/${VIDEO}/run`]);
  });

  it("with sync: true returns a job runsync finished, without polling", async () => {
    // The service holds the request 40 s: the URL is made during the hold, so its lifetime counts from the sending.
    const onSyncHold = () => void (time.clock.now += 40_000);
    await startFake({ plan: () => ({ queuedPolls: 1, runningPolls: 1, outcome: "COMPLETED" }), syncLimitPolls: 5, onSyncHold });
    const submittedAt = time.clock.now;
    const result = await runAndWait(client, VIDEO, input(), { sync: true, now: time.now, sleep: time.sleep });
    expect(result.id).toMatch(/^sync-/);
    // The URL was made after the submission: seven days from then is never later than its real expiry.
    expect(result.expiresAt?.getTime()).toBe(submittedAt + 7 * 24 * 3600 * 1000);
    expect(fake.log.map((l) => `${l.method} ${l.path}`)).toEqual([`POST /v2/${VIDEO}/runsync`]);
    // The run may last 30 minutes, so runsync is not cut at the client's 60 s: the server may hold it its longest.
    expect(fake.log[0]?.query).toBe("?wait=300000");
  });

  it("with sync: true asks runsync's server to answer 5 s before what is left of timeoutMs", async () => {
    await startFake({ plan: () => ({ queuedPolls: 0, runningPolls: 0, outcome: "COMPLETED" }) });
    await runAndWait(client, VIDEO, input(), { sync: true, timeoutMs: 20_000, now: time.now, sleep: time.sleep });
    expect(fake.log[0]?.query).toBe("?wait=15000");
  });

  it("with sync: true ends runsync's request 5 s after the wait it asks for, not at what is left of timeoutMs", async () => {
    const job = { data: { id: "sync-1", status: "COMPLETED", output: {} }, status: 200, headers: new Headers(), rateLimit: undefined };
    const stub = { runModel: vi.fn(), runModelSync: vi.fn(async () => job), getModelJob: vi.fn() };
    const catalog = { endpoints: {}, terminalStatuses: { COMPLETED: "success" as const }, syncWaitMs: { minimum: 1_000, maximum: 300_000 } };
    const run = (timeoutMs?: number) => runtimeJobs.runAndWait(stub as never, catalog, "m", {}, { sync: true, timeoutMs, now: time.now, sleep: time.sleep });
    await run();
    await run(20_000);
    await run(Infinity);
    expect(stub.runModelSync.mock.calls.map((call: unknown[]) => call[2])).toMatchObject([
      { waitMs: 300_000, timeoutMs: 305_000, maxRetries: 0 },
      { waitMs: 15_000, timeoutMs: 20_000, maxRetries: 0 },
      { waitMs: 300_000, timeoutMs: 305_000, maxRetries: 0 },
    ]);
  });

  it("with sync: true and less time left than runsync's shortest wait, queues with run and keeps the job's id", async () => {
    await startFake({ plan: () => ({ queuedPolls: 5, runningPolls: 5, outcome: "COMPLETED" }) });
    // A runsync request could not end before the deadline without losing its answer, and so its id.
    const error = await runAndWait(client, VIDEO, input(), { sync: true, timeoutMs: 500, now: time.now, sleep: time.sleep }).catch((e) => e);
    expect(error).toBeInstanceOf(JobWaitError);
    expect(error.kind).toBe("timeout");
    expect(error.jobId).toMatch(/^job-/);
    expect(fake.log.filter((l) => l.method === "POST").map((l) => l.path)).toEqual([`/v2/${VIDEO}/run`]);
  });

  it("with sync: true, after a 429 whose Retry-After leaves too little time for runsync, submits with run", async () => {
    const job = { data: { id: "job-1", status: "COMPLETED", output: {} }, status: 200, headers: new Headers(), rateLimit: undefined };
    const refusal = new RateLimitError({ message: "429", status: 429, rawBody: "", headers: {}, method: "POST", url: "https://x.test/v2/m/runsync", retryAfterMs: 8_000 });
    const stub = { runModel: vi.fn(async () => job), runModelSync: vi.fn(async () => Promise.reject(refusal)), getModelJob: vi.fn() };
    const catalog = { endpoints: {}, terminalStatuses: { COMPLETED: "success" as const }, syncWaitMs: { minimum: 1_000, maximum: 300_000 } };
    const result = await runtimeJobs.runAndWait(stub as never, catalog, "m", {}, { sync: true, timeoutMs: 12_000, now: time.now, sleep: time.sleep });
    expect(result.id).toBe("job-1");
    expect(time.clock.pauses).toEqual([8_000]);
    expect(stub.runModelSync).toHaveBeenCalledTimes(1);
    expect(stub.runModel).toHaveBeenCalledTimes(1);
  });

  it("with sync: true and a contract that cannot ask runsync to wait, gives the request what is left, or uses run under 5 s", async () => {
    const job = { data: { id: "j", status: "COMPLETED", output: {} }, status: 200, headers: new Headers(), rateLimit: undefined };
    const stub = { runModel: vi.fn(async () => job), runModelSync: vi.fn(async () => job), getModelJob: vi.fn() };
    const catalog = { endpoints: {}, terminalStatuses: { COMPLETED: "success" as const } };
    for (const timeoutMs of [Infinity, 60_000, 3_000]) {
      await runtimeJobs.runAndWait(stub as never, catalog, "m", {}, { sync: true, timeoutMs, now: time.now, sleep: time.sleep });
    }
    expect(stub.runModelSync.mock.calls.map((call: unknown[]) => (call[2] as { timeoutMs: number }).timeoutMs)).toEqual([Infinity, 60_000]);
    expect(stub.runModel).toHaveBeenCalledTimes(1);
  });

  it("refuses a timeoutMs that is NaN or negative, naming it, before anything is sent", async () => {
    await startFake();
    for (const timeoutMs of [Number.NaN, -1]) {
      for (const attempt of [
        () => runAndWait(client, VIDEO, input(), { timeoutMs }),
        () => waitForJob(client, VIDEO, "job-1", { timeoutMs }),
        () => runMany(client, VIDEO, [input()], { timeoutMs }),
        () => client.runModel(VIDEO, input(), { timeoutMs }),
        async () => new GpuCloudClient({ apiKey: "k", timeoutMs }),
      ]) {
        const error = await attempt().catch((e) => e);
        expect(error).toBeInstanceOf(InvalidRequestError);
        expect(error.field).toBe("timeoutMs");
        expect(error.message).toContain(`not ${timeoutMs}`);
      }
    }
    expect(fake.log).toEqual([]);
  });

  it("counts the URL's lifetime from the submission that was accepted, not from a refused one", async () => {
    // One request a minute, already used: the first submission gets a 429 and is sent again 60 s later.
    await startFake({ quotas: [{ name: "minute", quota: 1, seconds: 60 }], plan: () => ({ queuedPolls: 0, runningPolls: 0, outcome: "COMPLETED" }) });
    await client.getModelJob(VIDEO, "warm-up").catch(() => undefined);
    const started = time.clock.now;
    const result = await runAndWait(client, VIDEO, input(), { now: time.now, sleep: time.sleep });
    expect(fake.log.filter((l) => l.method === "POST").map((l) => l.status)).toEqual([429, 200]);
    expect(result.expiresAt?.getTime()).toBe(started + 60_000 + 7 * 24 * 3600 * 1000);
  });

  it("with sync: true keeps waiting on the same id when runsync gives up early", async () => {
    await startFake({ plan: () => ({ queuedPolls: 2, runningPolls: 3, outcome: "COMPLETED" }), syncLimitPolls: 2 });
    const result = await runAndWait(client, VIDEO, input(), { sync: true, now: time.now, sleep: time.sleep });
    expect(result.status).toBe("COMPLETED");
    const submissions = fake.log.filter((l) => l.method === "POST");
    expect(submissions).toHaveLength(1);
    expect(fake.log.slice(1).every((l) => l.path === `/v2/${VIDEO}/status/${result.id}`)).toBe(true);
  });

  it.each([false, true])("turns a job that failed on its input (HTTP 400) into a JobFailedError (sync %s)", async (sync) => {
    await startFake();
    const error = await runAndWait(client, VIDEO, { prompt: "p", image: "https://invalid.example/x.jpg" }, { sync, now: time.now, sleep: time.sleep }).catch((e) => e);
    expect(error).toBeInstanceOf(JobFailedError);
    expect(error.reason).toContain("invalid image URL");
    expect(error.jobId).toBeTruthy();
    expect(fake.duplicateSubmissions()).toBe(0);
  });

  it("never submits a job twice, whatever fails after submission", async () => {
    await startFake();
    const failing = new GpuCloudClient({
      apiKey: "k",
      publicEndpointBaseUrl: fake.baseUrl,
      // The submission reaches the server, then the connection breaks before the answer.
      fetch: async (request: Request) => {
        const response = await fetch(request);
        if (request.method === "POST") throw new TypeError("fetch failed", { cause: Object.assign(new Error("socket hang up"), { code: "ECONNRESET" }) });
        return response;
      },
    });
    await expect(runAndWait(failing, VIDEO, input(), { now: time.now, sleep: time.sleep })).rejects.toMatchObject({ kind: "connection" });
    await expect(runAndWait(failing, VIDEO, input(1), { sync: true, now: time.now, sleep: time.sleep })).rejects.toMatchObject({ kind: "connection" });
    expect([...fake.submissions.values()]).toEqual([1, 1]);
  });
});

describe("an API without runsync", () => {
  it("refuses sync: true with a message, and runs without it", async () => {
    const stub = {
      runModel: vi.fn(async () => ({ data: { id: "j", status: "COMPLETED", output: {} }, status: 200, headers: new Headers(), rateLimit: undefined })),
      getModelJob: vi.fn(),
    };
    const catalog = { endpoints: {}, terminalStatuses: { COMPLETED: "success" as const } };
    const error = await runtimeJobs.runAndWait(stub as never, catalog, "m", {}, { sync: true }).catch((e) => e);
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect(error.message).toContain("no runsync operation");
    expect(stub.runModel).not.toHaveBeenCalled();
    await expect(runtimeJobs.runAndWait(stub as never, catalog, "m", {})).resolves.toMatchObject({ status: "COMPLETED" });
  });
});

describe("cost first", () => {
  it("refuses to price an input the service would refuse, naming the field", () => {
    let error: any;
    try {
      estimateCost(VIDEO, { ...input(), duration: 7 } as never);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect(error.field).toBe("input.duration");
    expect(error.message).toContain("input.duration: must be one of 5, 10, 15");
    // Missing required fields do not matter to a price.
    expect(estimateCost(VIDEO, { duration: 10 } as never)).toBe(1);
  });

  it("refuses, before any request, a job whose estimate exceeds maxCostUsd, stating both figures", async () => {
    await startFake();
    const error = await runAndWait(client, VIDEO, { ...input(), duration: 15, size: "1920*1080" }, { maxCostUsd: 1 }).catch((e) => e);
    expect(error).toBeInstanceOf(CostLimitError);
    expect(error.message).toContain("2.25 USD");
    expect(error.message).toContain("1.00 USD");
    expect(fake.log).toEqual([]);
  });

  it("accepts a job within maxCostUsd", async () => {
    await startFake();
    const result = await runAndWait(client, VIDEO, input(), { maxCostUsd: 0.5, now: time.now, sleep: time.sleep });
    expect(result.costUsd).toBe(0.5);
  });

  it("refuses maxCostUsd for a model without pricing rather than guess", async () => {
    await startFake();
    await expect(runAndWait(client, "some-unlisted-model", { prompt: "p" }, { maxCostUsd: 10 })).rejects.toBeInstanceOf(CostLimitError);
    expect(estimateCost("some-unlisted-model", { prompt: "p" })).toBeUndefined();
    expect(fake.log).toEqual([]);
  });

  it("prices the image model per megapixel, from width and height (defaults 1024)", async () => {
    // 1024 × 1024 = 1.048576 megapixels at 0.02 USD: 0.02097152, rounded to a millionth.
    expect(estimateCost("black-forest-labs-flux-1-dev", { prompt: "p" })).toBe(0.020972);
    expect(estimateCost("black-forest-labs-flux-1-dev", { prompt: "p", width: 512, height: 768 })).toBe(0.007864);
    await startFake();
    const twoLarge = [{ prompt: "a", width: 1536, height: 1536 }, { prompt: "b", width: 1536, height: 1536 }];
    // 2 × 2.359296 MP × 0.02 = 0.09437184 USD: over a 0.09 limit, nothing is sent.
    await expect(runMany(client, "black-forest-labs-flux-1-dev", twoLarge, { maxCostUsd: 0.09 })).rejects.toBeInstanceOf(CostLimitError);
    expect(fake.log).toEqual([]);
  });
});

describe("runMany", () => {
  it("runs a batch within an honest quota without a single 429, in input order, losing nothing", async () => {
    await startFake({
      quotas: [{ name: "minute", quota: 12, seconds: 60 }, { name: "hour", quota: 500, seconds: 3600 }, { name: "day", quota: 5000, seconds: 86400 }],
      plan: () => ({ queuedPolls: 1, runningPolls: 1, outcome: "COMPLETED" }),
      latencyMs: 5,
    });
    const inputs = Array.from({ length: 10 }, (_, n) => (n === 4 ? { prompt: "bad", image: "https://invalid.example/4.jpg" } : input(n)));
    const progress: number[] = [];
    const batch = await runMany(client, VIDEO, inputs, { concurrency: 3, now: time.now, sleep: time.sleep, onProgress: (p) => progress.push(p.done) });
    expect(fake.tooManyRequests).toBe(0);
    expect(batch.items.map((item) => item.index)).toEqual([...inputs.keys()]);
    expect(batch.items.map((item) => item.ok)).toEqual(inputs.map((_, n) => n !== 4));
    const failure = batch.items[4]!;
    expect(!failure.ok && failure.error).toBeInstanceOf(JobFailedError);
    expect(batch.succeeded).toBe(9);
    expect(batch.totalCostUsd).toBeCloseTo(4.5);
    expect(fake.duplicateSubmissions()).toBe(0);
    expect(progress.at(-1)).toBe(10);
    // 10 submissions and 29 polls against 12 requests a minute: the batch had to wait for resets.
    expect(Math.max(...time.clock.pauses)).toBeGreaterThan(30_000);
  });

  it("with sync: true bounds each job's runsync by timeoutMs, as runAndWait does", async () => {
    await startFake({ plan: () => ({ queuedPolls: 0, runningPolls: 1, outcome: "COMPLETED" }) });
    const batch = await runMany(client, VIDEO, [input(1), input(2), input(3)], { sync: true, timeoutMs: 20_000, now: time.now, sleep: time.sleep });
    expect(batch.succeeded).toBe(3);
    expect(fake.log.filter((l) => l.method === "POST").map((l) => `${l.path}${l.query}`)).toEqual(Array(3).fill(`/v2/${VIDEO}/runsync?wait=15000`));
  });

  it("starts each job's timeoutMs when the rate gate lets its submission go, not while it queues", async () => {
    // runsync answers after the whole wait it was asked for; a poll then finds a job still running done.
    const sent: Array<{ at: number; waitMs: number; timeoutMs: number }> = [];
    let next = 0;
    const stub = {
      runModel: vi.fn(),
      runModelSync: vi.fn(async (_model: string, _input: unknown, options: { waitMs: number; timeoutMs: number }) => {
        sent.push({ at: time.clock.now, waitMs: options.waitMs, timeoutMs: options.timeoutMs });
        time.clock.now += options.waitMs;
        next += 1;
        // The first finishes within its wait; the second is still running and must be polled within its own timeoutMs.
        return { data: { id: `sync-${next}`, status: next === 1 ? "COMPLETED" : "IN_PROGRESS", output: {} }, status: 200, headers: new Headers(), rateLimit: undefined };
      }),
      getModelJob: vi.fn(async (_model: string, id: string) => ({ data: { id, status: "COMPLETED", output: {} }, status: 200, headers: new Headers(), rateLimit: undefined })),
    };
    const catalog = { endpoints: {}, terminalStatuses: { COMPLETED: "success" as const }, syncWaitMs: { minimum: 1_000, maximum: 300_000 } };
    const batch = await runtimeJobs.runMany(stub as never, catalog, "m", [{}, {}], { sync: true, timeoutMs: 20_000, concurrency: 2, now: time.now, sleep: time.sleep });
    // The second job waits for the first answer (the gate's first-answer rule), then has its full 20 s.
    expect(sent.map(({ waitMs, timeoutMs }) => ({ waitMs, timeoutMs }))).toEqual(Array(2).fill({ waitMs: 15_000, timeoutMs: 20_000 }));
    expect(sent[1]!.at - sent[0]!.at).toBeGreaterThanOrEqual(15_000);
    expect(batch.items.map((item) => (item.ok ? item.jobId : String(item.error)))).toEqual(["sync-1", "sync-2"]);
  });

  it("holds a job at the rate gate up to its timeoutMs, then gives its run a full timeoutMs", async () => {
    // Two requests a minute: job 1 (run + one poll) uses them up, so job 2's submission waits 58 s at
    // the gate, within its 59 s timeoutMs; after the reset its own run and poll fit the window.
    await startFake({ quotas: [{ name: "minute", quota: 2, seconds: 60 }], plan: () => ({ queuedPolls: 0, runningPolls: 0, outcome: "COMPLETED" }) });
    const batch = await runMany(client, VIDEO, [input(1), input(2)], { timeoutMs: 59_000, concurrency: 1, now: time.now, sleep: time.sleep });
    expect(batch.items.map((item) => (item.ok ? "ok" : String(item.error)))).toEqual(["ok", "ok"]);
    expect(Math.max(...time.clock.pauses)).toBe(58_000);
    expect(fake.tooManyRequests).toBe(0);
  });

  it("does not hold a job at the rate gate past its timeoutMs: nothing is sent, and the error names the window", async () => {
    await startFake({ quotas: [{ name: "minute", quota: 2, seconds: 60 }], plan: () => ({ queuedPolls: 0, runningPolls: 0, outcome: "COMPLETED" }) });
    const batch = await runMany(client, VIDEO, [input(1), input(2)], { timeoutMs: 30_000, concurrency: 1, now: time.now, sleep: time.sleep });
    const [, second] = batch.items;
    expect(second!.ok ? undefined : second!.error).toBeInstanceOf(RateLimitWaitError);
    expect(second!.ok ? "" : String(second!.error)).toContain('window "minute", reset in 58 s');
    expect(fake.log.filter((l) => l.method === "POST")).toHaveLength(1);
    expect(time.clock.pauses.every((ms) => ms <= 30_000)).toBe(true);
  });

  it("does not resubmit after a 429 when the rate gate would hold the resubmission past timeoutMs", async () => {
    // The refusal says the window is empty for a minute; the run may last 10 s: the 429 stands, and nothing is sent again.
    const rateLimit = { windows: [{ name: "minute", remaining: 0, resetSeconds: 60, quota: 10, windowSeconds: 60 }], problems: [] };
    const refusal = new RateLimitError({ message: "429", status: 429, rawBody: "", headers: {}, method: "POST", url: "https://x.test/v2/m/run", retryAfterMs: 1_000, rateLimit });
    const stub = { runModel: vi.fn(async () => Promise.reject(refusal)), getModelJob: vi.fn() };
    const catalog = { endpoints: {}, terminalStatuses: { COMPLETED: "success" as const } };
    const batch = await runtimeJobs.runMany(stub as never, catalog, "m", [{}], { timeoutMs: 10_000, now: time.now, sleep: time.sleep });
    const [item] = batch.items;
    expect(item!.ok ? undefined : item!.error).toBe(refusal);
    expect(stub.runModel).toHaveBeenCalledTimes(1);
    expect(time.clock.pauses).toEqual([1_000]);
  });

  it.each([undefined, null, "text"])("finishes a batch whose first submission rejects with %s, freeing its turn at the gate", async (thrown) => {
    let calls = 0;
    const job = (id: string) => ({ data: { id, status: "COMPLETED", output: {} }, status: 200, headers: new Headers(), rateLimit: undefined });
    const stub = {
      runModel: vi.fn(async () => (++calls === 1 ? Promise.reject(thrown) : job(`job-${calls}`))),
      getModelJob: vi.fn(async (_model: string, id: string) => job(id)),
    };
    const catalog = { endpoints: {}, terminalStatuses: { COMPLETED: "success" as const } };
    const batch = await runtimeJobs.runMany(stub as never, catalog, "m", [{}, {}, {}], { concurrency: 3, now: time.now, sleep: time.sleep });
    expect(batch.items.map((item) => item.ok)).toEqual([false, true, true]);
    expect(batch.items[0]!.ok ? "none" : batch.items[0]!.error).toBe(thrown);
  });

  it("refuses a batch whose total estimate exceeds maxCostUsd before any request", async () => {
    await startFake();
    const error = await runMany(client, VIDEO, [input(1), input(2), input(3)], { maxCostUsd: 1.2 }).catch((e) => e);
    expect(error).toBeInstanceOf(CostLimitError);
    expect(error.estimateUsd).toBeCloseTo(1.5);
    expect(fake.log).toEqual([]);
  });

  it("on abort stops waiting and names the jobs already accepted", async () => {
    await startFake({ plan: () => ({ queuedPolls: 50, runningPolls: 0, outcome: "COMPLETED" }) });
    const controller = new AbortController();
    const sleep = async (ms: number, signal?: AbortSignal) => {
      await time.sleep(ms, signal);
      if (time.clock.pauses.length === 6) controller.abort();
      if (signal?.aborted) throw new runtimeJobs.JobWaitError("aborted", { jobId: "", lastJob: undefined, polls: 0, elapsedMs: 0 });
    };
    const error = await runMany(client, VIDEO, [input(1), input(2), input(3), input(4)], { concurrency: 2, signal: controller.signal, now: time.now, sleep }).catch((e) => e);
    expect(error).toBeInstanceOf(BatchAbortedError);
    expect(error.acceptedJobIds).toHaveLength(2);
    expect(error.acceptedJobIds.every((id: string) => fake.jobs.has(id))).toBe(true);
    expect(fake.jobs.size).toBe(2);
  });
});

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
    const once = new GpuCloudClient({ apiKey: "jobs-key", publicEndpointBaseUrl: fake.baseUrl, baseUrl: fake.baseUrl, maxRetries: 0 });
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
});

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
    const once = new GpuCloudClient({ apiKey: "jobs-key", publicEndpointBaseUrl: fake.baseUrl, baseUrl: fake.baseUrl, maxRetries: 0 });
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

describe("streamJob: a running job's partial outputs", () => {
  const streams = () => fake.log.filter((entry) => entry.path.includes("/stream/"));

  it("yields each chunk once, at the polling pace, and returns the status the job ended with", async () => {
    await startFake({ plan: () => ({ queuedPolls: 1, runningPolls: 3, outcome: "COMPLETED" }) });
    const { data: job } = await client.runModel(VIDEO, input());
    const chunks: unknown[] = [];
    const stream = streamJob(client, VIDEO, job.id, { now: time.now, sleep: time.sleep });
    let next = await stream.next();
    while (!next.done) {
      chunks.push(next.value.output);
      next = await stream.next();
    }
    expect(chunks).toEqual([{ chunk: 1 }, { chunk: 2 }, { chunk: 3 }]);
    expect(next.value).toBe("COMPLETED");
    expect(streams()).toHaveLength(5);
    expect(time.clock.pauses).toEqual([2000, 2000, 2000, 2000]);
  });

  it("stops polling on break, and on the signal with a JobWaitError; nothing is sent afterwards", async () => {
    await startFake({ plan: () => ({ queuedPolls: 0, runningPolls: 100, outcome: "COMPLETED" }) });
    const { data: job } = await client.runModel(VIDEO, input());
    for await (const chunk of streamJob(client, VIDEO, job.id, { now: time.now, sleep: time.sleep })) {
      if ((chunk.output as { chunk: number }).chunk === 2) break;
    }
    expect(streams()).toHaveLength(2);
    const controller = new AbortController();
    const sleep = async (ms: number, signal?: AbortSignal) => {
      if (time.clock.pauses.length === 3) controller.abort();
      await time.sleep(ms, signal);
    };
    const seen: unknown[] = [];
    const error = await (async () => {
      for await (const chunk of streamJob(client, VIDEO, job.id, { now: time.now, sleep, signal: controller.signal })) seen.push(chunk.output);
    })().catch((e) => e);
    expect(error).toBeInstanceOf(JobWaitError);
    expect(error.kind).toBe("aborted");
    const sent = streams().length;
    expect(seen).toHaveLength(sent - 2);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(streams()).toHaveLength(sent);
  });

  it("ends with a JobExpiredError once the service no longer keeps the job", async () => {
    await startFake();
    const error = await (async () => {
      for await (const _ of streamJob(client, VIDEO, "job-404", { now: time.now, sleep: time.sleep })) void _;
    })().catch((e) => e);
    expect(error).toBeInstanceOf(JobExpiredError);
  });
});

describe("maxTotalCostUsd: a batch's running budget", () => {
  const runs = () => fake.log.filter((entry) => entry.path.endsWith("/run"));

  it("never submits a job that would pass the budget, counting reported costs, and says why", async () => {
    // 0.50 USD a job (5 s at 1280*720): a 1.20 USD budget takes two, whatever the concurrency.
    await startFake();
    const batch = await runMany(client, VIDEO, [input(1), input(2), input(3), input(4)], { concurrency: 4, maxTotalCostUsd: 1.2, now: time.now, sleep: time.sleep });
    expect(batch.items.map((item) => item.ok)).toEqual([true, true, false, false]);
    const refused = batch.items[2]!;
    expect(!refused.ok && refused.error).toBeInstanceOf(BudgetExceededError);
    expect(!refused.ok && (refused.error as Error).message).toContain("would pass the batch's maxTotalCostUsd 1.20 USD (1.00 USD already spent or reserved)");
    expect(runs()).toHaveLength(2);
    expect(batch.totalCostUsd).toBeLessThanOrEqual(1.2);
  });

  it("frees the reservation of a job that was never accepted, and keeps it for one that failed", async () => {
    await startFake({ plan: (given) => ({ queuedPolls: 1, runningPolls: 1, outcome: given["prompt"] === "shot 1" ? "FAILED" : "COMPLETED" }) });
    const batch = await runMany(client, VIDEO, [input(1), input(2), input(3)], { concurrency: 1, maxTotalCostUsd: 1, now: time.now, sleep: time.sleep });
    // The failed job's 0.50 stays counted: the second fits, the third does not.
    expect(batch.items.map((item) => item.ok)).toEqual([false, true, false]);
    expect(runs()).toHaveLength(2);
  });

  it("with cancelOnBudget, cancels the running jobs once reported costs pass the budget", async () => {
    // The first job reports 1.50 USD where 0.50 was estimated: the second, still running, is cancelled.
    await startFake({
      plan: (given) => ({ queuedPolls: 1, runningPolls: given["prompt"] === "shot 1" ? 1 : 50, outcome: "COMPLETED" }),
      cost: (given) => (given["prompt"] === "shot 1" ? 1.5 : 0.5),
    });
    const batch = await runMany(client, VIDEO, [input(1), input(2), input(3)], { concurrency: 2, maxTotalCostUsd: 1.2, cancelOnBudget: true, now: time.now, sleep: time.sleep });
    expect(batch.items[0]!.ok).toBe(true);
    const second = batch.items[1]!;
    expect(!second.ok && second.error).toBeInstanceOf(JobWaitError);
    expect(!second.ok && (second.error as InstanceType<typeof JobWaitError>).cancellation?.cancelled).toEqual([second.jobId]);
    expect(fake.jobs.get(second.jobId!)?.cancelled).toBe(true);
    const third = batch.items[2]!;
    expect(!third.ok && third.error).toBeInstanceOf(BudgetExceededError);
    expect(runs()).toHaveLength(2);
    const missing = await runMany(client, VIDEO, [input()], { cancelOnBudget: true }).catch((e) => e);
    expect(missing.field).toBe("cancelOnBudget");
  });

  it("refuses, before any request, a budget it cannot hold: a model without pricing, a bad figure", async () => {
    await startFake();
    const unpriced = await runtimeJobs.runMany(client, MODEL_CATALOG, "some-unlisted-model", [{}], { maxTotalCostUsd: 5 }).catch((e) => e);
    expect(unpriced).toBeInstanceOf(CostLimitError);
    const bad = await runMany(client, VIDEO, [input()], { maxTotalCostUsd: -1 }).catch((e) => e);
    expect(bad).toBeInstanceOf(InvalidRequestError);
    expect(bad.field).toBe("maxTotalCostUsd");
    expect(fake.log).toHaveLength(0);
  });
});

describe("what a helper leaves behind when it stops (review cases)", () => {
  const done = (status: string, extra: object = {}) => ({ data: { id: "j", status, ...extra }, status: 200, headers: new Headers(), rateLimit: undefined });

  it("cancels a job whose retry request the caller aborted (it may be queued again)", async () => {
    const controller = new AbortController();
    const { AbortedError } = await import("../../generated/gpu-cloud-client/src/index.ts");
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

  it("keeps a budget's reservation for a submission that got no answer (the job may exist)", async () => {
    const { TimeoutError } = await import("../../generated/gpu-cloud-client/src/index.ts");
    let calls = 0;
    const stub = {
      runModel: vi.fn(async () => {
        calls += 1;
        if (calls === 1) throw new TimeoutError({ method: "POST", url: "https://x.test/run", timeoutMs: 1 });
        return { ...done("IN_QUEUE"), data: { id: `j${calls}`, status: "IN_QUEUE" } };
      }),
      getModelJob: vi.fn(async (_model: string, id: string) => ({ ...done("COMPLETED"), data: { id, status: "COMPLETED", output: { video_url: "https://f.test/v.mp4", cost: 0.5 } } })),
    };
    const batch = await runtimeJobs.runMany(stub as never, MODEL_CATALOG, VIDEO, [input(1), input(2), input(3)], { concurrency: 1, maxTotalCostUsd: 1, now: time.now, sleep: time.sleep });
    expect(batch.items.map((item) => item.ok)).toEqual([false, true, false]);
    expect(stub.runModel).toHaveBeenCalledTimes(2);
  });

  it("leaves no timer behind when a stream's reader stops after a chunk", async () => {
    vi.useFakeTimers();
    try {
      const stub = { streamModelJob: vi.fn(async () => ({ ...done("IN_PROGRESS"), data: { status: "IN_PROGRESS", stream: [{ output: 1 }] } })) };
      const stream = runtimeJobs.streamJob(stub as never, MODEL_CATALOG, VIDEO, "j", { timeoutMs: 60_000 });
      expect((await stream.next()).value).toEqual({ output: 1 });
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("runMany within the limits the contract documents (x-request-limits)", () => {
  const small = { run: { requests: 3, windowSeconds: 10 }, status: { requests: 4, windowSeconds: 10 } };
  const paced = (requestLimits?: typeof small) => ({ ...MODEL_CATALOG, requestLimits });

  it("paces a batch by them while the service sends no RateLimit header: not one 429, where without them there are", async () => {
    for (const requestLimits of [small, undefined]) {
      await fake?.stop();
      time = simulatedTime();
      await startFake({ quotas: [], endpointLimits: small, plan: () => ({ queuedPolls: 1, runningPolls: 0, outcome: "COMPLETED" }) });
      // The transport would retry a refused poll after Retry-After in real time; the job helpers do it on the simulated clock.
      client = new GpuCloudClient({ apiKey: "jobs-key", publicEndpointBaseUrl: fake.baseUrl, baseUrl: fake.baseUrl, maxRetries: 0 });
      const batch = await runtimeJobs.runMany(client, paced(requestLimits), VIDEO, Array.from({ length: 8 }, (_, n) => input(n)), { concurrency: 4, now: time.now, sleep: time.sleep });
      expect(batch.succeeded).toBe(8);
      expect(fake.duplicateSubmissions()).toBe(0);
      if (requestLimits) expect(fake.tooManyRequests).toBe(0);
      else expect(fake.tooManyRequests).toBeGreaterThan(0);
    }
  });

  it("keeps the contract's runs in flight at once to its concurrent cap, with the generated catalog", async () => {
    // The contract: run takes 1,000 requests per 10 s, 200 at once; 260 jobs at a concurrency of 260.
    expect(MODEL_CATALOG.requestLimits?.run).toEqual({ requests: 1000, windowSeconds: 10, concurrent: 200 });
    await startFake({ quotas: [], endpointLimits: { run: MODEL_CATALOG.requestLimits!.run! }, latencyMs: 200, plan: () => ({ queuedPolls: 0, runningPolls: 0, outcome: "COMPLETED" }) });
    const inputs = Array.from({ length: 260 }, (_, n) => input(n));
    const batch = await runMany(client, VIDEO, inputs, { concurrency: 260, now: time.now, sleep: time.sleep });
    expect(batch.succeeded).toBe(260);
    expect(fake.tooManyRequests).toBe(0);
    expect(fake.peakInFlight.get("run")).toBe(200);
  });

  it("keeps to the contract's window whatever windows the server reports", async () => {
    const serverWindows = [[{ name: "ten", quota: 100, seconds: 10 }], [{ name: "minute", quota: 100, seconds: 60 }], []];
    for (const quotas of serverWindows) {
      await fake?.stop();
      time = simulatedTime();
      await startFake({ quotas, plan: () => ({ queuedPolls: 0, runningPolls: 0, outcome: "COMPLETED" }) });
      const tight = { run: { requests: 1, windowSeconds: 10 } };
      const batch = await runtimeJobs.runMany(client, { ...MODEL_CATALOG, requestLimits: tight }, VIDEO, [input(1), input(2), input(3)], { concurrency: 3, now: time.now, sleep: time.sleep });
      expect(batch.succeeded).toBe(3);
      // The server's windows (per user) say nothing of the endpoint's: the second and third runs wait for their turn.
      const runs = fake.log.filter((l) => l.method === "POST").length;
      expect(runs).toBe(3);
      expect(time.clock.pauses.filter((ms) => ms >= 5_000).length, JSON.stringify(quotas)).toBeGreaterThanOrEqual(2);
    }
  });

  it("gives back runsync's turn when the wait at the gate left it too little time, and sends run in its own turn", async () => {
    // runsync is refused (429, retry after 1 s); its window takes one request per 10 s, so the resubmission waits 9 s at
    // the gate, which leaves 2 s of the 12 s: too little for runsync's shortest wait and margin. It goes to run instead.
    const refusal = new RateLimitError({ message: "429", status: 429, rawBody: "", headers: {}, method: "POST", url: "https://x.test/v2/m/runsync", retryAfterMs: 1_000, rateLimit: undefined });
    const stub = {
      runModel: vi.fn(async () => answered("job-1")),
      runModelSync: vi.fn(async () => Promise.reject(refusal)),
      getModelJob: vi.fn(async (_m: string, id: string) => answered(id)),
    };
    const catalog = { endpoints: {}, terminalStatuses: { COMPLETED: "success" as const }, syncWaitMs: { minimum: 1_000, maximum: 300_000 }, requestLimits: { run: { requests: 10, windowSeconds: 10 }, runsync: { requests: 1, windowSeconds: 10 } } };
    const batch = await runtimeJobs.runMany(stub as never, catalog, "m", [{}], { sync: true, timeoutMs: 12_000, now: time.now, sleep: time.sleep });
    expect(batch.items.map((item) => (item.ok ? item.jobId : String(item.error)))).toEqual(["job-1"]);
    expect(stub.runModelSync).toHaveBeenCalledTimes(1);
    expect(stub.runModel).toHaveBeenCalledTimes(1);
    expect(time.clock.pauses.slice(0, 2)).toEqual([1_000, 9_000]);
  });

  const answered = (id: string, status = "COMPLETED") => ({ data: { id, status, output: {} }, status: 200, headers: new Headers(), rateLimit: undefined });

  it("holds a runsync that gives way to run under run's limits", async () => {
    // 5 s is too little for runsync's shortest wait and its margin: every job goes to run, whose window takes one per 10 s.
    const stub = { runModel: vi.fn(async () => answered(`job-${stub.runModel.mock.calls.length}`)), runModelSync: vi.fn(), getModelJob: vi.fn(async (_m: string, id: string) => answered(id)) };
    const catalog = { endpoints: {}, terminalStatuses: { COMPLETED: "success" as const }, syncWaitMs: { minimum: 1_000, maximum: 300_000 }, requestLimits: { run: { requests: 1, windowSeconds: 10 }, runsync: { requests: 100, windowSeconds: 10 } } };
    const batch = await runtimeJobs.runMany(stub as never, catalog, "m", [{}, {}, {}], { sync: true, timeoutMs: 5_000, concurrency: 3, now: time.now, sleep: time.sleep });
    expect(stub.runModelSync).not.toHaveBeenCalled();
    expect(stub.runModel).toHaveBeenCalledTimes(1);
    expect(batch.items.map((item) => (item.ok ? "ok" : (item.error as RateLimitWaitError).window))).toEqual(["ok", "run", "run"]);
  });

  it("says so when the contract's requests at once held a submission past its timeoutMs", async () => {
    // concurrent 1: the first answer comes at once; the second run lasts 30 s, and the third waits for it past its 5 s.
    let release!: () => void;
    const stub = {
      runModel: vi.fn(async () => {
        const n = stub.runModel.mock.calls.length;
        if (n === 2) {
          time.clock.now += 30_000;
          await new Promise<void>((resolve) => (release = resolve));
        }
        return answered(`job-${n}`);
      }),
      getModelJob: vi.fn(async (_m: string, id: string) => answered(id)),
    };
    const catalog = { endpoints: {}, terminalStatuses: { COMPLETED: "success" as const }, requestLimits: { run: { requests: 100, windowSeconds: 10, concurrent: 1 } } };
    const running = runtimeJobs.runMany(stub as never, catalog, "m", [{}, {}, {}], { timeoutMs: 5_000, concurrency: 3, now: time.now, sleep: time.sleep });
    await vi.waitFor(() => expect(stub.runModel).toHaveBeenCalledTimes(2));
    release();
    const batch = await running;
    expect(stub.runModel).toHaveBeenCalledTimes(2);
    const third = batch.items[2]!;
    const error = third.ok ? undefined : (third.error as RateLimitWaitError);
    expect(error).toMatchObject({ source: "contract", window: "run", waitMs: 30_000 });
    expect(String(error)).toContain('documented limit of "run" (1 at once) held this job\'s submission 30 s, past its timeoutMs of 5000 ms; nothing was sent');
  });

  it("does not hold a submission at the contract's window past its timeoutMs, and says which limit held it", async () => {
    await startFake({ quotas: [], plan: () => ({ queuedPolls: 0, runningPolls: 0, outcome: "COMPLETED" }) });
    const batch = await runtimeJobs.runMany(client, paced({ ...small, run: { requests: 1, windowSeconds: 10 } }), VIDEO, [input(1), input(2)], { timeoutMs: 5_000, concurrency: 2, now: time.now, sleep: time.sleep });
    const [first, second] = batch.items;
    expect(first!.ok).toBe(true);
    const error = second!.ok ? undefined : second!.error;
    expect(error).toBeInstanceOf(RateLimitWaitError);
    // The first job's run took the window's one turn; the second is held what is left of its 10 s (less the first job's poll, when that came first).
    expect(error).toMatchObject({ source: "contract", window: "run" });
    expect((error as RateLimitWaitError).waitMs).toBeGreaterThanOrEqual(8_000);
    expect((error as RateLimitWaitError).waitMs).toBeLessThanOrEqual(10_000);
    expect(String(error)).toMatch(/documented limit of "run" \(1 request per 10 s; the next turn in (8|9|10) s\) would hold/);
    expect(fake.log.filter((l) => l.method === "POST")).toHaveLength(1);
  });
});

describe("deadlines, in real time against a scripted server", () => {
  type Reply = (req: http.IncomingMessage, res: http.ServerResponse) => void;
  let server: http.Server | undefined;
  let requests: string[] = [];

  async function serve(reply: Reply): Promise<GpuCloudClient> {
    requests = [];
    server = http.createServer((req, res) => {
      requests.push(`${req.method} ${req.url}`);
      req.resume().on("end", () => reply(req, res));
    });
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return new GpuCloudClient({ apiKey: "jobs-key", baseUrl: url, publicEndpointBaseUrl: url });
  }
  const refuse = (retryAfter: string): Reply => (_, res) => {
    res.writeHead(429, { "content-type": "application/problem+json", "retry-after": retryAfter });
    res.end(JSON.stringify({ title: "Too Many Requests", status: 429, detail: "slow down" }));
  };
  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    server = undefined;
  });

  it("ends waitForJob at its timeout when the status endpoint never answers", async () => {
    const silent = await serve(() => undefined);
    const started = Date.now();
    const error = await waitForJob(silent, VIDEO, "job-1", { timeoutMs: 600 }).catch((e) => e);
    expect(error).toBeInstanceOf(JobWaitError);
    expect(error.kind).toBe("timeout");
    // Not 600 ms per attempt of the transport, plus its waits between them.
    expect(Date.now() - started).toBeLessThan(1_400);
  });

  it("ends waitForJob at its timeout when the server asks to retry later than that, naming no status it never saw", async () => {
    const refusing = await serve(refuse("5"));
    const started = Date.now();
    const error = await waitForJob(refusing, VIDEO, "job-1", { timeoutMs: 600 }).catch((e) => e);
    expect(error).toBeInstanceOf(JobWaitError);
    expect(error.kind).toBe("timeout");
    expect(error.message).toContain("never seen");
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it("does not turn a Retry-After beyond setTimeout's limit into a busy loop", async () => {
    const refusing = await serve(refuse(String(30 * 24 * 3_600)));
    const error = await waitForJob(refusing, VIDEO, "job-1", { signal: AbortSignal.timeout(500) }).catch((e) => e);
    expect(error).toBeInstanceOf(JobWaitError);
    expect(error.kind).toBe("aborted");
    expect(requests).toHaveLength(1);
  });

  it("bounds runAndWait's resubmissions after 429 by its timeout, a second apart at least", async () => {
    const refusing = await serve(refuse("0"));
    const started = Date.now();
    const error = await runAndWait(refusing, VIDEO, input(), { timeoutMs: 1_500 }).catch((e) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(requests).toEqual(["POST /v2/wan-2-6-i2v/run", "POST /v2/wan-2-6-i2v/run"]);
    expect(Date.now() - started).toBeLessThan(2_500);
  });

  it("keeps runMany under a quota smaller than its concurrency from the first request on, whatever order answers come back in", async () => {
    // An honest fixed-window quota (3 per second, counted when a request arrives), the first answer slow.
    const quota = 3;
    let windowStart = 0;
    let used = 0;
    let refused = 0;
    let seen = 0;
    const batchClient = await serve((_, res) => {
      const now = Date.now();
      if (now - windowStart >= 1_000) [windowStart, used] = [now, 0];
      used += 1;
      seen += 1;
      const headers = { ratelimit: `"second";r=${Math.max(0, quota - used)};t=${Math.ceil((windowStart + 1_000 - now) / 1_000)}`, "ratelimit-policy": `"second";q=${quota};w=1` };
      const over = used > quota;
      if (over) refused += 1;
      setTimeout(() => {
        res.writeHead(over ? 429 : 200, { ...headers, "content-type": over ? "application/problem+json" : "application/json", ...(over ? { "retry-after": "1" } : {}) });
        res.end(JSON.stringify(over ? { title: "Too Many Requests", status: 429, detail: "second window" } : { id: `job-${seen}`, status: "COMPLETED", output: { image_url: "https://files.example/x.png", cost: 0.01 } }));
      }, seen === 1 ? 300 : 10);
    });
    const batch = await runMany(batchClient, "black-forest-labs-flux-1-dev", Array.from({ length: 8 }, (_, n) => ({ prompt: `p${n}` })), { concurrency: 4 });
    expect(batch.succeeded).toBe(8);
    expect(refused).toBe(0);
  });
});
