/**
 * Every wait inside the job helpers ends by the caller's `timeoutMs` and signal, in real time
 * against a loopback server: a submission that is never answered, and `RateLimit` resets that are
 * absurd (`t=999999999999999`) or merely long (`t=3600`), which are capped at a day and reported.
 */
import { afterEach, describe, expect, it } from "vitest";
import {
  BatchAbortedError,
  GpuCloudClient,
  JobWaitError,
  RateLimitWaitError,
  TimeoutError,
  runAndWait,
  runMany,
  waitForJob,
} from "../../generated/gpu-cloud-client/src/index.ts";
import { startRecordingServer, type RecordingServer, type Reply } from "../support/recording-server.ts";

const MODEL = "black-forest-labs-flux-1-dev";
const DAY_MS = 24 * 3600 * 1000;

let server: RecordingServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(reply: (method: string) => Reply | "silent", clientTimeoutMs = 10_000): Promise<GpuCloudClient> {
  server = await startRecordingServer((request) => reply(request.method));
  return new GpuCloudClient({ apiKey: "k", baseUrl: server.url, publicEndpointBaseUrl: server.url, timeoutMs: clientTimeoutMs });
}

/** A queued job, its answer telling that the minute's requests are used up until `reset` seconds from now. */
const exhausted = (reset: string): Reply => ({
  status: 200,
  headers: { "content-type": "application/json", ratelimit: `"minute";r=0;t=${reset}` },
  body: JSON.stringify({ id: "job-1", status: "IN_QUEUE" }),
});

async function timed<T>(run: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = Date.now();
  const value = await run();
  return { value, ms: Date.now() - started };
}

describe("a submission that is never answered", () => {
  it("ends runAndWait at its timeoutMs, not the client's, saying the job may exist", async () => {
    const client = await serve(() => "silent");
    const { value: error, ms } = await timed(() => runAndWait(client, MODEL, { prompt: "p" }, { timeoutMs: 1_500 }).catch((e) => e));
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ kind: "timeout", method: "POST", timeoutMs: 1_500 });
    expect(error.message).toContain("may have been created");
    expect(ms).toBeGreaterThanOrEqual(1_400);
    expect(ms).toBeLessThan(3_000);
    expect(server!.requests.map((r) => r.method)).toEqual(["POST"]);
  });

  it("ends each job of runMany at its timeoutMs", async () => {
    const client = await serve(() => "silent");
    const { value: batch, ms } = await timed(() => runMany(client, MODEL, [{ prompt: "a" }, { prompt: "b" }], { timeoutMs: 1_000, concurrency: 2 }));
    expect(batch.items.map((item) => (item.ok ? undefined : item.error))).toEqual([expect.any(TimeoutError), expect.any(TimeoutError)]);
    // The second waits for the first answer (the rate gate's first-answer rule), then has its own second.
    expect(ms).toBeLessThan(4_000);
    expect(server!.requests.map((r) => r.method)).toEqual(["POST", "POST"]);
  });

  it("says the job may exist when the client's own timeout ends it first", async () => {
    const client = await serve(() => "silent", 500);
    const error = await runAndWait(client, MODEL, { prompt: "p" }, { timeoutMs: 10_000 }).catch((e) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error.timeoutMs).toBe(500);
    expect(error.message).toContain("may have been created");
  });
});

describe.each(["999999999999999", "3600"])("a RateLimit reset of %s s", (reset) => {
  it("does not hold runMany past its timeoutMs: the queued jobs are not sent, and the error reports the reset", async () => {
    const client = await serve(() => exhausted(reset));
    const inputs = [{ prompt: "a" }, { prompt: "b" }, { prompt: "c" }];
    const { value: batch, ms } = await timed(() => runMany(client, MODEL, inputs, { timeoutMs: 1_500, concurrency: 2, intervalMs: 100 }));
    expect(ms).toBeLessThan(3_000);
    const [first, ...queued] = batch.items;
    // The one job sent: its polls wait at the gate until its deadline.
    expect(first!.ok ? undefined : first!.error).toBeInstanceOf(JobWaitError);
    for (const item of queued) {
      const error = item.ok ? undefined : item.error;
      expect(error).toBeInstanceOf(RateLimitWaitError);
      expect(error).toMatchObject({ kind: "rate_limit", window: "minute", reportedResetSeconds: Number(reset), capped: Number(reset) > 86_400 });
      expect(String(error)).toContain(`reset in ${reset} s`);
    }
    expect(server!.requests.map((r) => r.method)).toEqual(["POST"]);
  });

  it("ends runMany on the caller's signal when timeoutMs is Infinity", async () => {
    const client = await serve(() => exhausted(reset));
    const { value: error, ms } = await timed(() =>
      runMany(client, MODEL, [{ prompt: "a" }, { prompt: "b" }], { timeoutMs: Infinity, signal: AbortSignal.timeout(500) }).catch((e) => e),
    );
    expect(error).toBeInstanceOf(BatchAbortedError);
    expect(error.acceptedJobIds).toEqual(["job-1"]);
    expect(ms).toBeLessThan(2_000);
  });

  it("ends waitForJob at its timeoutMs and reports the wait the service asked for", async () => {
    const client = await serve(() => exhausted(reset));
    const { value: error, ms } = await timed(() => waitForJob(client, MODEL, "job-1", { timeoutMs: 800 }).catch((e) => e));
    expect(error).toBeInstanceOf(JobWaitError);
    expect(error.kind).toBe("timeout");
    expect(error.rateLimitWaitMs).toBe(Math.min(Number(reset) * 1000, DAY_MS));
    expect(error.message).toContain("rate limit asked to wait");
    expect(ms).toBeLessThan(2_000);
  });
});

it("never pauses longer than a day on the service's word, even without a timeout", async () => {
  const client = await serve(() => exhausted("999999999999999"));
  const pauses: number[] = [];
  const controller = new AbortController();
  const sleep = async (ms: number) => {
    pauses.push(ms);
    if (pauses.length === 2) controller.abort();
  };
  const error = await waitForJob(client, MODEL, "job-1", { timeoutMs: Infinity, signal: controller.signal, sleep }).catch((e) => e);
  expect(error).toBeInstanceOf(JobWaitError);
  expect(pauses).toEqual([DAY_MS, DAY_MS]);
});
