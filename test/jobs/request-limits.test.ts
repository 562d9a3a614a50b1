/**
 * runMany within the limits the contract documents for each job operation (x-request-limits):
 * requests per window and in flight at once, whatever the server's headers say, on the stateful fake
 * of the model endpoints and a simulated clock.
 */
import { describe, expect, it, vi } from "vitest";
import {
  MODEL_CATALOG,
  RateLimitError,
  RateLimitWaitError,
  runMany,
} from "../../generated/gpu-cloud-client/src/index.ts";
import * as runtimeJobs from "../../generated/gpu-cloud-client/src/runtime/model-endpoints/index.ts";
import { VIDEO, input, fake, client, time, startFake, restart, answer, useFakeSession } from "./fake-session.ts";

useFakeSession();

describe("runMany within the limits the contract documents (x-request-limits)", () => {
  const small = { run: { requests: 3, windowSeconds: 10 }, status: { requests: 4, windowSeconds: 10 } };
  const paced = (requestLimits?: typeof small) => ({ ...MODEL_CATALOG, requestLimits });

  it("paces a batch by them while the service sends no RateLimit header: not one 429, where without them there are", async () => {
    for (const requestLimits of [small, undefined]) {
      await restart();
      // The transport would retry a refused poll after Retry-After in real time; the job helpers do it on the simulated clock.
      await startFake({ quotas: [], endpointLimits: small, plan: () => ({ queuedPolls: 1, runningPolls: 0, outcome: "COMPLETED" }) }, { maxRetries: 0 });
      const batch = await runtimeJobs.runMany(client, paced(requestLimits), VIDEO, Array.from({ length: 8 }, (_, n) => input(n)), { concurrency: 4, now: time.now, sleep: time.sleep });
      expect(batch.succeeded).toBe(8);
      expect(fake.duplicateSubmissions()).toBe(0);
      if (requestLimits) expect(fake.tooManyRequests).toBe(0);
      else expect(fake.tooManyRequests).toBeGreaterThan(0);
    }
  });

  // Some 400 requests through the client and the fake: the budget of that work on a loaded machine, not a bound it asserts.
  it("keeps the contract's runs in flight at once to its concurrent cap, with the generated catalog", { timeout: 120_000 }, async () => {
    // The contract: run takes 1,000 requests per 10 s, 200 at once; 201 jobs at a concurrency of 201. The fake answers
    // no run (after the first) until 200 are in flight, so the cap is reached however slowly they come; a 201st is a 429.
    expect(MODEL_CATALOG.requestLimits?.run).toEqual({ requests: 1000, windowSeconds: 10, concurrent: 200 });
    const { run } = MODEL_CATALOG.requestLimits!;
    await startFake({ quotas: [], endpointLimits: { run: run! }, holdUntilInFlight: { run: run!.concurrent! }, plan: () => ({ queuedPolls: 0, runningPolls: 0, outcome: "COMPLETED" }) });
    const inputs = Array.from({ length: 201 }, (_, n) => input(n));
    const batch = await runMany(client, VIDEO, inputs, { concurrency: 201, now: time.now, sleep: time.sleep });
    expect(batch.succeeded).toBe(201);
    expect(fake.tooManyRequests).toBe(0);
    expect(fake.peakInFlight.get("run")).toBe(200);
  });

  it("keeps to the contract's window whatever windows the server reports", async () => {
    const serverWindows = [[{ name: "ten", quota: 100, seconds: 10 }], [{ name: "minute", quota: 100, seconds: 60 }], []];
    for (const quotas of serverWindows) {
      await restart();
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

  const answered = (id: string, status = "COMPLETED") => answer({ id, status, output: {} });

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
    let sent!: () => void;
    const secondSent = new Promise<void>((resolve) => (sent = resolve));
    const stub = {
      runModel: vi.fn(async () => {
        const n = stub.runModel.mock.calls.length;
        if (n === 2) {
          time.clock.now += 30_000;
          sent();
          await new Promise<void>((resolve) => (release = resolve));
        }
        return answered(`job-${n}`);
      }),
      getModelJob: vi.fn(async (_m: string, id: string) => answered(id)),
    };
    const catalog = { endpoints: {}, terminalStatuses: { COMPLETED: "success" as const }, requestLimits: { run: { requests: 100, windowSeconds: 10, concurrent: 1 } } };
    const running = runtimeJobs.runMany(stub as never, catalog, "m", [{}, {}, {}], { timeoutMs: 5_000, concurrency: 3, now: time.now, sleep: time.sleep });
    await secondSent;
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
