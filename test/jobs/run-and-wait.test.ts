/**
 * runAndWait against the stateful fake of the model endpoints (and stub clients), on a simulated
 * clock: one submission, with run or runsync, bounded by timeoutMs, never sent twice.
 */
import { describe, expect, it, vi } from "vitest";
import {
  GpuCloudClient,
  GpuCloudClientCore,
  InvalidRequestError,
  type RequestOptions,
  JobFailedError,
  JobWaitError,
  RateLimitError,
  runAndWait,
  runMany,
  waitForJob,
} from "../../generated/gpu-cloud-client/src/index.ts";
import * as runtimeJobs from "../../generated/gpu-cloud-client/src/runtime/model-endpoints/index.ts";
import { VIDEO, input, fake, client, time, startFake, useFakeSession } from "./fake-session.ts";

useFakeSession();

describe("runAndWait", () => {
  it("runs on the client's core (no per-model methods), through the same operations", async () => {
    await startFake();
    const core = new GpuCloudClientCore({ apiKey: "jobs-key", publicEndpointBaseUrl: fake.baseUrl, baseUrl: fake.baseUrl, fetch: fake.service.handler });
    const result = await runAndWait(core, VIDEO, { ...input(), duration: 10, size: "1920*1080" }, { sync: true, now: time.now, sleep: time.sleep });
    expect(result.costUsd).toBe(1.5);
    expect(fake.log[0]).toMatchObject({ method: "POST", path: `/v2/${VIDEO}/runsync` });
    expect(fake.log[0]?.query).toMatch(/^\?wait=\d+$/);
    // The core's key went with every request (the fake answers 401 without one), and the input is checked against its model's schema first.
    expect(fake.log.map((l) => l.status).filter((status) => status >= 400)).toEqual([]);
    await expect(runAndWait(core, VIDEO, { ...input(), duration: 7 } as never, { now: time.now, sleep: time.sleep })).rejects.toThrow(/body\.input\.duration/);
  });

  it("uses the client's own methods when it has them (a subclass's included)", async () => {
    await startFake();
    const seen: string[] = [];
    class Traced extends GpuCloudClient {
      override async getModelJob<M extends string>(model: M, jobId: string, options?: RequestOptions) {
        seen.push(jobId);
        return super.getModelJob(model, jobId, options);
      }
    }
    const traced = new Traced({ apiKey: "jobs-key", publicEndpointBaseUrl: fake.baseUrl, baseUrl: fake.baseUrl, fetch: fake.service.handler });
    const result = await runAndWait(traced, VIDEO, input(), { now: time.now, sleep: time.sleep });
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((id) => id === result.id)).toBe(true);
  });

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
        const response = await fake.service.handler(request);
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
