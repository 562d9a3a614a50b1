/**
 * Pods within a budget, against a local fake fetch: the cost of a pod from the catalog's price before
 * it is created, `createPodWithinBudget` refusing before sending, and `waitForPod` on a simulated
 * clock (every pause advances it at once: nothing really waits).
 */
import { describe, expect, it, vi } from "vitest";
import {
  GpuCloudClient,
  InvalidRequestError,
  NotFoundError,
  POD_COST,
  POD_READINESS,
  PodCostLimitError,
  PodWaitError,
  createPodWithinBudget,
  estimatePodCost,
  podState,
  waitForPod,
} from "../../generated/gpu-cloud-client/src/index.ts";
import { simulatedTime } from "../support/simulated-time.ts";

const BASE = "https://api.test.invalid";
const PRICES: Record<string, { secure: number; community: number }> = {
  "NVIDIA GeForce RTX 4090": { secure: 0.69, community: 0.34 },
  "NVIDIA H100 80GB HBM3": { secure: 2.99, community: 2.39 },
};

/** A pod as the service sends it, at one step of its life. */
function pod(status: string, mappings: Array<Record<string, unknown>> | null = null): Record<string, unknown> {
  return {
    id: "p1", name: "trial", image: "img", args: "", disk: 20, ports: ["8888/http", "22/tcp"], env: {}, registry: null, status, actions: ["stop", "terminate"],
    mounts: {}, gpu: { id: "NVIDIA GeForce RTX 4090", count: 1 }, cloud: "SECURE", dataCenterId: null, cudaVersion: null, ssh: { proxy: null, direct: null },
    template: null, cost: 0.69, locked: false, globalNetworking: { enabled: false }, runtime: mappings === null ? null : { ports: mappings }, createdAt: "2026-06-01T12:00:00Z", startedAt: null,
  };
}

/** A fetch that answers the catalog and the pod operations from tables, and records every request. */
function fakeService(podsRead: Array<Record<string, unknown>> = []) {
  const requests: Array<{ method: string; path: string; body?: unknown }> = [];
  let reads = 0;
  const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { "content-type": status < 300 ? "application/json" : "application/problem+json" } });
  const fetch = async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    const path = decodeURIComponent(url.pathname);
    const body = request.method === "POST" ? await request.json() : undefined;
    requests.push({ method: request.method, path, ...(body === undefined ? {} : { body }) });
    const gpu = /^\/v2\/catalog\/gpus\/(.+)$/.exec(path);
    if (gpu && request.method === "GET") {
      const price = PRICES[gpu[1]!];
      if (!price) return json(404, { title: "Not Found", status: 404, detail: "no such GPU type" });
      return json(200, { id: gpu[1], name: "G", pool: null, manufacturer: "NVIDIA", memory: 24, secure: true, community: true, price, maxCount: { secure: 8, community: 8 } });
    }
    if (path === "/v2/pods" && request.method === "POST") return json(201, { ...pod("PROVISIONING"), name: (body as { name: string }).name });
    if (path === "/v2/pods/p1" && request.method === "GET") return json(200, podsRead[Math.min(reads++, podsRead.length - 1)]);
    return json(404, { title: "Not Found", status: 404, detail: `nothing at ${path}` });
  };
  const client = new GpuCloudClient({ apiKey: "pods-key", baseUrl: BASE, fetch, maxRetries: 0 });
  return { client, requests, reads: () => reads };
}

const body = (gpu: Record<string, unknown> | undefined, extra: Record<string, unknown> = {}) => ({ name: "trial", image: "img", ...(gpu ? { gpu } : { cpu: { id: "cpu5c", vcpuCount: 4 } }), ...extra }) as never;

describe("a pod's cost before it is created", () => {
  it("is the catalog's price of one GPU on the pod's cloud times its GPU count", async () => {
    const { client, requests } = fakeService();
    expect(await estimatePodCost(client, body({ id: "NVIDIA H100 80GB HBM3", count: 4 }, { cloud: "COMMUNITY" }))).toEqual({
      gpuTypeId: "NVIDIA H100 80GB HBM3", gpuCount: 4, cloud: "COMMUNITY", usdPerGpuHour: 2.39, usdPerHour: 9.56,
    });
    // One GPU on the secure cloud when the body says neither (the service's defaults, named in x-pod-cost).
    expect(await estimatePodCost(client, body({ id: "NVIDIA GeForce RTX 4090" }))).toMatchObject({ gpuCount: 1, cloud: "SECURE", usdPerHour: 0.69 });
    expect(requests.map((r) => `${r.method} ${r.path}`)).toEqual(["GET /v2/catalog/gpus/NVIDIA H100 80GB HBM3", "GET /v2/catalog/gpus/NVIDIA GeForce RTX 4090"]);
    expect(requests.some((r) => r.method === "POST")).toBe(false);
  });

  it("has none for a CPU pod or a cloud the catalog gives no price for, and asks nothing then", async () => {
    const { client, requests } = fakeService();
    expect(await estimatePodCost(client, body(undefined))).toBeUndefined();
    expect(await estimatePodCost(client, body({ id: "NVIDIA GeForce RTX 4090" }, { cloud: "ORBITAL" }))).toBeUndefined();
    expect(requests).toEqual([]);
  });

  it("follows the contract's x-pod-cost", () => {
    expect(POD_COST).toMatchObject({ priceOperation: "getGpuType", gpuTypeFrom: "/gpu/id", gpuCountFrom: "/gpu/count", cloudFrom: "/cloud", rates: { SECURE: "/price/secure", COMMUNITY: "/price/community" } });
  });
});

describe("createPodWithinBudget", () => {
  it("creates the pod when its estimate is within the limit, once, and gives the estimate", async () => {
    const { client, requests } = fakeService();
    const result = await createPodWithinBudget(client, { body: body({ id: "NVIDIA GeForce RTX 4090", count: 2 }) }, { maxCostPerHourUsd: 1.38 });
    expect(result.status).toBe(201);
    expect(result.data.status).toBe("PROVISIONING");
    expect(result.estimate.usdPerHour).toBe(1.38);
    expect(requests.filter((r) => r.method === "POST")).toEqual([{ method: "POST", path: "/v2/pods", body: { name: "trial", image: "img", gpu: { id: "NVIDIA GeForce RTX 4090", count: 2 } } }]);
  });

  it("sends the body it priced: a caller changing its object while the price is read changes nothing sent", async () => {
    const { client, requests } = fakeService();
    const params = { body: body({ id: "NVIDIA GeForce RTX 4090", count: 1 }) as { gpu: { id: string; count: number } } };
    const created = createPodWithinBudget(client, params as never, { maxCostPerHourUsd: 1 });
    // The price read is in flight: the caller reuses its object for a dearer pod.
    params.body.gpu.count = 8;
    params.body.gpu.id = "NVIDIA H100 80GB HBM3";
    await created;
    expect(requests.filter((r) => r.method === "POST").map((r) => r.body)).toEqual([{ name: "trial", image: "img", gpu: { id: "NVIDIA GeForce RTX 4090", count: 1 } }]);
  });

  it("refuses before sending when the estimate passes the limit, stating both figures", async () => {
    const { client, requests } = fakeService();
    const error = await createPodWithinBudget(client, { body: body({ id: "NVIDIA H100 80GB HBM3", count: 8 }) }, { maxCostPerHourUsd: 20 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PodCostLimitError);
    expect((error as PodCostLimitError).estimate?.usdPerHour).toBe(23.92);
    expect((error as PodCostLimitError).message).toMatch(/23\.92 USD per hour .* exceeds maxCostPerHourUsd 20/);
    expect((error as PodCostLimitError).kind).toBe("cost_limit");
    expect(requests.some((r) => r.method === "POST")).toBe(false);
  });

  it("refuses a pod whose cost cannot be estimated rather than create it unchecked", async () => {
    const { client, requests } = fakeService();
    const error = await createPodWithinBudget(client, { body: body(undefined) }, { maxCostPerHourUsd: 100 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PodCostLimitError);
    expect((error as PodCostLimitError).estimate).toBeUndefined();
    expect(requests).toEqual([]);
  });

  it("passes on the catalog's own refusal (an unknown GPU type) and creates nothing", async () => {
    const { client, requests } = fakeService();
    await expect(createPodWithinBudget(client, { body: body({ id: "NVIDIA Imaginary" }) }, { maxCostPerHourUsd: 5 })).rejects.toBeInstanceOf(NotFoundError);
    expect(requests.some((r) => r.method === "POST")).toBe(false);
  });

  it("refuses a missing, negative or NaN limit before any request", async () => {
    const { client, requests } = fakeService();
    for (const limit of [Number.NaN, -1, undefined]) {
      await expect(createPodWithinBudget(client, { body: body({ id: "NVIDIA GeForce RTX 4090" }) }, { maxCostPerHourUsd: limit as never })).rejects.toBeInstanceOf(InvalidRequestError);
    }
    expect(requests).toEqual([]);
  });
});

describe("waitForPod", () => {
  const mapped = [{ private: 22, public: 40122, type: "tcp", ip: "203.0.113.17" }];

  it("reads the pod until it runs with its TCP ports (SSH) reachable, pausing between reads", async () => {
    const time = simulatedTime();
    const { client, reads } = fakeService([pod("PROVISIONING"), pod("STARTING"), pod("RUNNING", [{ private: 22, public: null, type: "tcp", ip: null }]), pod("RUNNING", mapped)]);
    const seen: string[] = [];
    const ready = await waitForPod(client, "p1", { intervalMs: 2_000, now: time.now, sleep: time.sleep, onPoll: (_, state) => seen.push(state) });
    expect(ready.status).toBe("RUNNING");
    expect(ready.runtime?.ports?.[0]?.public).toBe(40122);
    expect(reads()).toBe(4);
    expect(seen).toEqual(["pending", "pending", "pending", "ready"]);
    expect(time.clock.pauses).toEqual([2_000, 2_000, 2_000]);
  });

  it("takes RUNNING alone with waitForPorts: false", async () => {
    const time = simulatedTime();
    const { client, reads } = fakeService([pod("RUNNING", [])]);
    expect((await waitForPod(client, "p1", { waitForPorts: false, now: time.now, sleep: time.sleep })).status).toBe("RUNNING");
    expect(reads()).toBe(1);
  });

  it("ends with reason failed, and the pod, on a status it will not run from", async () => {
    const time = simulatedTime();
    const { client } = fakeService([pod("STARTING"), pod("ERROR")]);
    const error = await waitForPod(client, "p1", { now: time.now, sleep: time.sleep }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PodWaitError);
    expect(error).toMatchObject({ reason: "failed", status: "ERROR", kind: "pod_failed" });
    expect(((error as PodWaitError).pod as { id: string }).id).toBe("p1");
  });

  it("gives up at timeoutMs, never pausing past it", async () => {
    const time = simulatedTime();
    const { client } = fakeService([pod("PROVISIONING")]);
    const error = await waitForPod(client, "p1", { timeoutMs: 11_000, intervalMs: 5_000, now: time.now, sleep: time.sleep }).catch((e: unknown) => e);
    expect(error).toMatchObject({ reason: "timeout", status: "PROVISIONING", kind: "timeout" });
    expect(time.clock.pauses).toEqual([5_000, 5_000, 1_000]);
  });

  it("stops when the signal aborts during a pause or before the first read", async () => {
    const time = simulatedTime();
    const { client, reads } = fakeService([pod("PROVISIONING")]);
    const controller = new AbortController();
    const sleep = async (ms: number, signal?: AbortSignal) => {
      controller.abort(new Error("user stop"));
      return time.sleep(ms, signal);
    };
    const error = await waitForPod(client, "p1", { signal: controller.signal, now: time.now, sleep }).catch((e: unknown) => e);
    expect(error).toMatchObject({ reason: "aborted", kind: "aborted" });
    expect(reads()).toBe(1);
    await expect(waitForPod(client, "p1", { signal: controller.signal, now: time.now, sleep: time.sleep })).rejects.toMatchObject({ reason: "aborted" });
    expect(reads()).toBe(1);
  });

  it("leaves no timer behind when aborted during a real pause", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      const { client } = fakeService([pod("PROVISIONING")]);
      const controller = new AbortController();
      let timersDuringPause = -1;
      // The pause's timer is set right after this read is judged; the abort comes once it is.
      const onPoll = () => queueMicrotask(() => ((timersDuringPause = vi.getTimerCount()), controller.abort()));
      const waiting = waitForPod(client, "p1", { signal: controller.signal, intervalMs: 3_600_000, onPoll });
      await expect(waiting).rejects.toMatchObject({ reason: "aborted" });
      expect(timersDuringPause).toBe(1);
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it("judges one pod by the contract's x-pod-readiness", () => {
    expect(POD_READINESS).toMatchObject({ statusFrom: "/status", ready: ["RUNNING"], failed: ["EXITED", "ERROR", "TERMINATED"] });
    expect(podState(pod("RUNNING", mapped), POD_READINESS)).toBe("ready");
    expect(podState({ ...pod("RUNNING", []), ports: ["8888/http"] }, POD_READINESS)).toBe("ready");
    expect(podState(pod("RUNNING", [{ private: 8888, public: 40000, ip: "203.0.113.17" }]), POD_READINESS)).toBe("pending");
    expect(podState(pod("TERMINATED"), POD_READINESS)).toBe("failed");
    expect(podState(pod("SOMETHING_NEW"), POD_READINESS)).toBe("pending");
  });
});
