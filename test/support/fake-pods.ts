/**
 * The management side of the stateful fake (served by `FakeModelServer`): pods and the GPU catalog.
 *
 * - A created pod is `PROVISIONING` for `provisioningMs`, then `STARTING` for `startingMs`, then
 *   `RUNNING` with a public address for each `<n>/tcp` port it asked for, all on the server's clock
 *   (`now`), so a simulated clock moves it without real waiting.
 * - `podAction` as the contract says: `start` from `EXITED`/`ERROR` (the lifecycle again), `stop`
 *   from `RUNNING`/`PROVISIONING`/`STARTING` (`EXITED`, cost 0), `restart` from `RUNNING` (back to
 *   `STARTING`), `terminate` from any (204, the pod is gone); another action is refused with 409.
 * - A pod whose name is `doomed` ends `ERROR` instead of running.
 * - The catalog: GPU types with a price per GPU and hour per cloud; stock (`availability`,
 *   `dataCenters`) only with `include=AVAILABILITY` and `product`, as the contract says.
 * - Each pod's log (`GET /v2/pods/{id}/logs`, Server-Sent Events): a `system` line at creation,
 *   then what a test appends (`appendLog`), each event with an id in the order written. A stream
 *   starts just after `Last-Event-ID` when sent, else from `since`, else with the last `tail` lines
 *   (100 by default), keeps only `source` when given, then stays open and sends each new line.
 *   `cutLogStreamOnce` makes the pod's next stream drop its connection after some events.
 *
 * The values are this project's own; every answer validates against the contract.
 */
import type http from "node:http";

export interface FakePodsOptions {
  provisioningMs?: number;
  startingMs?: number;
}

interface FakePod {
  id: string;
  body: Record<string, unknown>;
  createdAt: number;
  /** When the current boot began (creation, start, restart); undefined while stopped. */
  bootAt: number | undefined;
  /** Restart skips provisioning: it begins at STARTING. */
  fromStarting: boolean;
  stopped: boolean;
  log: FakeLogEvent[];
  /** The open log streams' senders. */
  followers: Set<(event: FakeLogEvent) => void>;
  /** Set by `cutLogStreamOnce`: the next stream drops its connection after this many events. */
  cutAfter: number | undefined;
}

/** One line of a pod's log: its event's id and its data (the contract's PodLogEvent). */
export interface FakeLogEvent {
  id: string;
  data: { source: string; line: string; ts: string };
}

export interface FakeAnswer {
  status: number;
  body?: unknown;
  contentType?: string;
  /** An event stream: the server writes its head, then this writes the events (and ends or holds it). */
  stream?: (res: http.ServerResponse) => void;
}

/** The catalog the fake sells: ids are real GPU type names, prices and stock this project's own. */
export const FAKE_GPU_TYPES = [
  { id: "NVIDIA GeForce RTX 4090", name: "RTX 4090", pool: "ADA_24", manufacturer: "NVIDIA", memory: 24, secure: true, community: true, price: { secure: 0.72, community: 0.4, serverless: 1.2 }, maxCount: { secure: 8, community: 4 }, availability: "HIGH" },
  { id: "NVIDIA A40", name: "A40", pool: "AMPERE_48", manufacturer: "NVIDIA", memory: 48, secure: true, community: true, price: { secure: 0.5, community: 0.45 }, maxCount: { secure: 8, community: 2 }, availability: "LOW" },
  { id: "NVIDIA H100 80GB HBM3", name: "H100 SXM", pool: "HOPPER_141", manufacturer: "NVIDIA", memory: 80, secure: true, community: false, price: { secure: 3.1, community: 0 }, maxCount: { secure: 8, community: 0 }, availability: "NONE" },
] as const;

const DATA_CENTER = { id: "EU-SE-1", name: "Europe, Sweden 1" };

export class FakePods {
  readonly pods = new Map<string, FakePod>();
  readonly #provisioningMs: number;
  readonly #startingMs: number;
  readonly #now: () => number;
  #nextId = 1;
  #nextLogSeq = 1;
  #openLogStreams = 0;
  #whenNoLogStream: Array<() => void> = [];
  /** Every log stream request: the pod, and the `Last-Event-ID` it resumed after. */
  readonly logRequests: Array<{ pod: string; lastEventId: string | undefined; query: string }> = [];

  constructor(now: () => number, options: FakePodsOptions = {}) {
    this.#now = now;
    this.#provisioningMs = options.provisioningMs ?? 20_000;
    this.#startingMs = options.startingMs ?? 10_000;
  }

  /** The answer to a management request, or undefined when it is not one of these routes. */
  handle(method: string, path: string, query: URLSearchParams, text: string, headers: http.IncomingHttpHeaders = {}): FakeAnswer | undefined {
    if (path === "/v2/pods" && method === "GET") return { status: 200, body: { pods: [...this.pods.values()].map((pod) => this.view(pod)) } };
    if (path === "/v2/pods" && method === "POST") return this.#create(JSON.parse(text || "{}"));
    const logsMatch = /^\/v2\/pods\/([^/]+)\/logs$/.exec(path);
    if (logsMatch && method === "GET") return this.#logs(decodeURIComponent(logsMatch[1]!), query, headers);
    const podMatch = /^\/v2\/pods\/([^/]+)(\/action)?$/.exec(path);
    if (podMatch) {
      const pod = this.pods.get(decodeURIComponent(podMatch[1]!));
      if (pod === undefined) return problem(404, "Not Found", "no pod with this id");
      if (podMatch[2] === undefined && method === "GET") return { status: 200, body: this.view(pod) };
      if (podMatch[2] !== undefined && method === "POST") return this.#act(pod, (JSON.parse(text || "{}") as { action?: unknown }).action);
      return undefined;
    }
    if (path === "/v2/catalog/gpus" && method === "GET") return { status: 200, body: { gpus: FAKE_GPU_TYPES.map((type) => gpuView(type, query)) } };
    const gpuMatch = /^\/v2\/catalog\/gpus\/([^/]+)$/.exec(path);
    if (gpuMatch && method === "GET") {
      const type = FAKE_GPU_TYPES.find((candidate) => candidate.id === decodeURIComponent(gpuMatch[1]!));
      return type === undefined ? problem(404, "Not Found", "no GPU type with this id") : { status: 200, body: gpuView(type, query) };
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

  /** When the current boot reached RUNNING (or will). */
  #runningSince(pod: FakePod): number {
    return pod.bootAt! + (pod.fromStarting ? 0 : this.#provisioningMs) + this.#startingMs;
  }

  /** The pod as the service answers it (the contract's Pod). */
  view(pod: FakePod): Record<string, unknown> {
    const status = this.status(pod);
    const running = status === "RUNNING";
    const placed = status !== "PROVISIONING";
    const ports = (Array.isArray(pod.body["ports"]) ? pod.body["ports"] : []) as string[];
    const gpu = pod.body["gpu"] as { id: string; count?: number } | undefined;
    const cloud = typeof pod.body["cloud"] === "string" ? pod.body["cloud"] : "SECURE";
    const price = FAKE_GPU_TYPES.find((type) => type.id === gpu?.id)?.price;
    const rate = price === undefined ? 0.1 : (cloud === "COMMUNITY" ? price.community : price.secure) * (gpu?.count ?? 1);
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
      registry: null,
      status,
      actions: status === "RUNNING" ? ["stop", "restart", "terminate"] : status === "EXITED" || status === "ERROR" ? ["start", "terminate"] : ["stop", "terminate"],
      mounts: {},
      ...(gpu ? { gpu: { id: gpu.id, count: gpu.count ?? 1 } } : {}),
      ...(pod.body["cpu"] ? { cpu: pod.body["cpu"] } : {}),
      cloud,
      dataCenterId: placed ? DATA_CENTER.id : null,
      cudaVersion: placed && gpu ? "12.8" : null,
      ssh: { proxy: placed ? proxy : null, direct: running && direct ? { host: direct.ip, port: direct.public, username: "root", command: `ssh root@${direct.ip} -p ${direct.public}` } : null },
      template: null,
      cost: status === "EXITED" ? 0 : Math.round(rate * 1e6) / 1e6,
      locked: false,
      globalNetworking: { enabled: false },
      runtime: running ? { uptime: Math.floor((this.#now() - this.#runningSince(pod)) / 1000), ports: tcp } : {},
      createdAt: iso(pod.createdAt),
      startedAt: running ? iso(this.#runningSince(pod)) : null,
    };
  }

  #create(body: Record<string, unknown>): FakeAnswer {
    if (typeof body["name"] !== "string" || (body["gpu"] === undefined) === (body["cpu"] === undefined)) {
      return problem(400, "Bad Request", "a pod needs a name and exactly one of gpu and cpu");
    }
    const gpu = body["gpu"] as { id?: unknown } | undefined;
    if (gpu !== undefined && !FAKE_GPU_TYPES.some((type) => type.id === gpu.id)) return problem(400, "Bad Request", "no GPU type with this id");
    const now = this.#now();
    const pod: FakePod = { id: `pod${String(this.#nextId++).padStart(6, "0")}`, body, createdAt: now, bootAt: now, fromStarting: false, stopped: false, log: [], followers: new Set(), cutAfter: undefined };
    this.pods.set(pod.id, pod);
    this.appendLog(pod.id, `pod ${pod.id} created`, "system");
    return { status: 201, body: this.view(pod) };
  }

  /** Writes a line to the pod's log (at the clock's now), sent at once to every open stream that keeps its source. */
  appendLog(id: string, line: string, source = "container"): FakeLogEvent {
    const pod = this.pods.get(id);
    if (pod === undefined) throw new Error(`no pod ${id}`);
    const ts = iso(this.#now());
    const event = { id: `${ts}/${String(this.#nextLogSeq++).padStart(12, "0")}`, data: { source, line, ts } };
    pod.log.push(event);
    for (const send of pod.followers) send(event);
    return event;
  }

  /** The pod's next log stream drops its connection (no clean end) after sending `events` events. */
  cutLogStreamOnce(id: string, events: number): void {
    this.pods.get(id)!.cutAfter = events;
  }

  /** Resolves once no log stream is open (each closed by its client or the cut). */
  logStreamsClosed(): Promise<void> {
    return this.#openLogStreams === 0 ? Promise.resolve() : new Promise((resolve) => this.#whenNoLogStream.push(resolve));
  }

  get openLogStreams(): number {
    return this.#openLogStreams;
  }

  #logs(id: string, query: URLSearchParams, headers: http.IncomingHttpHeaders): FakeAnswer {
    const pod = this.pods.get(id);
    if (pod === undefined) return problem(404, "Not Found", "no pod with this id");
    const lastEventId = typeof headers["last-event-id"] === "string" ? headers["last-event-id"] : undefined;
    this.logRequests.push({ pod: id, lastEventId, query: query.toString() });
    const tailText = query.get("tail");
    const tail = tailText === null ? 100 : Number(tailText);
    if (!Number.isInteger(tail) || tail < 0 || tail > 5000 || tailText === "") return problem(400, "Bad Request", "tail must be a whole number from 0 to 5000");
    const since = query.get("since");
    if (since !== null && Number.isNaN(Date.parse(since))) return problem(400, "Bad Request", "since must be an RFC 3339 instant");
    const source = query.get("source");
    const kept = (event: FakeLogEvent) => source === null || event.data.source === source;
    const lines = pod.log.filter(kept);
    // Ids are in the order written: resuming sends what follows the one given.
    const after = lastEventId === undefined ? undefined : seqOf(lastEventId);
    const backlog =
      after !== undefined ? lines.filter((event) => seqOf(event.id) > after) : since !== null ? lines.filter((event) => Date.parse(event.data.ts) >= Date.parse(since)) : tail === 0 ? [] : lines.slice(-tail);
    const cutAfter = pod.cutAfter;
    pod.cutAfter = undefined;
    return {
      status: 200,
      stream: (res) => {
        let sent = 0;
        let cut = false;
        const send = (event: FakeLogEvent) => {
          if (cut) return;
          sent += 1;
          const last = cutAfter !== undefined && sent >= cutAfter;
          // A cut drops the connection once the event is out, with no end of the chunked body: the client sees a broken stream.
          res.write(`id: ${event.id}\ndata: ${JSON.stringify(event.data)}\n\n`, last ? () => res.destroy() : undefined);
          if (last) cut = true;
        };
        const follower = (event: FakeLogEvent) => kept(event) && send(event);
        this.#openLogStreams += 1;
        pod.followers.add(follower);
        res.on("close", () => {
          pod.followers.delete(follower);
          this.#openLogStreams -= 1;
          if (this.#openLogStreams === 0) for (const resolve of this.#whenNoLogStream.splice(0)) resolve();
        });
        res.flushHeaders();
        for (const event of backlog) send(event);
      },
    };
  }

  #act(pod: FakePod, action: unknown): FakeAnswer {
    const status = this.status(pod);
    const refuse = () => problem(409, "Conflict", `pod ${pod.id} is ${status} and cannot take ${String(action)}`);
    switch (action) {
      case "start":
        if (status !== "EXITED" && status !== "ERROR") return refuse();
        Object.assign(pod, { bootAt: this.#now(), fromStarting: false, stopped: false });
        return { status: 200, body: this.view(pod) };
      case "stop":
        if (status !== "RUNNING" && status !== "PROVISIONING" && status !== "STARTING") return refuse();
        Object.assign(pod, { bootAt: undefined, stopped: true });
        return { status: 200, body: this.view(pod) };
      case "restart":
        if (status !== "RUNNING") return refuse();
        Object.assign(pod, { bootAt: this.#now(), fromStarting: true });
        return { status: 200, body: this.view(pod) };
      case "terminate":
        this.pods.delete(pod.id);
        return { status: 204 };
      default:
        return problem(400, "Bad Request", "action must be one of start, stop, restart, terminate");
    }
  }
}

function gpuView(type: (typeof FAKE_GPU_TYPES)[number], query: URLSearchParams): Record<string, unknown> {
  const { availability, ...prices } = type;
  if (query.get("include") !== "AVAILABILITY" || !query.get("product")) return { ...prices };
  return { ...prices, availability, ...(availability === "NONE" ? {} : { dataCenters: [{ ...DATA_CENTER, availability }] }) };
}

function seqOf(id: string): number {
  return Number(id.slice(id.lastIndexOf("/") + 1));
}

function iso(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
}

function problem(status: number, title: string, detail: string): FakeAnswer {
  return { status, body: { title, status, detail }, contentType: "application/problem+json" };
}
