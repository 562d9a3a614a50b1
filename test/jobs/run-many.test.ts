/**
 * runMany against the stateful fake of the model endpoints (and stub clients), on a simulated clock:
 * a batch within the rate limits the server reports, in input order, each job bounded by its own
 * timeoutMs counted from when the rate gate lets it go, and what an abort leaves.
 */
import { describe, expect, it, vi } from "vitest";
import {
  BatchAbortedError,
  CostLimitError,
  GpuCloudClient,
  JobFailedError,
  RateLimitError,
  RateLimitWaitError,
  runMany,
} from "../../generated/gpu-cloud-client/src/index.ts";
import * as runtimeJobs from "../../generated/gpu-cloud-client/src/runtime/model-endpoints/index.ts";
import { driven, jsonResponse, scriptedFetch } from "../support/scripted-fetch.ts";
import { VIDEO, input, fake, client, time, startFake, useFakeSession } from "./fake-session.ts";

useFakeSession();

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

  it("keeps runMany under a quota smaller than its concurrency from the first request on, whatever order answers come back in", async () => {
    // An honest fixed-window quota (3 a second, counted when a request arrives), the first answer slow. On fake timers
    // against a scripted fetch: the windows and the order of the answers are the same however fast the machine is.
    vi.useFakeTimers();
    try {
      const quota = 3;
      let windowStart = -Infinity;
      let used = 0;
      let refused = 0;
      const { fetch, requests } = scriptedFetch((_, n) => {
        const now = Date.now();
        if (now - windowStart >= 1_000) [windowStart, used] = [now, 0];
        used += 1;
        const headers = { ratelimit: `"second";r=${Math.max(0, quota - used)};t=${Math.ceil((windowStart + 1_000 - now) / 1_000)}`, "ratelimit-policy": `"second";q=${quota};w=1` };
        const over = used > quota;
        if (over) refused += 1;
        const response = over
          ? jsonResponse(429, { title: "Too Many Requests", status: 429, detail: "second window" }, { ...headers, "retry-after": "1" })
          : jsonResponse(200, { id: `job-${n}`, status: "COMPLETED", output: { image_url: "https://files.example/x.png", cost: 0.01 } }, headers);
        return { delayMs: n === 1 ? 300 : 10, response };
      });
      const batchClient = new GpuCloudClient({ apiKey: "jobs-key", baseUrl: "https://api.test", publicEndpointBaseUrl: "https://api.test", fetch });
      const batch = await driven(runMany(batchClient, "black-forest-labs-flux-1-dev", Array.from({ length: 8 }, (_, n) => ({ prompt: `p${n}` })), { concurrency: 4 }));
      expect(batch.succeeded).toBe(8);
      expect(refused).toBe(0);
      expect(requests).toHaveLength(8);
    } finally {
      vi.useRealTimers();
    }
  });
});
