/**
 * The model endpoints' jobs. A job moves IN_QUEUE → IN_PROGRESS → its outcome one step per status
 * poll (its plan's `queuedPolls`, then `runningPolls`), so a test sets its progress without clocks;
 * on the fake's clock a running job past its `policy.executionTimeout` ends TIMED_OUT, a job past
 * its `policy.ttl` is gone, and a finished job's results are kept `retentionMs` (then every job
 * operation answers 404). A finished job's file URL answers until it expires (7 days, or the
 * contract's `urlLifetimeSeconds`).
 */
import { estimateCost } from "../../model-endpoints/cost.js";
import type { ModelCatalog } from "../../model-endpoints/types.js";
import { isRecord, json } from "./answers.js";

export interface FakeJobPlan {
  queuedPolls: number;
  runningPolls: number;
  outcome: "COMPLETED" | "FAILED" | "CANCELLED" | "TIMED_OUT";
  /** The error a FAILED or TIMED_OUT job reports; default `job ended <outcome>`. */
  error?: string | undefined;
}

export interface FakeJobsOptions {
  catalog?: ModelCatalog | undefined;
  plan?: ((input: Record<string, unknown>, model: string) => FakeJobPlan) | undefined;
  retryPlan?: ((retries: number) => FakeJobPlan) | undefined;
  cost?: ((input: Record<string, unknown>, model: string) => number) | undefined;
  syncLimitPolls?: number | undefined;
  retentionMs?: { run: number; runsync: number } | undefined;
  fileBaseUrl?: string | undefined;
  onSyncHold?: (() => void) | undefined;
}

export interface FakeJob {
  id: string;
  model: string;
  input: Record<string, unknown>;
  plan: FakeJobPlan;
  polls: number;
  submittedAt: number;
  executionTimeoutMs: number;
  ttlMs: number;
  /** When a poll first found it running. */
  runningAt?: number | undefined;
  /** When it was first found finished (its results are kept from then). */
  endedAt?: number | undefined;
  timedOut?: boolean | undefined;
  cancelled?: boolean | undefined;
  retries: number;
  /** Chunks the stream operation has handed out. */
  chunks: number;
}

const DEFAULT_FILES = "https://files.fake.test";
const SEVEN_DAYS_S = 7 * 86400;

export class FakeJobs {
  readonly jobs = new Map<string, FakeJob>();
  /** Submissions (run and runsync) per JSON of their model and input. */
  readonly submissions = new Map<string, number>();
  /** The body of every run and runsync request, as sent. */
  readonly submittedBodies: Array<Record<string, unknown>> = [];
  /** Each generated file's URL (without its query) and when it expires. */
  readonly #files = new Map<string, number>();
  readonly #failNext: FakeJobPlan[] = [];
  readonly #options: FakeJobsOptions;
  readonly #now: () => number;
  #nextId = 1;

  constructor(now: () => number, options: FakeJobsOptions = {}) {
    this.#now = now;
    this.#options = options;
  }

  /** The next job submitted follows `plan` (default: fails at once with `error`), whatever the plan option says. */
  failNextJob(plan: Partial<FakeJobPlan> = {}): void {
    this.#failNext.push({ queuedPolls: 0, runningPolls: 0, outcome: "FAILED", ...plan });
  }

  /** How many inputs were submitted more than once. */
  duplicateSubmissions(): number {
    return [...this.submissions.values()].filter((count) => count > 1).length;
  }

  /** The answer of a model endpoint request, or undefined when it is not one. */
  handle(method: string, path: string, body: unknown): Response | undefined {
    const submit = /^\/v2\/([a-z0-9-]+)\/(run|runsync)$/.exec(path);
    if (method === "POST" && submit) return this.#submit(submit[1]!, submit[2] === "runsync", isRecord(body) ? body : {});
    const byJob = /^\/v2\/([a-z0-9-]+)\/(status|cancel|retry|stream)\/([^/]+)$/.exec(path);
    const methods: Record<string, string> = { status: "GET", stream: "GET", cancel: "POST", retry: "POST" };
    if (byJob && method === methods[byJob[2]!]) return this.#onJob(byJob[2]!, decodeURIComponent(byJob[3]!));
    const byEndpoint = /^\/v2\/([a-z0-9-]+)\/(purge-queue|health)$/.exec(path);
    if (byEndpoint && method === (byEndpoint[2] === "health" ? "GET" : "POST")) return this.#onEndpoint(byEndpoint[1]!, byEndpoint[2]!);
    return undefined;
  }

  /** A generated file, while its URL lasts (then 403, as an expired presigned URL answers). */
  file(url: string): Response | undefined {
    const expiresAt = this.#files.get(url.split("?")[0]!);
    if (expiresAt === undefined) return undefined;
    if (this.#now() > expiresAt) return new Response("Request has expired", { status: 403, headers: { "content-type": "text/plain" } });
    return new Response(new TextEncoder().encode(`fake file ${url}`), { status: 200, headers: { "content-type": "application/octet-stream" } });
  }

  #submit(model: string, sync: boolean, sent: Record<string, unknown>): Response {
    this.submittedBodies.push(sent);
    const input = isRecord(sent["input"]) ? sent["input"] : {};
    const key = JSON.stringify([model, input]);
    this.submissions.set(key, (this.submissions.get(key) ?? 0) + 1);
    const plan = this.#failNext.shift() ?? this.#options.plan?.(input, model) ?? { queuedPolls: 1, runningPolls: 1, outcome: "COMPLETED" };
    const policy = isRecord(sent["policy"]) ? sent["policy"] : {};
    const id = `${sync ? "sync-" : ""}job-${this.#nextId++}`;
    const job: FakeJob = {
      id,
      model,
      input,
      plan,
      polls: 0,
      submittedAt: this.#now(),
      executionTimeoutMs: typeof policy["executionTimeout"] === "number" ? policy["executionTimeout"] : 600_000,
      ttlMs: typeof policy["ttl"] === "number" ? policy["ttl"] : 86_400_000,
      retries: 0,
      chunks: 0,
    };
    this.jobs.set(id, job);
    if (typeof input["image"] === "string" && input["image"].includes("invalid")) {
      job.plan = { queuedPolls: 0, runningPolls: 0, outcome: "FAILED" };
      job.endedAt = this.#now();
      return json(400, { id, status: "FAILED", delayTime: 5, executionTime: 10, error: `invalid image URL: ${input["image"]}` });
    }
    if (!sync) return json(200, { id, status: "IN_QUEUE" });
    this.#options.onSyncHold?.();
    job.polls = Math.min(plan.queuedPolls + plan.runningPolls, this.#options.syncLimitPolls ?? 2);
    return json(200, this.view(job));
  }

  #onJob(operation: string, id: string): Response {
    const job = this.#kept(id);
    if (job === undefined) return json(404, { error: "job not found or its results are no longer kept" });
    if (operation === "cancel") {
      // A job whose plan has run out is finished, polled or not: it stays as it ended.
      this.view(job);
      if (job.endedAt === undefined) job.cancelled = true;
      return json(200, { id: job.id, status: this.view(job)["status"] });
    }
    if (operation === "retry") {
      const status = this.view(job)["status"];
      if (status !== "FAILED" && status !== "TIMED_OUT") return json(400, { error: `only a FAILED or TIMED_OUT job can be retried; this one is ${String(status)}` });
      job.plan = this.#options.retryPlan?.(job.retries + 1) ?? { queuedPolls: 1, runningPolls: 1, outcome: "COMPLETED" };
      Object.assign(job, { polls: 0, runningAt: undefined, endedAt: undefined, timedOut: undefined, retries: job.retries + 1, chunks: 0 });
      return json(200, { id: job.id, status: "IN_QUEUE" });
    }
    const view = this.view(job);
    job.polls += 1;
    if (operation === "status") return json(200, view);
    // One chunk per call while the job runs: what it produced since the last call.
    const running = view["status"] === "IN_PROGRESS";
    return json(200, { status: view["status"], stream: running ? [{ output: { chunk: ++job.chunks }, metrics: { step: job.polls } }] : [] });
  }

  #onEndpoint(model: string, operation: string): Response {
    const mine = [...this.jobs.values()].filter((job) => job.model === model && this.#kept(job.id));
    const statusOf = (job: FakeJob) => String(this.view(job)["status"]);
    if (operation === "purge-queue") {
      const queued = mine.filter((job) => statusOf(job) === "IN_QUEUE");
      for (const job of queued) this.jobs.delete(job.id);
      return json(200, { removed: queued.length, status: "completed" });
    }
    const count = (status: string) => mine.filter((job) => statusOf(job) === status).length;
    return json(200, {
      jobs: { completed: count("COMPLETED"), failed: count("FAILED"), inProgress: count("IN_PROGRESS"), inQueue: count("IN_QUEUE"), retried: mine.reduce((n, job) => n + job.retries, 0) },
      workers: { idle: 1, initializing: 0, ready: 1, running: count("IN_PROGRESS"), throttled: 0 },
    });
  }

  /** The job as the status operation answers it now (the contract's Job). */
  view(job: FakeJob): Record<string, unknown> {
    const now = this.#now();
    const step = job.polls;
    const { queuedPolls, runningPolls } = job.plan;
    if (!job.cancelled && !job.timedOut && step >= queuedPolls && step < queuedPolls + runningPolls) {
      job.runningAt ??= now;
      if (now - job.runningAt > job.executionTimeoutMs) job.timedOut = true;
    }
    const finished = job.cancelled || job.timedOut || step >= queuedPolls + runningPolls;
    if (finished) job.endedAt ??= now;
    if (job.cancelled) return { id: job.id, status: "CANCELLED", delayTime: 100 * Math.min(step, queuedPolls) };
    if (step < queuedPolls) return { id: job.id, status: "IN_QUEUE" };
    if (!finished) return { id: job.id, status: "IN_PROGRESS", delayTime: 100 * queuedPolls, workerId: "fake-worker" };
    const outcome = job.timedOut ? "TIMED_OUT" : job.plan.outcome;
    const base = { id: job.id, status: outcome, delayTime: 100 * queuedPolls, executionTime: 1000 * runningPolls, workerId: "fake-worker" };
    if (outcome !== "COMPLETED") return { ...base, error: job.plan.error ?? `job ended ${outcome}` };
    return { ...base, output: this.#output(job) };
  }

  #output(job: FakeJob): Record<string, unknown> {
    const endpoint = this.#options.catalog?.endpoints[job.model];
    const kind = endpoint?.kind ?? "image";
    const field = endpoint?.urlField ?? `${kind}_url`;
    const base = this.#options.fileBaseUrl ?? DEFAULT_FILES;
    const url = `${base}/${job.id}.${kind === "video" ? "mp4" : kind === "audio" ? "mp3" : "png"}`;
    this.#files.set(url, job.endedAt! + (endpoint?.urlLifetimeSeconds ?? SEVEN_DAYS_S) * 1000);
    // A base of the test's own gets presigned URLs like the service's.
    const signed = base === DEFAULT_FILES ? url : `${url}?X-Amz-Signature=fake-signature-of-${job.id}`;
    const cost = this.#options.cost?.(job.input, job.model) ?? (this.#options.catalog ? estimateCost(this.#options.catalog, job.model, job.input) : undefined) ?? 0.025;
    return { [field]: signed, cost };
  }

  /** The job, unless there is none, its ttl has passed or its results are past their retention (then it is forgotten). */
  #kept(id: string): FakeJob | undefined {
    const job = this.jobs.get(id);
    if (job === undefined) return undefined;
    const now = this.#now();
    const retention = this.#options.retentionMs ?? { run: 30 * 60_000, runsync: 60_000 };
    const kept = id.startsWith("sync-") ? retention.runsync : retention.run;
    if (now - job.submittedAt <= job.ttlMs && (job.endedAt === undefined || now - job.endedAt <= kept)) return job;
    this.jobs.delete(id);
    return undefined;
  }
}
