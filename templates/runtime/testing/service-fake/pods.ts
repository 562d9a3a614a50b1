/**
 * Pods and the GPU catalog. A pod moves PROVISIONING → STARTING → RUNNING on the fake's clock
 * (`provisioningMs`, then `startingMs`; a restart skips provisioning; a pod named `doomed` ends in
 * ERROR), takes the actions of the contract's `podAction`, and bills by the hour at its catalog
 * price (on its cloud, times its GPU count) while it is not stopped.
 */
import { isRecord, iso, json, problem } from "./answers.js";
import { PodLogs, type FakeLogEvent, type PodLog } from "./pod-logs.js";
import type { Registries } from "./registries.js";

export interface FakePodsOptions {
  provisioningMs?: number | undefined;
  startingMs?: number | undefined;
}

export interface FakePod {
  id: string;
  body: Record<string, unknown>;
  createdAt: number;
  /** When the current boot began (creation, start, restart); undefined while stopped. */
  bootAt: number | undefined;
  /** Restart skips provisioning: it begins at STARTING. */
  fromStarting: boolean;
  stopped: boolean;
  /** Milliseconds billed by boots that have ended. */
  billedMs: number;
  log: PodLog;
}

/** The catalog the fake sells: ids are real GPU type names, prices (USD per hour per GPU) and stock this project's own. */
export const FAKE_GPU_TYPES = [
  { id: "NVIDIA GeForce RTX 4090", name: "RTX 4090", pool: "ADA_24", manufacturer: "NVIDIA", memory: 24, secure: true, community: true, price: { secure: 0.72, community: 0.4, serverless: 1.2 }, maxCount: { secure: 8, community: 4 }, availability: "HIGH" },
  { id: "NVIDIA A40", name: "A40", pool: "AMPERE_48", manufacturer: "NVIDIA", memory: 48, secure: true, community: true, price: { secure: 0.5, community: 0.45 }, maxCount: { secure: 8, community: 2 }, availability: "LOW" },
  { id: "NVIDIA H100 80GB HBM3", name: "H100 SXM", pool: "HOPPER_141", manufacturer: "NVIDIA", memory: 80, secure: true, community: false, price: { secure: 3.1, community: 0 }, maxCount: { secure: 8, community: 0 }, availability: "NONE" },
] as const;

const DATA_CENTER = { id: "EU-SE-1", name: "Europe, Sweden 1" };
/** The hourly rate of a pod without a GPU (a CPU pod). */
const CPU_RATE = 0.1;

export class FakePods {
  readonly pods = new Map<string, FakePod>();
  readonly logs: PodLogs;
  readonly #provisioningMs: number;
  readonly #startingMs: number;
  readonly #now: () => number;
  #registries: Registries | undefined;
  #nextId = 1;

  constructor(now: () => number, options: FakePodsOptions = {}) {
    this.#now = now;
    this.logs = new PodLogs(now);
    this.#provisioningMs = options.provisioningMs ?? 20_000;
    this.#startingMs = options.startingMs ?? 10_000;
  }

  /** The registry credentials and templates a pod's body may name. */
  useRegistries(registries: Registries): void {
    this.#registries = registries;
  }

  /** The pod that pulls its image with credential `id`, if any. */
  usingRegistry(id: string): string | undefined {
    return [...this.pods.values()].find((pod) => pod.body["registry"] === id)?.id;
  }

  handle(method: string, path: string, query: URLSearchParams, body: unknown, lastEventId: string | undefined, headers: Record<string, string>): Response | undefined {
    if (path === "/v2/pods" && method === "GET") return json(200, { pods: [...this.pods.values()].map((pod) => this.view(pod)) }, headers);
    if (path === "/v2/pods" && method === "POST") return this.#create(isRecord(body) ? body : {}, headers);
    const logs = /^\/v2\/pods\/([^/]+)\/logs$/.exec(path);
    if (logs && method === "GET") {
      const pod = this.pods.get(decodeURIComponent(logs[1]!));
      return pod === undefined ? problem(404, "Not Found", "no pod with this id", headers) : this.logs.stream(pod.id, pod.log, query, lastEventId, headers);
    }
    const one = /^\/v2\/pods\/([^/]+)(\/action)?$/.exec(path);
    if (one) {
      const pod = this.pods.get(decodeURIComponent(one[1]!));
      if (pod === undefined) return problem(404, "Not Found", "no pod with this id", headers);
      if (one[2] !== undefined) return method === "POST" ? this.#act(pod, isRecord(body) ? body["action"] : undefined, headers) : undefined;
      if (method === "GET") return json(200, this.view(pod), headers);
      if (method === "DELETE") return this.#act(pod, "terminate", headers);
      if (method === "PATCH") return this.#update(pod, isRecord(body) ? body : {}, headers);
      return undefined;
    }
    if (path === "/v2/catalog/gpus" && method === "GET") return json(200, { gpus: FAKE_GPU_TYPES.map((type) => gpuView(type, query)) }, headers);
    const gpu = /^\/v2\/catalog\/gpus\/([^/]+)$/.exec(path);
    if (gpu && method === "GET") {
      const type = FAKE_GPU_TYPES.find((candidate) => candidate.id === decodeURIComponent(gpu[1]!));
      return type === undefined ? problem(404, "Not Found", "no GPU type with this id", headers) : json(200, gpuView(type, query), headers);
    }
    return undefined;
  }

  /** The pod's status now, by the clock. */
  status(pod: FakePod): string {
    if (pod.stopped || pod.bootAt === undefined) return "EXITED";
    const elapsed = this.#now() - pod.bootAt + (pod.fromStarting ? this.#provisioningMs : 0);
    if (elapsed < this.#provisioningMs) return "PROVISIONING";
    if (elapsed < this.#provisioningMs + this.#startingMs) return "STARTING";
    return pod.body["name"] === "doomed" ? "ERROR" : "RUNNING";
  }

  /** USD per hour at the catalog's price: the GPU type's on the pod's cloud times its count. */
  rate(pod: FakePod): number {
    const gpu = pod.body["gpu"] as { id?: unknown; count?: number } | undefined;
    const price = FAKE_GPU_TYPES.find((type) => type.id === gpu?.id)?.price;
    const cloud = pod.body["cloud"] === "COMMUNITY" ? "community" : "secure";
    return price === undefined ? CPU_RATE : Math.round(price[cloud] * (gpu?.count ?? 1) * 1e6) / 1e6;
  }

  /** What the pod has cost so far in USD: its rate over every hour it was not stopped. */
  accruedCost(id: string): number {
    const pod = this.#pod(id);
    const ms = pod.billedMs + (pod.bootAt === undefined ? 0 : this.#now() - pod.bootAt);
    return Math.round((this.rate(pod) * ms) / 3_600_000 * 1e6) / 1e6;
  }

  /** Writes a line to the pod's log (at the clock's now), sent at once to every open stream that keeps its source. */
  appendLog(id: string, line: string, source = "container"): FakeLogEvent {
    return this.logs.append(this.#pod(id).log, line, source);
  }

  /** The pod's next log stream breaks (no clean end) after sending `events` events. */
  cutLogStreamOnce(id: string, events: number): void {
    this.#pod(id).log.cutAfter = events;
  }

  /** The pod as the service answers it (the contract's Pod). */
  view(pod: FakePod): Record<string, unknown> {
    const status = this.status(pod);
    const running = status === "RUNNING";
    const placed = status !== "PROVISIONING";
    const ports = (Array.isArray(pod.body["ports"]) ? pod.body["ports"] : []) as string[];
    const gpu = pod.body["gpu"] as { id: string; count?: number } | undefined;
    const user = `${pod.id}-5eed`;
    const proxy = { host: "ssh.fake.test", port: 22, username: user, command: `ssh ${user}@ssh.fake.test` };
    const tcp = ports.flatMap((port, i) => {
      const match = /^(\d+)\/tcp$/.exec(port);
      return match ? [{ private: Number(match[1]), public: 41000 + i, type: "tcp", ip: "203.0.113.7" }] : [];
    });
    const direct = tcp.find((mapping) => mapping.private === 22);
    return {
      id: pod.id,
      name: pod.body["name"],
      image: typeof pod.body["image"] === "string" ? pod.body["image"] : "fake/template-image:1",
      args: typeof pod.body["args"] === "string" ? pod.body["args"] : "",
      disk: typeof pod.body["disk"] === "number" ? pod.body["disk"] : 20,
      ports,
      env: pod.body["env"] ?? {},
      registry: typeof pod.body["registry"] === "string" ? pod.body["registry"] : null,
      status,
      actions: running ? ["stop", "restart", "terminate"] : status === "EXITED" || status === "ERROR" ? ["start", "terminate"] : ["stop", "terminate"],
      mounts: {},
      ...(gpu ? { gpu: { id: gpu.id, count: gpu.count ?? 1 } } : {}),
      ...(pod.body["cpu"] ? { cpu: pod.body["cpu"] } : {}),
      cloud: typeof pod.body["cloud"] === "string" ? pod.body["cloud"] : "SECURE",
      dataCenterId: placed ? DATA_CENTER.id : null,
      cudaVersion: placed && gpu ? "12.8" : null,
      ssh: { proxy: placed ? proxy : null, direct: running && direct ? { host: direct.ip, port: direct.public, username: "root", command: `ssh root@${direct.ip} -p ${direct.public}` } : null },
      template: null,
      cost: status === "EXITED" ? 0 : this.rate(pod),
      locked: pod.body["locked"] === true,
      globalNetworking: { enabled: false },
      runtime: running ? { uptime: Math.floor((this.#now() - this.#runningSince(pod)) / 1000), ports: tcp } : {},
      createdAt: iso(pod.createdAt),
      startedAt: running ? iso(this.#runningSince(pod)) : null,
    };
  }

  #pod(id: string): FakePod {
    const pod = this.pods.get(id);
    if (pod === undefined) throw new Error(`the fake has no pod ${id}`);
    return pod;
  }

  /** When the current boot reached RUNNING (or will). */
  #runningSince(pod: FakePod): number {
    return pod.bootAt! + (pod.fromStarting ? 0 : this.#provisioningMs) + this.#startingMs;
  }

  #create(sent: Record<string, unknown>, headers: Record<string, string>): Response {
    const template = typeof sent["templateId"] === "string" ? this.#registries?.templates.get(sent["templateId"]) : undefined;
    if (typeof sent["templateId"] === "string" && template === undefined) return problem(400, "Bad Request", "no template with this id", headers);
    // A template's container settings, the body's own fields winning; the pod keeps no link to it.
    const { templateId: _templateId, ...own } = sent;
    const body = template === undefined ? own : { image: template.image, args: template.args, disk: template.disk, ports: template.ports, env: template.env, registry: template.registry, ...own };
    if (typeof body["name"] !== "string" || (body["gpu"] === undefined) === (body["cpu"] === undefined)) {
      return problem(400, "Bad Request", "a pod needs a name and exactly one of gpu and cpu", headers);
    }
    const gpu = body["gpu"] as { id?: unknown } | undefined;
    if (gpu !== undefined && !FAKE_GPU_TYPES.some((type) => type.id === gpu.id)) return problem(400, "Bad Request", "no GPU type with this id", headers);
    const registry = body["registry"];
    if (typeof registry === "string" && this.#registries !== undefined && !this.#registries.registries.has(registry)) return problem(400, "Bad Request", "no registry credential with this id", headers);
    const now = this.#now();
    const pod: FakePod = { id: `pod${String(this.#nextId++).padStart(6, "0")}`, body, createdAt: now, bootAt: now, fromStarting: false, stopped: false, billedMs: 0, log: { events: [], followers: new Set(), cutAfter: undefined } };
    this.pods.set(pod.id, pod);
    this.appendLog(pod.id, `pod ${pod.id} created`, "system");
    return json(201, this.view(pod), headers);
  }

  #update(pod: FakePod, changes: Record<string, unknown>, headers: Record<string, string>): Response {
    const registry = changes["registry"];
    if (typeof registry === "string" && this.#registries !== undefined && !this.#registries.registries.has(registry)) return problem(400, "Bad Request", "no registry credential with this id", headers);
    for (const key of ["name", "image", "args", "disk", "ports", "env", "registry", "locked"]) if (changes[key] !== undefined) pod.body[key] = changes[key];
    return json(200, this.view(pod), headers);
  }

  #act(pod: FakePod, action: unknown, headers: Record<string, string>): Response {
    const status = this.status(pod);
    const now = this.#now();
    const refuse = () => problem(409, "Conflict", `pod ${pod.id} is ${status} and cannot take ${String(action)}`, headers);
    const endBoot = () => {
      if (pod.bootAt !== undefined) pod.billedMs += now - pod.bootAt;
    };
    switch (action) {
      case "start":
        if (status !== "EXITED" && status !== "ERROR") return refuse();
        endBoot();
        Object.assign(pod, { bootAt: now, fromStarting: false, stopped: false });
        return json(200, this.view(pod), headers);
      case "stop":
        if (status !== "RUNNING" && status !== "PROVISIONING" && status !== "STARTING") return refuse();
        endBoot();
        Object.assign(pod, { bootAt: undefined, stopped: true });
        return json(200, this.view(pod), headers);
      case "restart":
        if (status !== "RUNNING") return refuse();
        endBoot();
        Object.assign(pod, { bootAt: now, fromStarting: true });
        return json(200, this.view(pod), headers);
      case "terminate":
        this.pods.delete(pod.id);
        return json(204, undefined, headers);
      default:
        return problem(400, "Bad Request", "action must be one of start, stop, restart, terminate", headers);
    }
  }
}

function gpuView(type: (typeof FAKE_GPU_TYPES)[number], query: URLSearchParams): Record<string, unknown> {
  const { availability, ...prices } = type;
  if (query.get("include") !== "AVAILABILITY" || !query.get("product")) return { ...prices };
  return { ...prices, availability, ...(availability === "NONE" ? {} : { dataCenters: [{ ...DATA_CENTER, availability }] }) };
}
