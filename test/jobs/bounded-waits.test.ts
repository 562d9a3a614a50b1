/**
 * Every wait inside the job helpers ends by the caller's `timeoutMs` and signal: a submission or a
 * poll never answered, a Retry-After later than the deadline or beyond setTimeout's limit, 429s
 * submitted again, and `RateLimit` resets that are absurd (`t=999999999999999`) or merely long
 * (`t=3600`), which are capped at a day and reported. On vitest's fake timers against a scripted
 * fetch: every time asserted is the fake clock's, exactly, however fast or loaded the machine is.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  BatchAbortedError,
  GpuCloudClient,
  JobWaitError,
  RateLimitError,
  RateLimitWaitError,
  TimeoutError,
  runAndWait,
  runMany,
  waitForJob,
} from "../../generated/gpu-cloud-client/src/index.ts";
import { driven, jsonResponse, scriptedFetch, type ScriptedReply, type ScriptedRequest } from "../support/scripted-fetch.ts";

const MODEL = "black-forest-labs-flux-1-dev";
const DAY_MS = 24 * 3600 * 1000;

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/** A client whose requests `reply` answers, and what it was sent. */
function serve(reply: (request: ScriptedRequest, n: number) => ScriptedReply, clientTimeoutMs = 10_000): { client: GpuCloudClient; requests: ScriptedRequest[] } {
  const { fetch, requests } = scriptedFetch(reply);
  return { client: new GpuCloudClient({ apiKey: "k", baseUrl: "https://api.test", publicEndpointBaseUrl: "https://api.test", timeoutMs: clientTimeoutMs, fetch }), requests };
}

/** The outcome of `call`, driven on the fake clock, and how long it took on that clock. */
async function timed<T>(call: () => Promise<T>): Promise<{ value: T | unknown; ms: number }> {
  const started = Date.now();
  const value = await driven(call()).catch((error: unknown) => error);
  return { value, ms: Date.now() - started };
}

/** A queued job, its answer telling that the minute's requests are used up until `reset` seconds from now. */
const exhausted = (reset: string) => () => jsonResponse(200, { id: "job-1", status: "IN_QUEUE" }, { ratelimit: `"minute";r=0;t=${reset}` });
const refused = (retryAfter: string) => () => jsonResponse(429, { title: "Too Many Requests", status: 429, detail: "slow down" }, { "retry-after": retryAfter });

describe("a submission that is never answered", () => {
  it("ends runAndWait at its timeoutMs, not the client's, saying the job may exist", async () => {
    const { client, requests } = serve(() => "silent");
    const { value: error, ms } = await timed(() => runAndWait(client, MODEL, { prompt: "p" }, { timeoutMs: 1_500 }));
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ kind: "timeout", method: "POST", timeoutMs: 1_500 });
    expect((error as Error).message).toContain("may have been created");
    expect(ms).toBe(1_500);
    expect(requests.map((r) => r.method)).toEqual(["POST"]);
  });

  it("ends each job of runMany at its timeoutMs", async () => {
    const { client, requests } = serve(() => "silent");
    const { value: batch, ms } = await timed(() => runMany(client, MODEL, [{ prompt: "a" }, { prompt: "b" }], { timeoutMs: 1_000, concurrency: 2 }));
    const items = (batch as Awaited<ReturnType<typeof runMany>>).items;
    expect(items.map((item) => (item.ok ? undefined : item.error))).toEqual([expect.any(TimeoutError), expect.any(TimeoutError)]);
    expect(items.map((item) => (item.ok ? undefined : (item.error as TimeoutError).timeoutMs))).toEqual([1_000, 1_000]);
    // The second waits for the first answer (the rate gate's first-answer rule), then has its own second.
    expect(requests.map((r) => [r.method, r.at - requests[0]!.at])).toEqual([["POST", 0], ["POST", 1_000]]);
    expect(ms).toBe(2_000);
  });

  it("says the job may exist when the client's own timeout ends it first", async () => {
    const { client } = serve(() => "silent", 500);
    const { value: error, ms } = await timed(() => runAndWait(client, MODEL, { prompt: "p" }, { timeoutMs: 10_000 }));
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).timeoutMs).toBe(500);
    expect((error as Error).message).toContain("may have been created");
    expect(ms).toBe(500);
  });
});

describe("a poll that is never answered, or refused for longer than the wait", () => {
  it("ends waitForJob at its timeout when the status endpoint never answers", async () => {
    const { client, requests } = serve(() => "silent");
    const { value: error, ms } = await timed(() => waitForJob(client, MODEL, "job-1", { timeoutMs: 600 }));
    expect(error).toBeInstanceOf(JobWaitError);
    expect((error as JobWaitError).kind).toBe("timeout");
    // Not 600 ms per attempt of the transport, plus its waits between them: one attempt, cut at the wait's deadline.
    expect(requests).toHaveLength(1);
    expect(ms).toBe(600);
  });

  it("ends waitForJob at its timeout when the server asks to retry later than that, naming no status it never saw", async () => {
    const { client, requests } = serve(refused("5"));
    const { value: error, ms } = await timed(() => waitForJob(client, MODEL, "job-1", { timeoutMs: 600 }));
    expect(error).toBeInstanceOf(JobWaitError);
    expect((error as JobWaitError).kind).toBe("timeout");
    expect((error as Error).message).toContain("never seen");
    expect(requests).toHaveLength(1);
    expect(ms).toBe(600);
  });

  it("does not turn a Retry-After beyond setTimeout's limit into a busy loop", async () => {
    const { client, requests } = serve(refused(String(30 * 24 * 3_600)));
    const controller = new AbortController();
    // Ten minutes of the wait pass before the caller gives up: a busy loop would have polled again and again.
    setTimeout(() => controller.abort(), 10 * 60_000);
    const { value: error, ms } = await timed(() => waitForJob(client, MODEL, "job-1", { signal: controller.signal }));
    expect(error).toBeInstanceOf(JobWaitError);
    expect((error as JobWaitError).kind).toBe("aborted");
    expect(requests).toHaveLength(1);
    expect(ms).toBe(10 * 60_000);
  });

  it("bounds runAndWait's resubmissions after 429 by its timeout, a second apart at least", async () => {
    const { client, requests } = serve(refused("0"));
    const { value: error } = await timed(() => runAndWait(client, MODEL, { prompt: "p" }, { timeoutMs: 1_500 }));
    expect(error).toBeInstanceOf(RateLimitError);
    // A third submission would come at 2 s, past the 1.5 s the run may last.
    expect(requests.map((r) => `${r.method} ${r.path} at ${r.at - requests[0]!.at}`)).toEqual([`POST /v2/${MODEL}/run at 0`, `POST /v2/${MODEL}/run at 1000`]);
  });
});

describe.each(["999999999999999", "3600"])("a RateLimit reset of %s s", (reset) => {
  it("does not hold runMany past its timeoutMs: the queued jobs are not sent, and the error reports the reset", async () => {
    const { client, requests } = serve(exhausted(reset));
    const inputs = [{ prompt: "a" }, { prompt: "b" }, { prompt: "c" }];
    const { value: batch, ms } = await timed(() => runMany(client, MODEL, inputs, { timeoutMs: 1_500, concurrency: 2, intervalMs: 100 }));
    expect(ms).toBe(1_500);
    const [first, ...queued] = (batch as Awaited<ReturnType<typeof runMany>>).items;
    // The one job sent: its polls wait at the gate until its deadline.
    expect(first!.ok ? undefined : first!.error).toBeInstanceOf(JobWaitError);
    for (const item of queued) {
      const error = item.ok ? undefined : item.error;
      expect(error).toBeInstanceOf(RateLimitWaitError);
      expect(error).toMatchObject({ kind: "rate_limit", window: "minute", reportedResetSeconds: Number(reset), capped: Number(reset) > 86_400 });
      expect(String(error)).toContain(`reset in ${reset} s`);
    }
    expect(requests.map((r) => r.method)).toEqual(["POST"]);
  });

  it("ends runMany on the caller's signal when timeoutMs is Infinity", async () => {
    const { client } = serve(exhausted(reset));
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 500);
    const { value: error, ms } = await timed(() => runMany(client, MODEL, [{ prompt: "a" }, { prompt: "b" }], { timeoutMs: Infinity, signal: controller.signal }));
    expect(error).toBeInstanceOf(BatchAbortedError);
    expect((error as BatchAbortedError).acceptedJobIds).toEqual(["job-1"]);
    expect(ms).toBe(500);
  });

  it("ends waitForJob at its timeoutMs and reports the wait the service asked for", async () => {
    const { client } = serve(exhausted(reset));
    const { value: error, ms } = await timed(() => waitForJob(client, MODEL, "job-1", { timeoutMs: 800 }));
    expect(error).toBeInstanceOf(JobWaitError);
    expect((error as JobWaitError).kind).toBe("timeout");
    expect((error as JobWaitError).rateLimitWaitMs).toBe(Math.min(Number(reset) * 1000, DAY_MS));
    expect((error as Error).message).toContain("rate limit asked to wait");
    expect(ms).toBe(800);
  });
});

it("never pauses longer than a day on the service's word, even without a timeout", async () => {
  const { client } = serve(exhausted("999999999999999"));
  const pauses: number[] = [];
  const controller = new AbortController();
  const sleep = async (ms: number) => {
    pauses.push(ms);
    if (pauses.length === 2) controller.abort();
  };
  const error = await driven(waitForJob(client, MODEL, "job-1", { timeoutMs: Infinity, signal: controller.signal, sleep })).catch((e) => e);
  expect(error).toBeInstanceOf(JobWaitError);
  expect(pauses).toEqual([DAY_MS, DAY_MS]);
});
