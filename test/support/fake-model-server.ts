/**
 * A stateful fake of the public model endpoints: a real HTTP server on loopback.
 *
 * - Jobs move IN_QUEUE → IN_PROGRESS → COMPLETED (or FAILED), one step per status poll after
 *   `queuedPolls` and `runningPolls` polls, so tests control progress without clocks.
 * - `runsync` finishes jobs shorter than `syncLimitPolls` steps and otherwise gives up early,
 *   returning the unfinished job (`sync-` id) to be polled.
 * - Per-user rate limits over three windows with `RateLimit`/`RateLimit-Policy` headers that count
 *   down; over quota → 429 with `Retry-After` and a problem naming the window. With `quotas: []`
 *   no such header is sent.
 * - Optionally, the reference's limits per endpoint and operation (`endpointLimits`): requests per
 *   window (windows aligned on the clock, as a server counts them) and in flight at once; over
 *   them → 429 with `Retry-After` and no rate-limit header. `peakInFlight` records the most seen;
 *   `holdUntilInFlight` holds answers until a client has that many in flight, so that the most it
 *   keeps at once is seen whatever the machine's speed.
 * - Cost from the contract's pricing (`x-model-endpoints`), defaults applied.
 * - Counters of submissions per input and of 429s, to prove nothing is submitted twice.
 * - The job operations of the service's reference: cancel (the job ends CANCELLED), retry (a
 *   FAILED or TIMED_OUT job is queued again under its id), stream (a chunk per call while the job
 *   runs; each call advances it like a poll), purge-queue (removes queued jobs), health (counts);
 *   a finished job's results are kept `retentionMs` (30 min after run, 1 min after runsync, as the
 *   reference says), then every job operation answers 404.
 * - The management API's pods and GPU catalog (`fake-pods.ts`): pods that move from PROVISIONING
 *   through STARTING to RUNNING on the server's clock, their actions, the catalog's prices, and
 *   each pod's log stream (Server-Sent Events that resume after `Last-Event-ID`).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { loadContractDocument } from "./contract.ts";
import { FakePods, type FakePodsOptions } from "./fake-pods.ts";

export interface FakeJobPlan {
  queuedPolls: number;
  runningPolls: number;
  outcome: "COMPLETED" | "FAILED" | "CANCELLED" | "TIMED_OUT";
}

export interface FakeOptions {
  /** Requests allowed per window; windows reset `seconds` after the first request in them. */
  quotas?: Array<{ name: string; quota: number; seconds: number }>;
  /** How each submitted job will progress; default 1 poll queued, 1 running, then COMPLETED. */
  plan?(input: Record<string, unknown>, model: string): FakeJobPlan;
  /** What a finished job reports in `output.cost`; default the contract's pricing (fakeCost). */
  cost?(input: Record<string, unknown>, model: string): number;
  /** The plan of a job queued again by retry (its `retries` counted after this one); default one queued and one running poll, then COMPLETED. */
  retryPlan?(retries: number): FakeJobPlan;
  /** runsync gives up on jobs whose plan is longer than this many steps. */
  syncLimitPolls?: number;
  /** Milliseconds the server takes per request (to make concurrency observable). */
  latencyMs?: number;
  now?(): number;
  /** Called while runsync holds a request (a simulated clock can advance here). */
  onSyncHold?(): void;
  /** How long a finished job's results are kept, by how it was submitted. */
  retentionMs?: { run: number; runsync: number };
  /** Limits per operation (the path's segment after the model: run, status, cancel...), counted per model. */
  endpointLimits?: Record<string, { requests: number; windowSeconds: number; concurrent?: number }>;
  /**
   * Per operation of `endpointLimits`: its answers after the first (a client learns the limits from
   * a first answer before it sends more) are held until this many of its requests are in flight at
   * once; then every held answer goes, and none is held again. A client that keeps fewer in flight
   * waits for ever.
   */
  holdUntilInFlight?: Record<string, number>;
  /** Where a finished job's output files are, default https://files.fake.test; given, the URLs are presigned (`?X-Amz-Signature=…`) like the service's. */
  fileBaseUrl?: string;
  /** How long a pod provisions and starts (on `now`). */
  pods?: FakePodsOptions;
}

interface FakeJob {
  id: string;
  model: string;
  input: Record<string, unknown>;
  plan: FakeJobPlan;
  polls: number;
  /** When a poll first found it finished (its results are kept from then). */
  endedAt?: number;
  cancelled?: boolean;
  retries: number;
  /** Chunks the stream operation has handed out. */
  chunks: number;
}

const document = loadContractDocument();
const models: Record<string, any> = document["x-model-endpoints"];
const schemas: Record<string, any> = document.components.schemas;

function withDefaults(model: string, input: Record<string, unknown>): Record<string, unknown> {
  const ref: string | undefined = models[model]?.input?.$ref;
  const schema = ref ? schemas[ref.split("/").pop()!] : undefined;
  const complete = { ...input };
  for (const [name, property] of Object.entries<any>(schema?.properties ?? {})) {
    if (complete[name] === undefined && property.default !== undefined) complete[name] = property.default;
  }
  return complete;
}

export function fakeCost(model: string, input: Record<string, unknown>): number {
  const pricing = models[model]?.pricing;
  if (!pricing) return 0.025;
  const complete = withDefaults(model, input);
  // The contract's pricing as written: one pointer or several (multiplied), over unitsPer, at a fixed rate or one rateFrom picks.
  const pointers: string[] = Array.isArray(pricing.unitsFrom) ? pricing.unitsFrom : [pricing.unitsFrom];
  const units = pointers.reduce((product, at) => product * Number(complete[at.slice(1)]), 1) / (pricing.unitsPer ?? 1);
  const rate = pricing.rate ?? pricing.rates[String(complete[pricing.rateFrom.slice(1)])];
  return Math.round(rate * units * 1e6) / 1e6;
}

/** The path, and its model and operation (the segment after the model: run, status, cancel...). */
function routeOf(req: http.IncomingMessage): { pathname: string; model: string | undefined; operation: string | undefined } {
  const { pathname } = new URL(req.url!, "http://x");
  const [, model, operation] = /^\/v2\/([a-z0-9-]+)\/([a-z-]+)/.exec(pathname) ?? [];
  return { pathname, model, operation };
}

export class FakeModelServer {
  readonly jobs = new Map<string, FakeJob>();
  /** Submissions (run and runsync) per JSON of their input. */
  readonly submissions = new Map<string, number>();
  /** The body of every run and runsync request, as sent. */
  readonly submittedBodies: Array<Record<string, unknown>> = [];
  readonly log: Array<{ method: string; path: string; query: string; status: number }> = [];
  tooManyRequests = 0;
  /** The most requests of each operation seen in flight at once (with `endpointLimits`). */
  readonly peakInFlight = new Map<string, number>();
  baseUrl = "";
  /** The management API's pods and catalog. */
  readonly pods: FakePods;
  readonly #inFlight = new Map<string, number>();
  readonly #endpointWindows = new Map<string, { start: number; used: number }>();
  /** Per operation of `holdUntilInFlight`, once its first answer went: the answers held, or "released". */
  readonly #held = new Map<string, Array<() => void> | "released">();
  #server: http.Server;
  #options: Required<Omit<FakeOptions, "plan" | "retryPlan" | "cost" | "onSyncHold" | "endpointLimits" | "holdUntilInFlight" | "pods">> &
    Pick<FakeOptions, "plan" | "retryPlan" | "cost" | "onSyncHold" | "endpointLimits" | "holdUntilInFlight">;
  #windows: Array<{ name: string; quota: number; seconds: number; used: number; startedAt: number | undefined }>;
  #nextId = 1;

  constructor(options: FakeOptions = {}) {
    this.#options = {
      quotas: options.quotas ?? [
        { name: "minute", quota: 1000, seconds: 60 },
        { name: "hour", quota: 10000, seconds: 3600 },
        { name: "day", quota: 100000, seconds: 86400 },
      ],
      plan: options.plan,
      retryPlan: options.retryPlan,
      cost: options.cost,
      syncLimitPolls: options.syncLimitPolls ?? 2,
      latencyMs: options.latencyMs ?? 0,
      now: options.now ?? Date.now,
      onSyncHold: options.onSyncHold,
      retentionMs: options.retentionMs ?? { run: 30 * 60_000, runsync: 60_000 },
      endpointLimits: options.endpointLimits,
      holdUntilInFlight: options.holdUntilInFlight,
      fileBaseUrl: options.fileBaseUrl ?? "https://files.fake.test",
    };
    this.pods = new FakePods(() => this.#options.now(), options.pods);
    this.#windows = this.#options.quotas.map((q) => ({ ...q, used: 0, startedAt: undefined }));
    this.#server = http.createServer((req, res) => {
      let body = "";
      req.on("data", (chunk) => (body += chunk));
      req.on("end", () => {
        if (this.#overEndpointLimit(req, res)) return;
        const respond = () => this.#handle(req, res, body);
        this.#holdOrAnswer(req, () => (this.#options.latencyMs ? setTimeout(respond, this.#options.latencyMs) : respond()));
      });
    });
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.#server.listen(0, "127.0.0.1", resolve));
    this.baseUrl = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  /** How many times any input was submitted more than once. */
  duplicateSubmissions(): number {
    return [...this.submissions.values()].filter((count) => count > 1).length;
  }

  /** Answers now, or once `holdUntilInFlight` of the request's operation are in flight. */
  #holdOrAnswer(req: http.IncomingMessage, answer: () => void): void {
    const { operation } = routeOf(req);
    const until = operation === undefined ? undefined : this.#options.holdUntilInFlight?.[operation];
    const held = operation === undefined ? undefined : this.#held.get(operation);
    if (until === undefined || held === "released") return answer();
    if (held === undefined) {
      this.#held.set(operation!, []);
      return answer();
    }
    held.push(answer);
    if ((this.#inFlight.get(operation!) ?? 0) < until) return;
    this.#held.set(operation!, "released");
    for (const go of held) go();
  }

  /** Refuses (429) a request over its operation's endpoint limit; otherwise counts it, in flight until answered. */
  #overEndpointLimit(req: http.IncomingMessage, res: http.ServerResponse): boolean {
    const { pathname, model, operation } = routeOf(req);
    const limit = operation === undefined ? undefined : this.#options.endpointLimits?.[operation];
    if (limit === undefined) return false;
    const refuse = (retryAfter: number, detail: string): true => {
      this.tooManyRequests += 1;
      this.log.push({ method: req.method!, path: pathname, query: "", status: 429 });
      res.writeHead(429, { "content-type": "application/json", "Retry-After": String(retryAfter) });
      res.end(JSON.stringify({ error: detail }));
      return true;
    };
    const inFlight = (this.#inFlight.get(operation!) ?? 0) + 1;
    if (limit.concurrent !== undefined && inFlight > limit.concurrent) return refuse(1, `more than ${limit.concurrent} ${operation} requests at once`);
    const now = this.#options.now();
    const windowMs = limit.windowSeconds * 1000;
    const start = Math.floor(now / windowMs) * windowMs;
    const key = `${model}/${operation}`;
    const window = this.#endpointWindows.get(key);
    const current = window?.start === start ? window : { start, used: 0 };
    this.#endpointWindows.set(key, current);
    if (current.used >= limit.requests) return refuse(Math.max(1, Math.ceil((start + windowMs - now) / 1000)), `more than ${limit.requests} ${operation} requests in ${limit.windowSeconds} s`);
    current.used += 1;
    this.#inFlight.set(operation!, inFlight);
    this.peakInFlight.set(operation!, Math.max(this.peakInFlight.get(operation!) ?? 0, inFlight));
    res.on("close", () => this.#inFlight.set(operation!, this.#inFlight.get(operation!)! - 1));
    return false;
  }

  #rateHeaders(): Record<string, string> {
    if (this.#windows.length === 0) return {};
    const now = this.#options.now();
    const parts = this.#windows.map((w) => {
      const reset = w.startedAt === undefined ? w.seconds : Math.max(0, Math.ceil((w.startedAt + w.seconds * 1000 - now) / 1000));
      return { w, reset };
    });
    return {
      RateLimit: parts.map(({ w, reset }) => `"${w.name}";r=${Math.max(0, w.quota - w.used)};t=${reset}`).join(", "),
      "RateLimit-Policy": this.#windows.map((w) => `"${w.name}";q=${w.quota};w=${w.seconds}`).join(", "),
    };
  }

  /** Counts the request in every window; returns the exceeded window, if any. */
  #consume(): { name: string; retryAfter: number } | undefined {
    const now = this.#options.now();
    for (const w of this.#windows) {
      if (w.startedAt !== undefined && now >= w.startedAt + w.seconds * 1000) {
        w.startedAt = undefined;
        w.used = 0;
      }
    }
    const exceeded = this.#windows.find((w) => w.used >= w.quota);
    if (exceeded) {
      return { name: exceeded.name, retryAfter: Math.max(1, Math.ceil((exceeded.startedAt! + exceeded.seconds * 1000 - now) / 1000)) };
    }
    for (const w of this.#windows) {
      w.startedAt ??= now;
      w.used += 1;
    }
    return undefined;
  }

  #send(res: http.ServerResponse, status: number, body: unknown, contentType = "application/json", extra: Record<string, string> = {}): void {
    res.writeHead(status, { "content-type": contentType, ...this.#rateHeaders(), ...extra });
    res.end(JSON.stringify(body));
  }

  #jobView(job: FakeJob): Record<string, unknown> {
    const step = job.polls;
    const { queuedPolls, runningPolls } = job.plan;
    const outcome = job.cancelled ? "CANCELLED" : job.plan.outcome;
    if (job.cancelled || step >= queuedPolls + runningPolls) job.endedAt ??= this.#options.now();
    if (job.cancelled) return { id: job.id, status: "CANCELLED", delayTime: 100 * Math.min(step, queuedPolls) };
    if (step < queuedPolls) return { id: job.id, status: "IN_QUEUE" };
    if (step < queuedPolls + runningPolls) return { id: job.id, status: "IN_PROGRESS", delayTime: 100 * queuedPolls, workerId: "fake-worker" };
    const base = { id: job.id, status: outcome, delayTime: 100 * queuedPolls, executionTime: 1000 * runningPolls, workerId: "fake-worker" };
    if (outcome !== "COMPLETED") return { ...base, error: `job ended ${outcome}` };
    const kind = models[job.model]?.kind ?? "image";
    return { ...base, output: { [`${kind}_url`]: `${this.#options.fileBaseUrl}/${job.id}.${kind === "video" ? "mp4" : kind === "audio" ? "mp3" : "png"}${this.#options.fileBaseUrl === "https://files.fake.test" ? "" : "?X-Amz-Signature=fake-signature-of-" + job.id}`, cost: this.#options.cost?.(job.input, job.model) ?? fakeCost(job.model, job.input) } };
  }

  /** The job, unless there is none or its results are past their retention (then it is forgotten). */
  #keptJob(id: string): FakeJob | undefined {
    const job = this.jobs.get(id);
    if (job?.endedAt === undefined) return job;
    const kept = id.startsWith("sync-") ? this.#options.retentionMs.runsync : this.#options.retentionMs.run;
    if (this.#options.now() - job.endedAt <= kept) return job;
    this.jobs.delete(id);
    return undefined;
  }

  #handle(req: http.IncomingMessage, res: http.ServerResponse, body: string): void {
    const { pathname: path, search: query } = new URL(req.url!, "http://x");
    const record = (status: number) => this.log.push({ method: req.method!, path, query, status });
    if (!/^Bearer \S+$/.test(req.headers.authorization ?? "")) {
      record(401);
      res.writeHead(401, { "content-type": "application/problem+json" });
      res.end(JSON.stringify({ title: "Unauthorized", status: 401, detail: "missing bearer token" }));
      return;
    }
    const exceeded = this.#consume();
    if (exceeded) {
      this.tooManyRequests += 1;
      record(429);
      this.#send(res, 429, { title: "Too Many Requests", status: 429, detail: `rate limit exceeded for the ${exceeded.name} window` }, "application/problem+json", {
        "Retry-After": String(exceeded.retryAfter),
      });
      return;
    }
    const submitMatch = /^\/v2\/([a-z0-9-]+)\/(run|runsync)$/.exec(path);
    if (req.method === "POST" && submitMatch) {
      const [, model, mode] = submitMatch as unknown as [string, string, "run" | "runsync"];
      const sent = JSON.parse(body || "{}") as Record<string, unknown>;
      this.submittedBodies.push(sent);
      const input = (sent.input ?? {}) as Record<string, unknown>;
      const key = JSON.stringify([model, input]);
      this.submissions.set(key, (this.submissions.get(key) ?? 0) + 1);
      const plan = this.#options.plan?.(input, model) ?? { queuedPolls: 1, runningPolls: 1, outcome: "COMPLETED" as const };
      const id = `${mode === "runsync" ? "sync-" : ""}job-${this.#nextId++}`;
      const job: FakeJob = { id, model, input, plan, polls: 0, retries: 0, chunks: 0 };
      this.jobs.set(id, job);
      if (typeof input.image === "string" && input.image.includes("invalid")) {
        job.plan = { queuedPolls: 0, runningPolls: 0, outcome: "FAILED" };
        record(400);
        this.#send(res, 400, { id, status: "FAILED", delayTime: 5, executionTime: 10, error: `invalid image URL: ${input.image}` });
        return;
      }
      if (mode === "runsync") {
        const steps = plan.queuedPolls + plan.runningPolls;
        this.#options.onSyncHold?.();
        job.polls = Math.min(steps, this.#options.syncLimitPolls);
        record(200);
        this.#send(res, 200, this.#jobView(job));
        return;
      }
      record(200);
      this.#send(res, 200, { id, status: "IN_QUEUE" });
      return;
    }
    const jobMatch = /^\/v2\/([a-z0-9-]+)\/(status|cancel|retry|stream)\/([^/]+)$/.exec(path);
    const jobMethod = { status: "GET", stream: "GET", cancel: "POST", retry: "POST" } as const;
    if (jobMatch && req.method === jobMethod[jobMatch[2] as keyof typeof jobMethod]) {
      const operation = jobMatch[2]!;
      const job = this.#keptJob(decodeURIComponent(jobMatch[3]!));
      if (!job) {
        record(404);
        this.#send(res, 404, { error: "job not found or its results are no longer kept" });
        return;
      }
      if (operation === "cancel") {
        // A job whose plan has already run out is finished, polled or not: it stays as it ended.
        this.#jobView(job);
        if (job.endedAt === undefined) job.cancelled = true;
        record(200);
        this.#send(res, 200, { id: job.id, status: this.#jobView(job)["status"] });
        return;
      }
      if (operation === "retry") {
        const status = this.#jobView(job)["status"];
        if (status !== "FAILED" && status !== "TIMED_OUT") {
          record(400);
          this.#send(res, 400, { error: `only a FAILED or TIMED_OUT job can be retried; this one is ${String(status)}` });
          return;
        }
        job.plan = this.#options.retryPlan?.(job.retries + 1) ?? { queuedPolls: 1, runningPolls: 1, outcome: "COMPLETED" };
        Object.assign(job, { polls: 0, endedAt: undefined, retries: job.retries + 1, chunks: 0 });
        record(200);
        this.#send(res, 200, { id: job.id, status: "IN_QUEUE" });
        return;
      }
      const view = this.#jobView(job);
      job.polls += 1;
      record(200);
      if (operation === "status") this.#send(res, 200, view);
      else {
        // One chunk per call while the job runs: what it produced since the last call.
        const running = view["status"] === "IN_PROGRESS";
        const stream = running ? [{ output: { chunk: ++job.chunks }, metrics: { step: job.polls } }] : [];
        this.#send(res, 200, { status: view["status"], stream });
      }
      return;
    }
    const endpointMatch = /^\/v2\/([a-z0-9-]+)\/(purge-queue|health)$/.exec(path);
    if (endpointMatch && req.method === (endpointMatch[2] === "health" ? "GET" : "POST")) {
      const mine = [...this.jobs.values()].filter((job) => job.model === endpointMatch[1] && this.#keptJob(job.id));
      const statusOf = (job: FakeJob) => String(this.#jobView(job)["status"]);
      record(200);
      if (endpointMatch[2] === "purge-queue") {
        const queued = mine.filter((job) => statusOf(job) === "IN_QUEUE");
        for (const job of queued) this.jobs.delete(job.id);
        this.#send(res, 200, { removed: queued.length, status: "completed" });
        return;
      }
      const count = (status: string) => mine.filter((job) => statusOf(job) === status).length;
      this.#send(res, 200, {
        jobs: { completed: count("COMPLETED"), failed: count("FAILED"), inProgress: count("IN_PROGRESS"), inQueue: count("IN_QUEUE"), retried: mine.reduce((n, job) => n + job.retries, 0) },
        workers: { idle: 1, initializing: 0, ready: 1, running: count("IN_PROGRESS"), throttled: 0 },
      });
      return;
    }
    const management = this.pods.handle(req.method!, path, new URLSearchParams(query), body, req.headers);
    if (management !== undefined) {
      record(management.status);
      if (management.stream !== undefined) {
        res.writeHead(management.status, { "content-type": "text/event-stream", "cache-control": "no-cache", ...this.#rateHeaders() });
        management.stream(res);
      } else if (management.body === undefined) {
        res.writeHead(management.status, this.#rateHeaders());
        res.end();
      } else this.#send(res, management.status, management.body, management.contentType);
      return;
    }
    record(404);
    this.#send(res, 404, { title: "Not Found", status: 404, detail: "no such route" }, "application/problem+json");
  }
}
