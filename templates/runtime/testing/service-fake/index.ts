/**
 * A stateful fake of the service, in process: `handler(request)` answers a web-standard `Request`
 * as the service would (pods, catalog, logs, registry credentials, templates, model endpoint
 * jobs), and `fetch` is the same as a fetch function to give the client. It needs no network, no
 * server and nothing beyond the platform (it runs in browsers, Deno, Bun, Node); its clock is
 * `now`, so a test moves time by changing what `now` returns.
 */
import type { ModelCatalog } from "../../model-endpoints/types.js";
import { json, jsonBody, problem } from "./answers.js";
import { EndpointLimits, type EndpointLimit } from "./endpoint-limits.js";
import { FakeJobs, type FakeJobPlan } from "./jobs.js";
import type { FakeLogEvent } from "./pod-logs.js";
import { FakePods, type FakePodsOptions } from "./pods.js";
import { DEFAULT_QUOTAS, Quotas, type Quota } from "./quotas.js";
import { Registries } from "./registries.js";

export type { FakeJob, FakeJobPlan } from "./jobs.js";
export type { FakeLogEvent } from "./pod-logs.js";
export type { FakePod, FakePodsOptions } from "./pods.js";
export type { EndpointLimit } from "./endpoint-limits.js";
export type { Quota } from "./quotas.js";
export { FAKE_GPU_TYPES } from "./pods.js";
export { FakeJobs } from "./jobs.js";
export { FakePods } from "./pods.js";
export { Registries } from "./registries.js";

export interface ServiceFakeOptions {
  /** The clock, in milliseconds since the epoch; default `Date.now`. */
  now?: (() => number) | undefined;
  /** Each user's (bearer token's) request windows; default a minute, an hour and a day. `[]`: no rate-limit headers. */
  quotas?: readonly Quota[] | undefined;
  /** How each submitted job progresses; default one poll queued, one running, then COMPLETED. */
  plan?: ((input: Record<string, unknown>, model: string) => FakeJobPlan) | undefined;
  /** The plan of a job queued again by retry (`retries` counts this one); default as `plan`'s default. */
  retryPlan?: ((retries: number) => FakeJobPlan) | undefined;
  /** What a finished job reports in `output.cost`; default the contract's pricing. */
  cost?: ((input: Record<string, unknown>, model: string) => number) | undefined;
  /** runsync gives up on jobs whose plan is longer than this many steps (default 2). */
  syncLimitPolls?: number | undefined;
  /** Called while runsync holds a request (a test's clock can move here). */
  onSyncHold?: (() => void) | undefined;
  /** How long a finished job's results are kept; default 30 minutes after run, 1 after runsync. */
  retentionMs?: { run: number; runsync: number } | undefined;
  /** Where a finished job's files are (default https://files.fake.test, answered by the fake itself); given, the URLs are presigned like the service's. */
  fileBaseUrl?: string | undefined;
  /** How long a pod provisions and starts. */
  pods?: FakePodsOptions | undefined;
  /** Limits of the model endpoints per operation (run, status, cancel…), counted per model. */
  endpointLimits?: Readonly<Record<string, EndpointLimit>> | undefined;
  /** Per operation of `endpointLimits`: answers after its first are held until this many of its requests are in flight. */
  holdUntilInFlight?: Readonly<Record<string, number>> | undefined;
  /** Milliseconds every answer takes (real time: makes concurrency observable). */
  latencyMs?: number | undefined;
  /** The contract's models (kinds, output fields, prices); the package's testing entry gives it. */
  catalog?: ModelCatalog | undefined;
}

/** One request the fake answered. */
export interface FakeRequestRecord {
  method: string;
  path: string;
  /** The query, with its `?` (empty without one). */
  query: string;
  status: number;
  /** When it was answered, on the fake's clock. */
  at: number;
}

export interface ServiceFake {
  /** Answers one request. */
  handler(request: Request): Promise<Response>;
  /** `handler` as a fetch function: give it to the client as its `fetch`. */
  fetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response>;
  /** Every request answered, in order. */
  readonly log: FakeRequestRecord[];
  /** How many requests were refused with 429. */
  readonly tooManyRequests: number;
  readonly jobs: FakeJobs;
  readonly pods: FakePods;
  readonly registries: Registries;
  /** The most requests of each limited operation seen in flight at once. */
  readonly peakInFlight: ReadonlyMap<string, number>;
  /** Replaces every user's request windows (their counts start again). */
  setQuota(quotas: readonly Quota[]): void;
  /** The next job submitted follows `plan`; by default it fails at once. */
  failNextJob(plan?: Partial<FakeJobPlan>): void;
  /** Writes a line to a pod's log, sent at once to its open streams. */
  appendLog(podId: string, line: string, source?: string): FakeLogEvent;
  /** A pod's next log stream breaks after sending `events` events. */
  cutLogStreamOnce(podId: string, events: number): void;
  /** Resolves once no log stream is open. */
  logStreamsClosed(): Promise<void>;
  /** What a pod has cost so far, in USD. */
  accruedCost(podId: string): number;
}

export function createServiceFake(options: ServiceFakeOptions = {}): ServiceFake {
  const now = options.now ?? Date.now;
  const quotas = new Quotas(options.quotas ?? DEFAULT_QUOTAS);
  const limits = new EndpointLimits(options.endpointLimits, options.holdUntilInFlight);
  const jobs = new FakeJobs(now, options);
  const pods = new FakePods(now, options.pods);
  const registries = new Registries((id) => pods.usingRegistry(id));
  pods.useRegistries(registries);
  const log: FakeRequestRecord[] = [];
  let tooManyRequests = 0;

  async function handler(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const record = (response: Response) => {
      log.push({ method: request.method, path: url.pathname, query: url.search, status: response.status, at: now() });
      if (response.status === 429) tooManyRequests += 1;
      return response;
    };
    const file = request.method === "GET" ? jobs.file(url.href) : undefined;
    if (file !== undefined) return record(file);
    const [, model, operation] = /^\/v2\/([a-z0-9-]+)\/([a-z-]+)/.exec(url.pathname) ?? [];
    let leave = () => {};
    if (model !== undefined && operation !== undefined) {
      const entered = limits.enter(model, operation, now());
      if (typeof entered !== "function") return record(json(429, { error: entered.detail }, { "Retry-After": String(entered.retryAfter) }));
      leave = entered;
    }
    try {
      const body = request.method === "GET" || request.method === "HEAD" ? undefined : await jsonBody(request);
      if (operation !== undefined) await limits.hold(operation);
      if (options.latencyMs) await new Promise((resolve) => setTimeout(resolve, options.latencyMs));
      return record(answer(request, url, body));
    } finally {
      leave();
    }
  }

  function answer(request: Request, url: URL, body: unknown): Response {
    const token = /^Bearer (\S+)$/.exec(request.headers.get("authorization") ?? "")?.[1];
    // The service sends no rate-limit headers with 401.
    if (token === undefined) return problem(401, "Unauthorized", "missing bearer token");
    const exceeded = quotas.consume(token, now());
    const headers = quotas.headers(token, now());
    if (exceeded) return problem(429, "Too Many Requests", `rate limit exceeded for the ${exceeded.name} window`, { ...headers, "Retry-After": String(exceeded.retryAfter) });
    if (body === undefined && request.method !== "GET" && request.method !== "HEAD") return problem(400, "Bad Request", "the body is not JSON", headers);
    const { method } = request;
    const path = url.pathname;
    const answered =
      jobs.handle(method, path, body) ??
      pods.handle(method, path, url.searchParams, body, request.headers.get("last-event-id") ?? undefined, headers) ??
      registries.handle(method, path, body, headers) ??
      problem(404, "Not Found", "no such route", headers);
    for (const [name, value] of Object.entries(headers)) if (!answered.headers.has(name)) answered.headers.set(name, value);
    return answered;
  }

  return {
    handler,
    fetch: (input, init) => handler(new Request(input, init)),
    log,
    get tooManyRequests() {
      return tooManyRequests;
    },
    jobs,
    pods,
    registries,
    peakInFlight: limits.peakInFlight,
    setQuota: (windows) => quotas.set(windows),
    failNextJob: (plan) => jobs.failNextJob(plan),
    appendLog: (podId, line, source) => pods.appendLog(podId, line, source),
    cutLogStreamOnce: (podId, events) => pods.cutLogStreamOnce(podId, events),
    logStreamsClosed: () => pods.logs.closed(),
    accruedCost: (podId) => pods.accruedCost(podId),
  };
}
