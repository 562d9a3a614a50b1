/**
 * The job operations of the service's reference (cancel, retry, stream, purge-queue, health) and
 * the retention of results, through the generated client against the stateful fake of the model
 * endpoints. Time is simulated: the fake reads the test's clock.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ApiError, GpuCloudClient, InvalidRequestError, JobFailedError, runAndWait, runMany, waitForJob } from "../../generated/gpu-cloud-client/src/index.ts";
import { FakeService, type FakeOptions } from "../support/fake-service.ts";

const VIDEO = "wan-2-6-i2v";
const input = { prompt: "a fox", image: "https://images.example.org/fox.jpg" };
const path = (jobId: string) => ({ path: { model_endpoint_id: VIDEO, job_id: jobId } });

let clock: number;
let fake: FakeService;
let client: GpuCloudClient;
const sleep = async (ms: number) => {
  clock += ms;
};

async function startFake(options: FakeOptions = {}) {
  fake = await new FakeService({ now: () => clock, ...options }).start();
  client = new GpuCloudClient({ apiKey: "ops-key", publicEndpointBaseUrl: fake.baseUrl, baseUrl: fake.baseUrl, fetch: fake.service.handler });
}

beforeEach(() => {
  clock = Date.parse("2026-11-24T12:00:00Z");
});
afterEach(async () => {
  await fake?.stop();
});

describe("job operations beyond the description", () => {
  it("cancelJob ends a queued job CANCELLED, and a wait on it fails as cancelled", async () => {
    await startFake({ plan: () => ({ queuedPolls: 5, runningPolls: 5, outcome: "COMPLETED" }) });
    const { data: queued } = await client.runModel(VIDEO, input);
    const { data: cancelled } = await client.cancelJob(path(queued.id));
    expect(cancelled).toEqual({ id: queued.id, status: "CANCELLED" });
    expect((await client.getJobStatus(path(queued.id))).data.status).toBe("CANCELLED");
    const failure = await waitForJob(client, VIDEO, queued.id, { now: () => clock, sleep }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(JobFailedError);
    expect((failure as JobFailedError).job.status).toBe("CANCELLED");
  });

  it("retryJob queues a FAILED job again under its id, and it then completes", async () => {
    await startFake({ plan: () => ({ queuedPolls: 0, runningPolls: 1, outcome: "FAILED" }) });
    const { data: queued } = await client.runModel(VIDEO, input);
    await expect(waitForJob(client, VIDEO, queued.id, { now: () => clock, sleep })).rejects.toBeInstanceOf(JobFailedError);
    const { data: again } = await client.retryJob(path(queued.id));
    expect(again).toEqual({ id: queued.id, status: "IN_QUEUE" });
    const done = await waitForJob(client, VIDEO, queued.id, { now: () => clock, sleep });
    expect([done.id, done.status]).toEqual([queued.id, "COMPLETED"]);
    expect((await client.getEndpointHealth({ path: { model_endpoint_id: VIDEO } })).data.jobs).toMatchObject({ completed: 1, retried: 1 });
  });

  it("retryJob refuses a job that has not failed: a typed error, the job untouched", async () => {
    await startFake({ plan: () => ({ queuedPolls: 3, runningPolls: 1, outcome: "COMPLETED" }) });
    const { data: queued } = await client.runModel(VIDEO, input);
    const error = await client.retryJob(path(queued.id)).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(400);
    expect((await client.getJobStatus(path(queued.id))).data.status).toBe("IN_QUEUE");
  });

  it("streamJob hands out a chunk per call while the job runs, then the terminal status", async () => {
    await startFake({ plan: () => ({ queuedPolls: 1, runningPolls: 2, outcome: "COMPLETED" }) });
    const { data: queued } = await client.runModel(VIDEO, input);
    const answers = [];
    for (let call = 0; call < 4; call++) answers.push((await client.streamJob(path(queued.id))).data);
    expect(answers.map((a) => [a.status, a.stream.length])).toEqual([
      ["IN_QUEUE", 0],
      ["IN_PROGRESS", 1],
      ["IN_PROGRESS", 1],
      ["COMPLETED", 0],
    ]);
    expect(answers.flatMap((a) => a.stream.map((chunk) => chunk.output))).toEqual([{ chunk: 1 }, { chunk: 2 }]);
  });

  it("purgeQueue removes the queued jobs only; getEndpointHealth counts what is left", async () => {
    await startFake({ plan: (job) => (job["prompt"] === "runs" ? { queuedPolls: 0, runningPolls: 5, outcome: "COMPLETED" } : { queuedPolls: 5, runningPolls: 1, outcome: "COMPLETED" }) });
    const { data: running } = await client.runModel(VIDEO, { ...input, prompt: "runs" });
    await client.getJobStatus(path(running.id));
    for (let n = 0; n < 3; n++) await client.runModel(VIDEO, { ...input, prompt: `waits ${n}` });
    expect((await client.getEndpointHealth({ path: { model_endpoint_id: VIDEO } })).data.jobs).toMatchObject({ inQueue: 3, inProgress: 1 });
    const { data: purged } = await client.purgeQueue({ path: { model_endpoint_id: VIDEO } });
    expect(purged.removed).toBe(3);
    const { data: health } = await client.getEndpointHealth({ path: { model_endpoint_id: VIDEO } });
    expect(health.jobs).toMatchObject({ inQueue: 0, inProgress: 1 });
    expect((await client.getJobStatus(path(running.id))).data.status).toBe("IN_PROGRESS");
  });

  it("getModelHealth and purgeModelQueue: the same operations, per model", async () => {
    await startFake({ plan: () => ({ queuedPolls: 5, runningPolls: 1, outcome: "COMPLETED" }) });
    for (let n = 0; n < 2; n++) await client.runModel(VIDEO, { ...input, prompt: `waits ${n}` });
    expect((await client.getModelHealth(VIDEO)).data.jobs).toMatchObject({ inQueue: 2 });
    expect((await client.purgeModelQueue(VIDEO)).data).toEqual({ removed: 2, status: "completed" });
    expect(fake.log.map((e) => `${e.method} ${e.path}`).slice(-2)).toEqual([`GET /v2/${VIDEO}/health`, `POST /v2/${VIDEO}/purge-queue`]);
  });

  it("jobOptions: the run body's other members go with every submission, checked before anything is sent", async () => {
    await startFake({ plan: () => ({ queuedPolls: 0, runningPolls: 0, outcome: "COMPLETED" }) });
    const jobOptions = { webhook: "https://hooks.example.org/done", policy: { executionTimeout: 60_000, ttl: 3_600_000 } };
    await client.runModel(VIDEO, input, { jobOptions });
    await client.runModelSync(VIDEO, input, { jobOptions });
    await runAndWait(client, VIDEO, input, { jobOptions, sleep, now: () => clock });
    await runMany(client, VIDEO, [input, input], { jobOptions, sleep, now: () => clock });
    expect(fake.submittedBodies).toEqual(Array.from({ length: 5 }, () => ({ ...jobOptions, input })));

    const sent = fake.log.length;
    const tooShort = await runAndWait(client, VIDEO, input, { jobOptions: { policy: { ttl: 5 } }, sleep, now: () => clock }).catch((e: unknown) => e);
    expect(tooShort).toBeInstanceOf(InvalidRequestError);
    expect((tooShort as InvalidRequestError).message).toMatch(/^run: 1 invalid field, nothing was sent:\n {2}body\.policy\.ttl: must be >= 10000$/);
    // input is the call's own: jobOptions cannot replace it.
    await client.runModel(VIDEO, input, { jobOptions: { input: { prompt: "other" } } as never });
    expect(fake.submittedBodies.at(-1)).toEqual({ input });
    expect(fake.log.length).toBe(sent + 1);
  });

  it.each([
    ["run", 30 * 60_000],
    ["runsync", 60_000],
  ] as const)("keeps a finished %s job's results for its retention, then answers 404", async (mode, keptMs) => {
    await startFake({ plan: () => ({ queuedPolls: 0, runningPolls: 0, outcome: "COMPLETED" }) });
    const { data: job } = mode === "run" ? await client.runModel(VIDEO, input) : await client.runModelSync(VIDEO, input);
    expect((await client.getJobStatus(path(job.id))).data.status).toBe("COMPLETED");
    clock += keptMs;
    expect((await client.getJobStatus(path(job.id))).data.status).toBe("COMPLETED");
    clock += 1_000;
    const gone = await client.getJobStatus(path(job.id)).catch((error: unknown) => error);
    expect(gone).toBeInstanceOf(ApiError);
    expect((gone as ApiError).status).toBe(404);
  });
});
