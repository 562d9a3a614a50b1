/**
 * Contract tests of the generated client against Prism: every operation, every documented status
 * (Prism's `Prefer: code=N`), typed results and typed errors.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ApiError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  GpuCloudClient,
  InvalidRequestError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
  ServerError,
  UnexpectedStatusError,
  UnprocessableEntityError,
} from "../../generated/gpu-cloud-client/src/index.ts";
import { startPrism, type RunningPrism } from "../support/prism.ts";
import { startRecordingServer } from "../support/recording-server.ts";

const KEY = "sk-test-0123456789abcdef";
let prism: RunningPrism;
let client: GpuCloudClient;

beforeAll(async () => {
  prism = await startPrism();
  client = new GpuCloudClient({ apiKey: KEY, baseUrl: prism.baseUrl, publicEndpointBaseUrl: prism.baseUrl, maxRetries: 0 });
});
afterAll(async () => {
  await prism?.stop();
});

const prefer = (code: number) => ({ headers: { prefer: `code=${code}` } });

/** An event stream's first event, and the stream closed: its errors (before the stream) reject this promise. */
async function firstEvent<T>(stream: AsyncGenerator<T, void, undefined>): Promise<T | undefined> {
  const first = await stream.next();
  await stream.return(undefined);
  return first.done ? undefined : first.value;
}

/** Every operation of the client, called with valid arguments and per-call options. */
const calls = {
  listPods: (o?: object) => client.listPods({ query: { includeClusterPods: true } }, o),
  listTemplates: (o?: object) => client.listTemplates(o),
  deleteRegistry: (o?: object) => client.deleteRegistry({ path: { id: "9x4m2p7v" } }, o),
  runSync: (o?: object) =>
    client.runSync({ path: { model_endpoint_id: "wan-2-6-i2v" }, body: { input: { prompt: "a fox", image: "https://images.example.org/fox.jpg" } } }, o),
  run: (o?: object) => client.run({ path: { model_endpoint_id: "black-forest-labs-flux-1-dev" }, body: { input: { prompt: "a lighthouse" } } }, o),
  getJobStatus: (o?: object) => client.getJobStatus({ path: { model_endpoint_id: "wan-2-6-i2v", job_id: "6c1b3a9e" } }, o),
  cancelJob: (o?: object) => client.cancelJob({ path: { model_endpoint_id: "wan-2-6-i2v", job_id: "6c1b3a9e" } }, o),
  retryJob: (o?: object) => client.retryJob({ path: { model_endpoint_id: "wan-2-6-i2v", job_id: "6c1b3a9e" } }, o),
  streamJob: (o?: object) => client.streamJob({ path: { model_endpoint_id: "wan-2-6-i2v", job_id: "6c1b3a9e" } }, o),
  purgeQueue: (o?: object) => client.purgeQueue({ path: { model_endpoint_id: "wan-2-6-i2v" } }, o),
  getEndpointHealth: (o?: object) => client.getEndpointHealth({ path: { model_endpoint_id: "wan-2-6-i2v" } }, o),
  createPod: (o?: object) => client.createPod({ body: { name: "trial", image: "runpod/pytorch:2.4.0", gpu: { id: "NVIDIA GeForce RTX 4090" } } }, o),
  getPod: (o?: object) => client.getPod({ path: { id: "7h9k2m4n6p" } }, o),
  updatePod: (o?: object) => client.updatePod({ path: { id: "7h9k2m4n6p" }, body: { locked: true } }, o),
  deletePod: (o?: object) => client.deletePod({ path: { id: "7h9k2m4n6p" } }, o),
  podAction: (o?: object) => client.podAction({ path: { id: "7h9k2m4n6p" }, body: { action: "stop" } }, o),
  getPodLogs: (o?: object) => firstEvent(client.getPodLogs({ path: { id: "7h9k2m4n6p" }, query: { tail: 10 } }, o)),
  listGpuTypes: (o?: object) => client.listGpuTypes({ query: { include: ["AVAILABILITY"], product: ["POD"] } }, o),
  getGpuType: (o?: object) => client.getGpuType({ path: { id: "NVIDIA GeForce RTX 4090" } }, o),
  listCpuTypes: (o?: object) => client.listCpuTypes({}, o),
  getCpuType: (o?: object) => client.getCpuType({ path: { id: "cpu5c" } }, o),
  listDataCenters: (o?: object) => client.listDataCenters({ query: { regions: ["EUROPE"] } }, o),
  getDataCenter: (o?: object) => client.getDataCenter({ path: { id: "EU-RO-1" } }, o),
  listPublicTemplates: (o?: object) => client.listPublicTemplates({}, o),
  listEndpoints: (o?: object) => client.listEndpoints(o),
  createEndpoint: (o?: object) =>
    client.createEndpoint(
      { body: { name: "sdxl", type: "QUEUE", image: "example/worker:1", gpu: { pools: ["AMPERE_48"] }, scaling: { type: "QUEUE_DELAY", queueDelay: 4 } } },
      o,
    ),
  getEndpoint: (o?: object) => client.getEndpoint({ path: { id: "h3k8w2zq" } }, o),
  updateEndpoint: (o?: object) => client.updateEndpoint({ path: { id: "h3k8w2zq" }, body: { workers: { min: 1 } } }, o),
  deleteEndpoint: (o?: object) => client.deleteEndpoint({ path: { id: "h3k8w2zq" } }, o),
  listEndpointWorkers: (o?: object) => client.listEndpointWorkers({ path: { id: "h3k8w2zq" } }, o),
  listEndpointReleases: (o?: object) => client.listEndpointReleases({ path: { id: "h3k8w2zq" } }, o),
  getWorkerLogs: (o?: object) => firstEvent(client.getWorkerLogs({ path: { id: "h3k8w2zq", workerId: "w5p8r3k1" }, query: { source: "container", tail: 50 } }, o)),
  listClusters: (o?: object) => client.listClusters(o),
  createCluster: (o?: object) =>
    client.createCluster({ body: { name: "ray-eval", type: "RAY", compute: { gpuTypeId: "NVIDIA L40S", gpuCountPerPod: 2, podCount: 3 } } }, o),
  getCluster: (o?: object) => client.getCluster({ path: { id: "cl7q2w9e4r" } }, o),
  updateCluster: (o?: object) => client.updateCluster({ path: { id: "cl7q2w9e4r" }, body: { name: "renamed" } }, o),
  deleteCluster: (o?: object) => client.deleteCluster({ path: { id: "cl7q2w9e4r" } }, o),
  listClusterPods: (o?: object) => client.listClusterPods({ path: { id: "cl7q2w9e4r" } }, o),
};
const MODEL_ENDPOINT_CALLS: ReadonlySet<string> = new Set(["runSync", "run", "getJobStatus", "cancelJob", "retryJob", "streamJob", "purgeQueue", "getEndpointHealth"]);

const errorClassFor: Record<number, new (...args: never[]) => ApiError> = {
  400: BadRequestError,
  401: AuthenticationError,
  403: PermissionDeniedError,
  404: NotFoundError,
  402: UnexpectedStatusError,
  409: ConflictError,
  422: UnprocessableEntityError,
  429: RateLimitError,
  500: ServerError,
};

const documented: Record<keyof typeof calls, number[]> = {
  listPods: [401, 403, 429, 500],
  listTemplates: [401, 403, 429, 500],
  deleteRegistry: [400, 401, 403, 404, 429, 500],
  runSync: [400, 401, 403, 429, 500],
  run: [400, 401, 403, 429, 500],
  getJobStatus: [401, 403, 404, 429, 500],
  cancelJob: [401, 403, 404, 429, 500],
  retryJob: [401, 403, 404, 429, 500],
  streamJob: [401, 403, 404, 429, 500],
  purgeQueue: [401, 403, 429, 500],
  getEndpointHealth: [401, 403, 429, 500],
  createPod: [400, 401, 402, 403, 404, 422, 429, 500],
  getPod: [401, 403, 404, 429, 500],
  updatePod: [400, 401, 403, 404, 409, 422, 429, 500],
  deletePod: [401, 403, 404, 409, 429, 500],
  podAction: [400, 401, 403, 404, 409, 422, 429, 500],
  getPodLogs: [401, 403, 404, 429, 500],
  listGpuTypes: [401, 403, 429, 500],
  getGpuType: [401, 403, 404, 429, 500],
  listCpuTypes: [401, 403, 429, 500],
  getCpuType: [401, 403, 404, 429, 500],
  listDataCenters: [401, 403, 429, 500],
  getDataCenter: [401, 403, 404, 429, 500],
  listPublicTemplates: [401, 403, 429, 500],
  listEndpoints: [401, 403, 429, 500],
  createEndpoint: [400, 401, 403, 404, 422, 429, 500],
  getEndpoint: [401, 403, 404, 429, 500],
  updateEndpoint: [400, 401, 403, 404, 422, 429, 500],
  deleteEndpoint: [401, 403, 404, 429, 500],
  listEndpointWorkers: [401, 403, 404, 429, 500],
  listEndpointReleases: [401, 403, 404, 429, 500],
  getWorkerLogs: [401, 403, 404, 429, 500],
  listClusters: [401, 403, 429, 500],
  createCluster: [400, 401, 403, 422, 429, 500],
  getCluster: [401, 403, 404, 429, 500],
  updateCluster: [400, 401, 403, 404, 422, 429, 500],
  deleteCluster: [401, 403, 404, 429, 500],
  listClusterPods: [401, 403, 404, 429, 500],
};

describe("the generated client against the Prism mock", () => {
  it("lists pods with includeClusterPods and reads the rate-limit state", async () => {
    const { data, status, rateLimit } = await client.listPods({ query: { includeClusterPods: true } });
    expect(status).toBe(200);
    expect(data.pods[0]?.id).toBe("7h9k2m4n6p");
    expect(data.pods[0]?.status).toBe("RUNNING");
    expect(rateLimit?.windows.map((w) => w.name)).toEqual(["minute", "hour", "day"]);
    expect(rateLimit?.windows[0]).toMatchObject({ name: "minute", remaining: 57, resetSeconds: 12, quota: 60, windowSeconds: 60 });
  });

  it("keeps rateLimit in a copy of a result (spread, Object.assign, JSON)", async () => {
    const result = await client.listPods();
    for (const copy of [{ ...result }, Object.assign({}, result), JSON.parse(JSON.stringify(result))]) {
      expect(copy.rateLimit?.windows.map((w: { name: string }) => w.name)).toEqual(["minute", "hour", "day"]);
    }
  });

  it("lists templates", async () => {
    const { data } = await client.listTemplates();
    expect(data.templates.map((t) => t.registry)).toEqual(["cred_private_registry", null]);
  });

  it("deletes a registry credential (204, no body)", async () => {
    const result = await client.deleteRegistry({ path: { id: "9x4m2p7v" } });
    expect(result.status).toBe(204);
    expect(result.data).toBeUndefined();
    expect(result.rateLimit?.windows).toHaveLength(3);
  });

  it("runs a model synchronously and asynchronously and reads a job's status", async () => {
    const sync = await calls.runSync();
    expect(sync.data.id).toMatch(/^sync-/);
    expect(sync.data.output).toMatchObject({ video_url: expect.stringMatching(/^https:/), cost: 1.5 });
    const queued = await calls.run();
    expect(queued.data.status).toBe("IN_QUEUE");
    const status = await calls.getJobStatus();
    expect(status.data.status).toBe("COMPLETED");
  });

  it("calls the job operations of the service's reference, each answer validated against the contract", async () => {
    const validating = new GpuCloudClient({ apiKey: KEY, baseUrl: prism.baseUrl, publicEndpointBaseUrl: prism.baseUrl, maxRetries: 0, validateResponses: true });
    const job = { path: { model_endpoint_id: "wan-2-6-i2v", job_id: "6c1b3a9e" } };
    const endpoint = { path: { model_endpoint_id: "wan-2-6-i2v" } };
    expect((await validating.cancelJob(job)).data.status).toBe("CANCELLED");
    expect((await validating.retryJob(job)).data.status).toBe("IN_QUEUE");
    const { data: stream } = await validating.streamJob(job);
    expect(Array.isArray(stream.stream)).toBe(true);
    expect(typeof (await validating.purgeQueue(endpoint)).data.removed).toBe("number");
    const { data: health } = await validating.getEndpointHealth(endpoint);
    expect(health.jobs).toBeTypeOf("object");
    expect(health.workers).toBeTypeOf("object");
    const { data: status } = await validating.getJobStatus({ ...job, query: { ttl: 6000 } });
    expect(status.id).toBeTruthy();
  });

  it("creates a pod, reads it back, changes it, stops it and terminates it, each answer validated", async () => {
    const validating = new GpuCloudClient({ apiKey: KEY, baseUrl: prism.baseUrl, maxRetries: 0, validateResponses: true });
    const created = await validating.createPod({ body: { name: "trial", image: "runpod/pytorch:2.4.0", gpu: { id: "NVIDIA GeForce RTX 4090", count: 1 }, cloud: "SECURE" } });
    expect(created.status).toBe(201);
    expect(created.data.status).toBe("PROVISIONING");
    expect(created.data.runtime === null || created.data.runtime.ports === undefined).toBe(true);
    const { data: pod } = await validating.getPod({ path: { id: created.data.id } });
    expect(pod.status).toBe("RUNNING");
    expect(pod.ssh.direct?.port).toBeTypeOf("number");
    expect(pod.gpu?.id).toBe("NVIDIA GeForce RTX 4090");
    const { data: updated } = await validating.updatePod({ path: { id: pod.id }, body: { name: "pytorch-training-main", locked: true } });
    expect(updated.locked).toBe(true);
    const { data: stopped } = await validating.podAction({ path: { id: pod.id }, body: { action: "stop" } });
    expect(stopped?.status).toBe("EXITED");
    expect(stopped?.actions).toContain("start");
    expect((await validating.deletePod({ path: { id: pod.id } })).status).toBe(204);
  });

  it("refuses a pod with both a GPU and a CPU, or with neither an image nor a template, before sending", async () => {
    const both = client.createPod({ body: { name: "x", image: "i", gpu: { id: "g" }, cpu: { id: "cpu5c", vcpuCount: 4 } } });
    await expect(both).rejects.toBeInstanceOf(InvalidRequestError);
    await expect(client.createPod({ body: { name: "x", gpu: { id: "g" } } })).rejects.toBeInstanceOf(InvalidRequestError);
  });

  it("reads a pod's log stream as typed, validated events, each with its resume cursor", async () => {
    const events = [];
    const stream = client.getPodLogs({ path: { id: "7h9k2m4n6p" }, query: { source: "container", tail: 0 }, header: { "Last-Event-ID": "2026-06-01T12:01:41Z/000000000007" } });
    for await (const event of stream) {
      events.push(event);
      if (events.length === 2) break;
    }
    expect(events.map((event) => event.id)).toEqual(["2026-06-01T12:01:41Z/000000000007", "2026-06-01T12:01:44Z/000000000008"]);
    expect(events[0]!.data).toMatchObject({ source: "container", line: expect.any(String), ts: expect.any(String) });
  });

  it("lists GPU types with their price per GPU and hour per cloud, and reads the catalog", async () => {
    const validating = new GpuCloudClient({ apiKey: KEY, baseUrl: prism.baseUrl, maxRetries: 0, validateResponses: true });
    const { data } = await validating.listGpuTypes({ query: { include: ["AVAILABILITY"], product: ["POD"], count: 2, cloud: "SECURE" } });
    const rtx = data.gpus.find((gpu) => gpu.id === "NVIDIA GeForce RTX 4090");
    expect(rtx?.price.secure).toBeGreaterThan(0);
    expect(rtx?.price.community).toBeGreaterThan(0);
    // A pod's list rate: the cloud's price per GPU and hour times the GPU count.
    expect(rtx!.price.secure * 2).toBeCloseTo(1.38, 10);
    const { data: one } = await validating.getGpuType({ path: { id: "NVIDIA GeForce RTX 4090" } });
    expect(one.id).toBe("NVIDIA GeForce RTX 4090");
    expect(typeof one.price.secure).toBe("number");
    const { data: cpus } = await validating.listCpuTypes({ query: { include: ["AVAILABILITY"], product: ["POD"], vcpuCount: 4 } });
    expect(cpus.cpus[0]?.price.securePerVcpu).toBeTypeOf("number");
    expect((await validating.getCpuType({ path: { id: "cpu5c" } })).data.vcpu.min).toBeGreaterThanOrEqual(1);
    const { data: centers } = await validating.listDataCenters({ query: { include: ["GPU_AVAILABILITY"], regions: ["EUROPE"], globalNetwork: true } });
    expect(centers.dataCenters.length).toBeGreaterThan(0);
    expect((await validating.getDataCenter({ path: { id: "EU-RO-1" } })).data.region).toBeTruthy();
    const { data: templates } = await validating.listPublicTemplates({ query: { source: "official" } });
    expect(templates.templates.every((template) => template.public)).toBe(true);
  });

  it("offers typed per-model calls", async () => {
    const { data: job } = await client.runModelSync("wan-2-6-i2v", { prompt: "a fox", image: "https://images.example.org/fox.jpg", duration: 10 });
    expect(job.output?.video_url).toMatch(/^https:/);
    const { data: queued } = await client.runModel("some-unlisted-model", { anything: true });
    expect(queued.id).toBeTruthy();
    const { data: polled } = await client.getModelJob("black-forest-labs-flux-1-dev", queued.id);
    expect(polled.status).toBeTruthy();
  });

  it("creates a serverless endpoint, then reads it back, its workers and its releases, each answer validated", async () => {
    const validating = new GpuCloudClient({ apiKey: KEY, baseUrl: prism.baseUrl, maxRetries: 0, validateResponses: true });
    const created = await validating.createEndpoint({
      body: {
        name: "sdxl-worker",
        type: "QUEUE",
        image: "ghcr.io/example-org/sdxl-worker:1.4.0",
        gpu: { pools: ["AMPERE_48", "ADA_48_PRO"], count: 1 },
        workers: { min: 0, max: 4 },
        scaling: { type: "QUEUE_DELAY", queueDelay: 6 },
      },
    });
    expect(created.status).toBe(201);
    const { data: endpoint } = await validating.getEndpoint({ path: { id: created.data.id } });
    expect(endpoint.id).toBe(created.data.id);
    expect(endpoint.gpu?.pools).toContain("AMPERE_48");
    // The scaling union narrows on its type.
    if (endpoint.scaling.type === "QUEUE_DELAY") expect(endpoint.scaling.queueDelay).toBeGreaterThanOrEqual(0.5);
    else expect.unreachable("the example scales by queue delay");
    const requestUrls = endpoint.requestUrls;
    expect(requestUrls && "run" in requestUrls ? requestUrls.status : undefined).toContain("{job_id}");

    const { data: updated } = await validating.updateEndpoint({ path: { id: endpoint.id }, body: { workers: { min: 1, max: 8 } } });
    expect(updated.workers.min).toBe(1);
    const { data: workers } = await validating.listEndpointWorkers({ path: { id: endpoint.id } });
    expect(workers.summary.total).toBe(workers.workers.length);
    const { data: releases } = await validating.listEndpointReleases({ path: { id: endpoint.id } });
    expect(releases.releases[0]?.diff.length).toBeGreaterThan(0);
    expect((await validating.listEndpoints()).data.endpoints.length).toBeGreaterThan(0);
    const deleted = await validating.deleteEndpoint({ path: { id: endpoint.id } });
    expect([deleted.status, deleted.data]).toEqual([204, undefined]);
  });

  it("reads a worker's log stream as typed events, with the resume cursor sent as Last-Event-ID", async () => {
    const stream = client.getWorkerLogs({
      path: { id: "h3k8w2zq", workerId: "w5p8r3k1" },
      query: { tail: 0 },
      header: { "Last-Event-ID": "2026-07-14T09:12:30Z/000000000317" },
    });
    const first = await stream.next();
    await stream.return(undefined);
    expect(first.done).toBe(false);
    expect(first.value?.id).toMatch(/^2026-07-14T09:12:3\d+Z\//);
    expect(first.value?.data.source).toBe("container");
  });

  it("refuses, before sending, an endpoint body the service would refuse", async () => {
    const scaling = { type: "QUEUE_DELAY", queueDelay: 4 } as const;
    const noCompute = client.createEndpoint({ body: { name: "x", type: "QUEUE", image: "example/worker:1", scaling } });
    await expect(noCompute).rejects.toBeInstanceOf(InvalidRequestError);
    const loadBalancerByQueue = client.createEndpoint({ body: { name: "x", type: "LOAD_BALANCER", image: "example/worker:1", gpu: { pools: ["AMPERE_80"] }, scaling } });
    await expect(loadBalancerByQueue).rejects.toBeInstanceOf(InvalidRequestError);
    const cudaBoth = client.updateEndpoint({ path: { id: "h3k8w2zq" }, body: { gpu: { allowedCudaVersions: ["12.4"], minCudaVersion: "12.1" } } });
    await expect(cudaBoth).rejects.toBeInstanceOf(InvalidRequestError);
  });

  it("lists clusters and a cluster's pods, creates and renames one", async () => {
    const validating = new GpuCloudClient({ apiKey: KEY, baseUrl: prism.baseUrl, maxRetries: 0, validateResponses: true });
    const { data: list } = await validating.listClusters();
    expect(list.clusters.map((c) => c.type)).toEqual(["SLURM", "RAY"]);
    const running = list.clusters[0]!;
    expect(running.compute.podCount * running.compute.gpuCountPerPod).toBe(32);
    expect(running.pods.byStatus["RUNNING"]).toBe(running.pods.total);
    const { data: members } = await validating.listClusterPods({ path: { id: running.id } });
    expect(members.pods.map((pod) => pod.cluster?.role)).toEqual(["SLURM_CONTROLLER", "SLURM_COMPUTE"]);
    expect(members.pods.every((pod) => pod.cluster?.id === running.id)).toBe(true);
    const created = await validating.createCluster({ body: { name: "ray-eval", type: "RAY", compute: { gpuTypeId: "NVIDIA L40S", gpuCountPerPod: 2, podCount: 3 } } });
    expect(created.status).toBe(201);
    const { data: renamed } = await validating.updateCluster({ path: { id: running.id }, body: { name: "pretrain-run-12b" } });
    expect(renamed.name).toBe("pretrain-run-12b");
    const tooSmall = validating.createCluster({ body: { name: "x", type: "RAY", compute: { gpuTypeId: "NVIDIA L40S", gpuCountPerPod: 1, podCount: 1 } } });
    await expect(tooSmall).rejects.toBeInstanceOf(InvalidRequestError);
  });

  it("throws a typed NotFoundError for an unknown endpoint or cluster, naming the operation", async () => {
    for (const call of [calls.getEndpoint, calls.getCluster, calls.listClusterPods, calls.getWorkerLogs]) {
      const error = await call(prefer(404)).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(NotFoundError);
      expect((error as NotFoundError).detail).toMatch(/not found/);
    }
  });

  describe.each(Object.keys(calls) as Array<keyof typeof calls>)("%s", (name) => {
    it.each(documented[name])("throws the typed error for a documented %i", async (code) => {
      const error = await calls[name](prefer(code)).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(errorClassFor[code]!);
      const apiError = error as ApiError;
      expect(apiError.status).toBe(code);
      expect(apiError.operationId).toBe(name);
      if (code === 400 && (name === "runSync" || name === "run")) {
        // The model endpoints answer a failed job, not a problem.
        expect(apiError.problem).toMatchObject({ status: "FAILED", error: expect.any(String) });
      } else if (MODEL_ENDPOINT_CALLS.has(name)) {
        // Nothing says what the model endpoints' other error bodies hold: typed by status alone.
        expect(apiError.problem).toBeUndefined();
      } else {
        expect(apiError.title).toBeTruthy();
        expect(apiError.detail).toBeTruthy();
      }
      if (code === 429) {
        expect((apiError as RateLimitError).retryAfter).toBe(12);
        // A model endpoint's 429 may come from its own limits or a full queue, not the user's windows.
        const modelEndpoint = MODEL_ENDPOINT_CALLS.has(name);
        expect(apiError.rateLimit?.windows[0]).toMatchObject({ name: "minute", ...(modelEndpoint ? {} : { remaining: 0 }) });
      }
      if (code !== 401) expect(apiError.rateLimit?.windows).toHaveLength(3);
      const serialised = JSON.stringify(apiError) + String(apiError.message) + String(apiError.stack);
      expect(serialised).not.toContain(KEY);
    });
  });

  it("refuses to build a client without a key, naming the environment variable", () => {
    const previous = process.env.GPU_CLOUD_API_KEY;
    delete process.env.GPU_CLOUD_API_KEY;
    try {
      expect(() => new GpuCloudClient({ apiKey: "", baseUrl: prism.baseUrl })).toThrow(/GPU_CLOUD_API_KEY/);
      expect(() => new GpuCloudClient()).toThrow(InvalidRequestError);
    } finally {
      if (previous !== undefined) process.env.GPU_CLOUD_API_KEY = previous;
    }
  });

  it("takes the key from GPU_CLOUD_API_KEY when no option is given", async () => {
    process.env.GPU_CLOUD_API_KEY = KEY;
    try {
      const fromEnvironment = new GpuCloudClient({ baseUrl: prism.baseUrl });
      expect((await fromEnvironment.listTemplates()).status).toBe(200);
    } finally {
      delete process.env.GPU_CLOUD_API_KEY;
    }
  });

  it("refuses a path parameter of '..' before any request", async () => {
    const error = await client.deleteRegistry({ path: { id: ".." } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect((error as InvalidRequestError).field).toBe("path.id");
  });
});

describe("templates, network volumes, ECR delegations and billing against the Prism mock", () => {
  // Each answer is checked against the contract by the client itself.
  const validating = () => new GpuCloudClient({ apiKey: KEY, baseUrl: prism.baseUrl, publicEndpointBaseUrl: prism.baseUrl, maxRetries: 0, validateResponses: true });
  const template = { path: { id: "5t8w3k1r" } };
  const volume = { path: { id: "v8r2k6m1qz" } };
  const period = { query: { bucketSize: "hour", lastN: 24 } } as const;

  const storageCalls = {
    createTemplate: (o?: object) => client.createTemplate({ body: { name: "notebook-cuda", image: "registry.example.org/lab/notebook:3.2" } }, o),
    getTemplate: (o?: object) => client.getTemplate(template, o),
    updateTemplate: (o?: object) => client.updateTemplate({ ...template, body: { image: "registry.example.org/lab/notebook:3.3" } }, o),
    deleteTemplate: (o?: object) => client.deleteTemplate(template, o),
    listNetworkVolumes: (o?: object) => client.listNetworkVolumes(o),
    createNetworkVolume: (o?: object) => client.createNetworkVolume({ body: { name: "datasets", size: 250, dataCenter: "EU-RO-1" } }, o),
    getNetworkVolume: (o?: object) => client.getNetworkVolume(volume, o),
    updateNetworkVolume: (o?: object) => client.updateNetworkVolume({ ...volume, body: { size: 500 } }, o),
    deleteNetworkVolume: (o?: object) => client.deleteNetworkVolume(volume, o),
    listDelegations: (o?: object) => client.listDelegations(o),
    createDelegation: (o?: object) => client.createDelegation({ body: { resource: "arn:aws:ecr:eu-central-1:123456789012:repository/ml/trainer" } }, o),
    revokeDelegation: (o?: object) => client.revokeDelegation({ path: { id: "dlg_6p2w9k4m" } }, o),
    listBilling: (o?: object) => client.listBilling(period, o),
    listPodBilling: (o?: object) => client.listPodBilling({ query: { ...period.query, podId: "7h9k2m4n6p" } }, o),
    listServerlessBilling: (o?: object) => client.listServerlessBilling(period, o),
    listEndpointBilling: (o?: object) => client.listEndpointBilling(period, o),
    listNetworkVolumeBilling: (o?: object) => client.listNetworkVolumeBilling(period, o),
    listClusterBilling: (o?: object) => client.listClusterBilling(period, o),
  };
  const storageDocumented: Record<keyof typeof storageCalls, number[]> = {
    createTemplate: [400, 401, 403, 422, 429, 500],
    getTemplate: [401, 403, 404, 429, 500],
    updateTemplate: [400, 401, 403, 404, 422, 429, 500],
    deleteTemplate: [400, 401, 403, 404, 429, 500],
    listNetworkVolumes: [401, 403, 429, 500],
    createNetworkVolume: [400, 401, 403, 422, 429, 500],
    getNetworkVolume: [401, 403, 404, 429, 500],
    updateNetworkVolume: [400, 401, 403, 404, 422, 429, 500],
    deleteNetworkVolume: [401, 403, 404, 429, 500],
    listDelegations: [401, 403, 429, 500],
    createDelegation: [401, 403, 429, 500],
    revokeDelegation: [401, 403, 404, 429, 500],
    listBilling: [401, 403, 429, 500],
    listPodBilling: [401, 403, 429, 500],
    listServerlessBilling: [401, 403, 429, 500],
    listEndpointBilling: [401, 403, 429, 500],
    listNetworkVolumeBilling: [401, 403, 429, 500],
    listClusterBilling: [401, 403, 429, 500],
  };
  const storageErrorClassFor: Record<number, new (...args: never[]) => ApiError> = { ...errorClassFor, 422: UnprocessableEntityError };

  it("creates, reads, grows and deletes a network volume", async () => {
    const api = validating();
    const created = await api.createNetworkVolume({ body: { name: "datasets", size: 250, dataCenter: "EU-RO-1", type: "STANDARD" } });
    expect(created.status).toBe(201);
    expect(created.data).toMatchObject({ id: expect.any(String), size: 250, dataCenter: "EU-RO-1" });
    // Prism answers a schema's own example unless asked for the operation's by name.
    const { data: read } = await api.getNetworkVolume({ path: { id: created.data.id } }, { headers: { prefer: "example=volume" } });
    expect(read).toMatchObject({ size: 40, type: "HIGH_PERFORMANCE" });
    const grown = await api.updateNetworkVolume({ path: { id: created.data.id }, body: { size: 500 } }, { headers: { prefer: "example=grown" } });
    expect(grown.data.size).toBe(500);
    const { data: list } = await api.listNetworkVolumes();
    expect(list.networkVolumes.map((v) => v.type)).toEqual(["STANDARD", "HIGH_PERFORMANCE"]);
    const deleted = await api.deleteNetworkVolume({ path: { id: created.data.id } });
    expect(deleted.status).toBe(204);
    expect(deleted.data).toBeUndefined();
  });

  it("refuses a network volume the service would refuse before sending it", async () => {
    const tooSmall = await client.createNetworkVolume({ body: { name: "datasets", size: 5, dataCenter: "EU-RO-1" } }).catch((e: unknown) => e);
    expect(tooSmall).toBeInstanceOf(InvalidRequestError);
    const empty = await client.updateNetworkVolume({ ...volume, body: {} }).catch((e: unknown) => e);
    expect(empty).toBeInstanceOf(InvalidRequestError);
  });

  it("creates, reads, changes and deletes a template", async () => {
    const api = validating();
    const created = await api.createTemplate({
      body: { name: "notebook-cuda", image: "registry.example.org/lab/notebook:3.2", mounts: { persistent: { size: 30, path: "/workspace" } }, allowedCudaVersions: ["12.6"] },
    });
    expect(created.status).toBe(201);
    expect(created.data).toMatchObject({ name: "notebook-cuda", startSsh: true, startJupyter: true, registry: null });
    expect(Object.keys(created.data.mounts)).toEqual(["persistent"]);
    const { data: read } = await api.getTemplate({ path: { id: created.data.id } });
    expect(read.serverless).toBe(true);
    const { data: changed } = await api.updateTemplate({ path: { id: created.data.id }, body: { allowedCudaVersions: ["12.6", "12.8"] } });
    expect(changed.allowedCudaVersions).toEqual(["12.6", "12.8"]);
    expect((await api.deleteTemplate({ path: { id: created.data.id } })).status).toBe(204);
    const unknown = await client.createTemplate({ body: { name: "t", image: "i", templateId: "x" } as never }).catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(InvalidRequestError);
  });

  it("reads pod billing for the last 24 hours of one pod", async () => {
    const { data } = await validating().listPodBilling({ query: { bucketSize: "hour", lastN: 24, podId: "7h9k2m4n6p" } });
    expect(data.metadata.query.bucketSize).toBe("hour");
    expect(data.metadata.query.podId).toBe("7h9k2m4n6p");
    expect(data.records.every((r) => r.podId === "7h9k2m4n6p")).toBe(true);
    expect(data.metadata.recordCount).toBe(data.records.length);
    const sum = data.records.reduce((total, r) => total + r.totalAmount, 0);
    expect(sum).toBeCloseTo(data.metadata.totals.totalAmount, 6);
    for (const call of ["listBilling", "listServerlessBilling", "listEndpointBilling", "listNetworkVolumeBilling", "listClusterBilling"] as const) {
      const { data: report } = await validating()[call]({ query: { startTime: "2026-06-01T00:00:00Z", endTime: "2026-06-03T00:00:00Z", bucketSize: "day" } });
      expect(report.metadata.recordCount, call).toBe(report.records.length);
    }
  });

  it("sends the billing period as query parameters, and refuses a bucket size or lastN the service does not take", async () => {
    const server = await startRecordingServer(() => ({ status: 200, headers: { "content-type": "application/json" }, body: JSON.stringify({ records: [], metadata: {} }) }));
    try {
      const recorded = new GpuCloudClient({ apiKey: KEY, baseUrl: server.url, maxRetries: 0 });
      await recorded.listNetworkVolumeBilling({ query: { startTime: "2026-06-01T00:00:00Z", endTime: "2026-06-03T00:00:00Z", bucketSize: "week", networkVolumeId: "v8r2k6m1qz" } });
      const url = new URL(server.requests[0]!.url, server.url);
      expect(url.pathname).toBe("/v2/billing/network-volumes");
      expect(Object.fromEntries(url.searchParams)).toEqual({ startTime: "2026-06-01T00:00:00Z", endTime: "2026-06-03T00:00:00Z", bucketSize: "week", networkVolumeId: "v8r2k6m1qz" });
      for (const query of [{ bucketSize: "fortnight" }, { lastN: 0 }, { startTime: "yesterday" }]) {
        const error = await recorded.listBilling({ query } as never).catch((e: unknown) => e);
        expect(error, JSON.stringify(query)).toBeInstanceOf(InvalidRequestError);
      }
      expect(server.requests).toHaveLength(1);
    } finally {
      await server.close();
    }
  });

  it("reaches the ECR delegations at their literal path, and never a credential id 'delegations'", async () => {
    const api = validating();
    const { data: list } = await api.listDelegations();
    expect(list.delegations[0]).toMatchObject({ repository: "ml/trainer", tag: "v2.1.0" });
    const created = await api.createDelegation({ body: { resource: "arn:aws:ecr:eu-central-1:123456789012:repository/ml/trainer", name: "trainer-images" } });
    expect(created.status).toBe(201);
    expect((await api.revokeDelegation({ path: { id: created.data.id } })).status).toBe(204);
    // GET /v2/registries/delegations is the delegations' list: the client refuses the id rather than misread it.
    for (const call of [() => api.getRegistry({ path: { id: "delegations" } }), () => api.deleteRegistry({ path: { id: "delegations" } })]) {
      const error = await call().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InvalidRequestError);
      expect((error as InvalidRequestError).field).toBe("path.id");
    }
    expect((await api.getRegistry({ path: { id: "9x4m2p7v" } })).data.name).toBe("team-images");
  });

  describe.each(Object.keys(storageCalls) as Array<keyof typeof storageCalls>)("%s", (name) => {
    it.each(storageDocumented[name])("throws the typed error for a documented %i", async (code) => {
      const error = await storageCalls[name](prefer(code)).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(storageErrorClassFor[code]!);
      const apiError = error as ApiError;
      expect(apiError.status).toBe(code);
      expect(apiError.operationId).toBe(name);
      expect(apiError.problem).toMatchObject({ status: code });
      expect(apiError.detail).toBeTruthy();
      if (code === 429) expect((apiError as RateLimitError).retryAfter).toBe(12);
      if (code !== 401) expect(apiError.rateLimit?.windows).toHaveLength(3);
    });
  });
});
