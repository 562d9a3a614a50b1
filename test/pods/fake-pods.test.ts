/**
 * The stateful fake's pods and catalog, through the generated client: a pod moves from PROVISIONING
 * through STARTING to RUNNING on a simulated clock shared by the fake and `waitForPod` (nothing
 * really waits), takes the actions the contract's podAction lists, and every answer validates
 * against the contract; each pod's log streams as Server-Sent Events that honor tail, since, source
 * and Last-Event-ID.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ConflictError,
  GpuCloudClient,
  NotFoundError,
  PodWaitError,
  createPodWithinBudget,
  estimatePodCost,
  waitForPod,
} from "../../generated/gpu-cloud-client/src/index.ts";
import { contractValidator } from "../support/contract.ts";
import { FakeService } from "../support/fake-service.ts";
import { simulatedTime } from "../support/simulated-time.ts";

const time = simulatedTime();
let fake: FakeService;
let client: GpuCloudClient;
const schema = contractValidator();
const isPod = schema("#/components/schemas/Pod");
const isGpuTypeList = schema("#/components/schemas/GpuTypeList");

beforeAll(async () => {
  fake = await new FakeService({ now: time.now, pods: { provisioningMs: 20_000, startingMs: 10_000 } }).start();
  client = new GpuCloudClient({ apiKey: "fake-key", baseUrl: fake.baseUrl, publicEndpointBaseUrl: fake.baseUrl, fetch: fake.service.handler });
});
afterAll(() => fake.stop());

const BODY = { name: "trainer", image: "example/trainer:1", gpu: { id: "NVIDIA GeForce RTX 4090", count: 2 }, cloud: "COMMUNITY", ports: ["8888/http", "22/tcp"] };

function valid(pod: unknown): unknown {
  expect(isPod(pod), JSON.stringify(isPod.errors)).toBe(true);
  return pod;
}

describe("the fake's pods", () => {
  it("move from PROVISIONING through STARTING to RUNNING on the clock, ports mapped once running", async () => {
    const { data: created } = await client.createPod({ body: BODY });
    valid(created);
    expect(created).toMatchObject({ status: "PROVISIONING", dataCenterId: null, ssh: { proxy: null, direct: null }, runtime: {}, cost: 0.8 });
    time.clock.now += 19_999;
    expect((await client.getPod({ path: { id: created.id } })).data.status).toBe("PROVISIONING");
    time.clock.now += 1;
    const starting = (await client.getPod({ path: { id: created.id } })).data;
    expect(valid(starting)).toMatchObject({ status: "STARTING", dataCenterId: "EU-SE-1", actions: ["stop", "terminate"] });
    time.clock.now += 10_000;
    const running = (await client.getPod({ path: { id: created.id } })).data;
    expect(valid(running)).toMatchObject({ status: "RUNNING", actions: ["stop", "restart", "terminate"], runtime: { uptime: 0, ports: [{ private: 22, public: expect.any(Number), ip: "203.0.113.7" }] } });
    expect(running.ssh.direct).toMatchObject({ username: "root", host: "203.0.113.7" });
  });

  it("take the actions of podAction: stop, start again, restart, terminate; others refused with 409", async () => {
    const { data: pod } = await client.createPod({ body: { ...BODY, name: "actor" } });
    await expect(client.podAction({ path: { id: pod.id }, body: { action: "start" } })).rejects.toBeInstanceOf(ConflictError);
    const stopped = (await client.podAction({ path: { id: pod.id }, body: { action: "stop" } })).data;
    expect(valid(stopped)).toMatchObject({ status: "EXITED", cost: 0, actions: ["start", "terminate"] });
    await expect(client.podAction({ path: { id: pod.id }, body: { action: "stop" } })).rejects.toMatchObject({ status: 409 });
    expect((await client.podAction({ path: { id: pod.id }, body: { action: "start" } })).data?.status).toBe("PROVISIONING");
    time.clock.now += 30_000;
    expect((await client.getPod({ path: { id: pod.id } })).data.status).toBe("RUNNING");
    // A restart keeps the machine: it goes back to STARTING, not PROVISIONING.
    expect((await client.podAction({ path: { id: pod.id }, body: { action: "restart" } })).data?.status).toBe("STARTING");
    const terminated = await client.podAction({ path: { id: pod.id }, body: { action: "terminate" } });
    expect(terminated.response.status).toBe(204);
    await expect(client.getPod({ path: { id: pod.id } })).rejects.toBeInstanceOf(NotFoundError);
    expect((await client.listPods()).data.pods.map((listed) => listed.id)).not.toContain(pod.id);
  });

  it("let waitForPod follow a new pod to RUNNING on the simulated clock, without real waiting", async () => {
    const { data: pod } = await client.createPod({ body: { ...BODY, name: "waited" } });
    const started = time.clock.now;
    const pauses = time.clock.pauses.length;
    const realStart = Date.now();
    const ready = await waitForPod(client, pod.id, { now: time.now, sleep: time.sleep, intervalMs: 5_000 });
    expect(ready.status).toBe("RUNNING");
    expect(time.clock.now - started).toBe(30_000);
    expect(time.clock.pauses.slice(pauses)).toEqual([5_000, 5_000, 5_000, 5_000, 5_000, 5_000]);
    expect(Date.now() - realStart).toBeLessThan(5_000);
  });

  it("end a wait with PodWaitError when the pod ends ERROR", async () => {
    const { data: pod } = await client.createPod({ body: { ...BODY, name: "doomed" } });
    const error = await waitForPod(client, pod.id, { now: time.now, sleep: time.sleep }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PodWaitError);
    expect(error).toMatchObject({ reason: "failed", status: "ERROR" });
  });
});

describe("the fake's catalog", () => {
  it("lists GPU types with their prices, and their stock only when asked for", async () => {
    const plain = (await client.listGpuTypes()).data;
    expect(isGpuTypeList(plain), JSON.stringify(isGpuTypeList.errors)).toBe(true);
    expect(plain.gpus.every((type) => type.availability === undefined)).toBe(true);
    const stocked = (await client.listGpuTypes({ query: { include: ["AVAILABILITY"], product: ["POD"] } })).data;
    expect(isGpuTypeList(stocked), JSON.stringify(isGpuTypeList.errors)).toBe(true);
    expect(stocked.gpus.map((type) => type.availability)).toEqual(["HIGH", "LOW", "NONE"]);
    expect((await client.getGpuType({ path: { id: "NVIDIA A40" } })).data.price).toMatchObject({ secure: 0.5, community: 0.45 });
    await expect(client.getGpuType({ path: { id: "NVIDIA Z9" } })).rejects.toBeInstanceOf(NotFoundError);
  });

  it("prices pods for estimatePodCost and createPodWithinBudget", async () => {
    expect(await estimatePodCost(client, BODY)).toEqual({ gpuTypeId: "NVIDIA GeForce RTX 4090", gpuCount: 2, cloud: "COMMUNITY", usdPerGpuHour: 0.4, usdPerHour: 0.8 });
    const { data, estimate } = await createPodWithinBudget(client, { body: { ...BODY, name: "budgeted", cloud: "SECURE" } }, { maxCostPerHourUsd: 1.5 });
    expect(estimate.usdPerHour).toBe(1.44);
    expect(data.cost).toBe(1.44);
  });
});

describe("the fake's pod logs", () => {
  /** The first `count` events of a stream (it stays open for live lines: left once they are in). */
  async function take(id: string, count: number, query: { tail?: number; since?: string; source?: string } = {}, lastEventId?: string) {
    const events: Array<{ id: string | undefined; line: string }> = [];
    for await (const event of client.getPodLogs({ path: { id }, query }, { maxReconnects: 0, ...(lastEventId ? { lastEventId } : {}) })) {
      events.push({ id: event.id, line: event.data.line });
      if (events.length === count) break;
    }
    return events;
  }

  it("stream the last tail lines, from since, one source, or just after Last-Event-ID (which wins), ids in order", async () => {
    const { data } = await client.createPod({ body: { ...BODY, name: "logger" } } as never);
    const id = (data as { id: string }).id;
    for (const line of ["one", "two", "three"]) {
      time.clock.now += 1_000;
      fake.service.appendLog(id, line);
    }
    const log = fake.service.pods.pods.get(id)!.log.events;
    const all = await take(id, 4);
    expect(all.map((event) => event.line)).toEqual([`pod ${id} created`, "one", "two", "three"]);
    expect(all.map((event) => event.id)).toEqual([...all.map((event) => event.id)].sort());
    expect((await take(id, 2, { tail: 2 })).map((event) => event.line)).toEqual(["two", "three"]);
    expect((await take(id, 1, { source: "system" })).map((event) => event.line)).toEqual([`pod ${id} created`]);
    expect((await take(id, 2, { since: log[2]!.data.ts })).map((event) => event.line)).toEqual(["two", "three"]);
    expect((await take(id, 2, { tail: 1 }, log[1]!.id)).map((event) => event.line)).toEqual(["two", "three"]);
    expect(fake.service.pods.logs.requests.at(-1)).toEqual({ pod: id, lastEventId: log[1]!.id, query: "tail=1" });
    await expect(take("no-such-pod", 1)).rejects.toBeInstanceOf(NotFoundError);
    await fake.service.logStreamsClosed();
  });
});
