/**
 * The package's stateful fake of the service (`<package>/testing`'s `createServiceFake`), in
 * process through the generated client with response validation on, so every answer it gives
 * here validates against the contract: registry credentials deleted as `deleteRegistry` says,
 * pods billed by the hour at the catalog's price, per-user quotas, jobs that fail, time out, are
 * retried and expire, result URLs that expire after 7 days, and a log stream that resumes. Time is
 * the test's: it moves by assignment, nothing waits.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { BadRequestError, GpuCloudClient, NotFoundError, RateLimitError, waitForJob } from "../../generated/gpu-cloud-client/src/index.ts";
import { createServiceFake, type ServiceFake } from "../../generated/gpu-cloud-client/src/testing/service-fake.ts";
import { hasServiceOperations } from "../../generator/extensions/service-fake/model.ts";
import { contractValidator, loadContractDocument } from "../support/contract.ts";

const START = Date.parse("2026-11-22T12:00:00Z");
const HOUR = 3_600_000;
const VIDEO = "wan-2-6-i2v";
const isProblem = contractValidator()("#/components/schemas/Problem");

let clock: number;
let fake: ServiceFake;
let client: GpuCloudClient;

const clientOf = (apiKey: string) =>
  new GpuCloudClient({ apiKey, baseUrl: "https://api.fake.test", publicEndpointBaseUrl: "https://api.fake.test", fetch: fake.handler, validateResponses: true, maxRetries: 0 });

beforeEach(() => {
  clock = START;
  fake = createServiceFake({ now: () => clock });
  client = clientOf("user-a");
});

const POD = { name: "trainer", image: "example/trainer:1", gpu: { id: "NVIDIA GeForce RTX 4090", count: 2 }, cloud: "COMMUNITY" } as const;

describe("registry credentials", () => {
  it("refuses deletion while a pod uses the credential, then deletes it and sets templates' registry to null", async () => {
    const { data: registry } = await client.createRegistry({ body: { name: "team-images", username: "robot", password: "s3cret-pass" } });
    expect(registry).toEqual({ id: registry.id, name: "team-images" });
    const { data: template } = await client.createTemplate({ body: { name: "notebook", image: "example/notebook:1", registry: registry.id } });
    expect(template.registry).toBe(registry.id);
    const { data: pod } = await client.createPod({ body: { ...POD, registry: registry.id } });
    expect(pod.registry).toBe(registry.id);

    const refused = await client.deleteRegistry({ path: { id: registry.id } }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(BadRequestError);
    expect((refused as BadRequestError).message).toContain(`used by pod ${pod.id}`);
    expect((await client.getRegistry({ path: { id: registry.id } })).data.name).toBe("team-images");

    await client.podAction({ path: { id: pod.id }, body: { action: "terminate" } });
    expect((await client.deleteRegistry({ path: { id: registry.id } })).status).toBe(204);
    expect((await client.getTemplate({ path: { id: template.id } })).data.registry).toBeNull();
    expect((await client.listRegistries()).data.registries).toEqual([]);
    await expect(client.getRegistry({ path: { id: registry.id } })).rejects.toBeInstanceOf(NotFoundError);
  });

  it("refuses a pod or a template naming a credential that does not exist", async () => {
    await expect(client.createPod({ body: { ...POD, registry: "reg-none" } })).rejects.toBeInstanceOf(BadRequestError);
    await expect(client.createTemplate({ body: { name: "t", image: "i", registry: "reg-none" } })).rejects.toBeInstanceOf(BadRequestError);
  });
});

describe("pods", () => {
  it("bill by the hour at the catalog's price on their cloud, times their GPU count, while not stopped", async () => {
    const { data: gpu } = await client.getGpuType({ path: { id: POD.gpu.id } });
    const rate = gpu.price.community * POD.gpu.count;
    const { data: pod } = await client.createPod({ body: POD });
    expect(pod.status).toBe("PROVISIONING");
    expect(pod.cost).toBe(rate);
    clock += 1.5 * HOUR;
    expect((await client.getPod({ path: { id: pod.id } })).data.status).toBe("RUNNING");
    expect(fake.accruedCost(pod.id)).toBeCloseTo(rate * 1.5, 6);
    const { data: stopped } = await client.podAction({ path: { id: pod.id }, body: { action: "stop" } });
    expect(stopped).toMatchObject({ status: "EXITED", cost: 0 });
    clock += HOUR;
    expect(fake.accruedCost(pod.id)).toBeCloseTo(rate * 1.5, 6);
    await client.podAction({ path: { id: pod.id }, body: { action: "start" } });
    clock += 0.5 * HOUR;
    expect(fake.accruedCost(pod.id)).toBeCloseTo(rate * 2, 6);
  });
});

describe("quotas", () => {
  it("count per user, answer 429 with Retry-After and a RateLimit header counting down, and reset with their window", async () => {
    fake.setQuota([{ name: "minute", quota: 2, seconds: 60 }]);
    const first = await client.listPods();
    expect(first.headers.get("ratelimit")).toBe('"minute";r=1;t=60');
    expect(first.headers.get("ratelimit-policy")).toBe('"minute";q=2;w=60');
    clock += 20_000;
    await client.listPods();
    const refused = await client.listPods().catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(RateLimitError);
    expect((refused as RateLimitError).retryAfterMs).toBe(40_000);
    // Another user's window is its own.
    expect((await clientOf("user-b").listPods()).status).toBe(200);
    clock += 40_000;
    expect((await client.listPods()).status).toBe(200);
    expect(fake.tooManyRequests).toBe(1);
    const raw = await fake.fetch("https://api.fake.test/v2/pods", { headers: { authorization: "Bearer user-b" } });
    const third = await fake.fetch("https://api.fake.test/v2/pods", { headers: { authorization: "Bearer user-b" } });
    expect([raw.status, third.status]).toEqual([200, 429]);
    // user-b's window began with its first request, 40 s ago.
    expect(third.headers.get("retry-after")).toBe("20");
    expect(isProblem(await third.json())).toBe(true);
  });

  it("answers 401 without a bearer token, with no rate-limit header", async () => {
    const answer = await fake.fetch("https://api.fake.test/v2/pods");
    expect(answer.status).toBe(401);
    expect(answer.headers.get("ratelimit")).toBeNull();
    expect(isProblem(await answer.json())).toBe(true);
  });
});

describe("jobs", () => {
  const input = { prompt: "a fox", image: "https://images.example.org/fox.jpg" };
  const poll = (id: string) => client.getModelJob(VIDEO, id).then((answer) => answer.data);

  it("fail when told to, and are retried under the same id", async () => {
    fake.failNextJob({ error: "worker ran out of memory" });
    const { data: job } = await client.runModel(VIDEO, input);
    expect(await poll(job.id)).toMatchObject({ status: "FAILED", error: "worker ran out of memory" });
    expect((await client.retryModelJob(VIDEO, job.id)).data).toEqual({ id: job.id, status: "IN_QUEUE" });
    const done = await waitForJob(client, VIDEO, job.id, { now: () => clock, sleep: async (ms) => void (clock += ms) });
    expect(done.status).toBe("COMPLETED");
    expect(fake.jobs.jobs.get(job.id)?.retries).toBe(1);
  });

  it("time out past their policy's executionTimeout on the fake's clock", async () => {
    fake = createServiceFake({ now: () => clock, plan: () => ({ queuedPolls: 1, runningPolls: 1000, outcome: "COMPLETED" }) });
    client = clientOf("user-a");
    const { data: job } = await client.runModel(VIDEO, input, { jobOptions: { policy: { executionTimeout: 5_000 } } });
    expect((await poll(job.id)).status).toBe("IN_QUEUE");
    expect((await poll(job.id)).status).toBe("IN_PROGRESS");
    clock += 5_001;
    expect(await poll(job.id)).toMatchObject({ status: "TIMED_OUT" });
  });

  it("are gone past their policy's ttl", async () => {
    const { data: job } = await client.runModel(VIDEO, input, { jobOptions: { policy: { ttl: 10_000 } } });
    clock += 10_001;
    await expect(poll(job.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it("give a result URL that answers for 7 days, then 403, priced from the contract", async () => {
    const { data: job } = await client.runModel(VIDEO, { ...input, duration: 10, size: "1920*1080" });
    expect((await poll(job.id)).status).toBe("IN_QUEUE");
    expect((await poll(job.id)).status).toBe("IN_PROGRESS");
    const done = await poll(job.id);
    expect(done.status).toBe("COMPLETED");
    const output = done.output as { video_url: string; cost: number };
    expect(output.cost).toBe(1.5);
    expect((await fake.fetch(output.video_url)).status).toBe(200);
    clock += 7 * 24 * HOUR + 1_000;
    expect((await fake.fetch(output.video_url)).status).toBe(403);
  });
});

describe("pod logs", () => {
  it("stream in process and resume after Last-Event-ID", async () => {
    const { data: pod } = await client.createPod({ body: POD });
    for (const line of ["one", "two", "three"]) fake.appendLog(pod.id, line);
    const seen: Array<{ id?: string | undefined; line: string }> = [];
    for await (const event of client.getPodLogs({ path: { id: pod.id } })) {
      seen.push({ id: event.id, line: event.data.line });
      if (seen.length === 3) break;
    }
    expect(seen.map((event) => event.line)).toEqual([`pod ${pod.id} created`, "one", "two"]);
    await fake.logStreamsClosed();
    fake.appendLog(pod.id, "four");
    const resumed = await fake.fetch(`https://api.fake.test/v2/pods/${pod.id}/logs`, { headers: { authorization: "Bearer user-a", "last-event-id": seen[2]!.id! } });
    expect(resumed.headers.get("content-type")).toBe("text/event-stream");
    const reader = resumed.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = "";
    while (!text.includes("four")) text += (await reader.read()).value;
    await reader.cancel();
    expect([...text.matchAll(/"line":"(\w+)"/g)].map((match) => match[1])).toEqual(["three", "four"]);
    await fake.logStreamsClosed();
    expect(fake.pods.logs.open).toBe(0);
  });
});

describe("where the fake is emitted", () => {
  it("only for a contract with the service's operations and model endpoints", () => {
    const document = loadContractDocument();
    expect(hasServiceOperations(document)).toBe(true);
    const { "x-model-endpoints": _models, ...withoutModels } = document;
    expect(hasServiceOperations(withoutModels)).toBe(false);
    const { "/v2/registries/{id}": _registry, ...paths } = document.paths;
    expect(hasServiceOperations({ ...document, paths })).toBe(false);
  });
});
