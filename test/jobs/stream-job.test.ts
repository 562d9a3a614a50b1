/**
 * streamJob: a running job's partial outputs, at the polling pace, until the job ends, on the
 * stateful fake of the model endpoints and a simulated clock; nothing left behind when it stops.
 */
import { describe, expect, it, vi } from "vitest";
import {
  JobExpiredError,
  JobWaitError,
  MODEL_CATALOG,
  streamJob,
} from "../../generated/gpu-cloud-client/src/index.ts";
import * as runtimeJobs from "../../generated/gpu-cloud-client/src/runtime/model-endpoints/index.ts";
import { VIDEO, input, fake, client, time, startFake, answer, useFakeSession } from "./fake-session.ts";

useFakeSession();

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

  const done = (status: string, extra: object = {}) => answer({ id: "j", status, ...extra });

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
