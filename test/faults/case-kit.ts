/**
 * What the fault cases are made of: the context a case gets (the loopback servers `a`, the
 * client's base URL for both APIs, and `b`, another origin reached only by redirects), what a case
 * says must come of it, the scripts of the servers, the calls made with the generated client, and
 * the checks beyond the result and the request counts. The cases are in cases/, one file per kind
 * of fault; cases.ts lists them all.
 */
import { GpuCloudClient, JobWaitError, TimeoutError, runAndWait, runMany, waitForJob, type GpuCloudClientOptions } from "../../generated/gpu-cloud-client/src/index.ts";
import path from "node:path";
import { generateFiles } from "../../generator/generate.ts";
import { writeOutput } from "../../generator/write/index.ts";
import { repoRoot } from "../support/prism.ts";
import { echoesOf } from "../support/secret-echoes.ts";
import { simulatedTime } from "../support/simulated-time.ts";
import { json, problem, type FaultRequest, type FaultServer, type Reply, type Route, type Script } from "./fault-server.ts";

/** Characters JSON, HTML, URLs and JSON pointers each escape: every spelling of it differs. */
export const KEY = `sk-live_F4<&>"'/+=~ults0123456789abcdef`;
export const ECHOES = echoesOf(KEY);
export const EVERY_ECHO = Object.values(ECHOES).join(" | ");

export const MODEL = "wan-2-6-i2v";
export const INPUT = { prompt: "p", image: "https://images.example.org/a.jpg" };
export const INPUTS = ["p", "q", "r"].map((prompt) => ({ ...INPUT, prompt }));
export const PODS = "/v2/pods";
export const RUN = `/v2/${MODEL}/run`;
export const STATUS = new RegExp(`^/v2/${MODEL}/status/`);
export const POLL = (id = "job-1") => `GET /v2/${MODEL}/status/${id}`;
export const SUBMIT = `POST ${RUN}`;
export const PODS_OK = json(200, { pods: [] });

export interface CaseContext {
  a: FaultServer;
  b: FaultServer;
  /** A base URL nobody listens on: connecting is refused. */
  refused: string;
  /** The caller's signal: its listeners are counted after the case. */
  signal: AbortSignal;
  /** The client's log lines so far (each attempt is one, or two when its body failed after the headers). */
  log: readonly string[];
  abort(reason?: unknown): void;
  /**
   * The generated client on `a`, the recording logger, retry delays of milliseconds and a timeout
   * no answer on loopback comes near; a case about timeouts gives a short one in `options`.
   */
  client(options?: Partial<GpuCloudClientOptions> & Record<string, unknown>): GpuCloudClient;
  /** The client of the event-streams fixture on `a`, with the same key, logger and retry delays. */
  streamsClient(options?: Record<string, unknown>): StreamsClient;
  /** The client of the idempotency-keys fixture on `a`, with the same key, logger and retry delays. */
  paymentsClient(options?: Record<string, unknown>): PaymentsClient;
}

export type ErrorClass = abstract new (...args: never[]) => Error;

export interface FaultCase {
  name: string;
  /** The item of issue 17 whose fix this expectation needs. */
  item?: number;
  /** A failure this suite found beyond the issue's items, until it is fixed. */
  finding?: string;
  a?(ctx: CaseContext): Script;
  b?(ctx: CaseContext): Script;
  run(ctx: CaseContext): Promise<unknown>;
  expect: {
    /** `ok`: resolves; a class: rejects with one; `typed`: rejects with a library error; `settles`: either. */
    result: "ok" | "typed" | "settles" | ErrorClass;
    /** Requests read per `METHOD /path` (`B …` on the other origin), exactly. */
    counts?: Record<string, number>;
    /** More to check (which bound ended a call, not how long it took); returns the problems found. */
    check?(outcome: { value: unknown; error: unknown }, ctx: CaseContext): string[];
  };
}

/**
 * The package generated from a fixture of test/fixtures/contracts (for what the project's contract
 * does not have: event streams, idempotency keys), written inside the repository so that it
 * resolves its dependencies.
 */
async function fixturePackage(name: string): Promise<unknown> {
  const out = path.join(repoRoot, ".tmp/faults", name);
  const generated = await generateFiles({ spec: path.join(repoRoot, `test/fixtures/contracts/${name}.yaml`), out });
  await writeOutput(out, generated.files);
  return import(path.join(out, "src/index.ts"));
}

/** What the cases use of the package (generated at run time, so not type-checked with the tests). */
interface StreamsModule {
  BuildEventsApiClient: new (options: Record<string, unknown>) => StreamsClient;
  BuildEventsApiError: ErrorClass;
  AbortedError: ErrorClass;
  AuthenticationError: ErrorClass;
  ConnectionError: ErrorClass;
  NotFoundError: ErrorClass;
  RateLimitError: ErrorClass;
  ResponseValidationError: ErrorClass;
  TimeoutError: ErrorClass;
}

export interface LogEvent {
  id: string | undefined;
  event: string;
  data: { seq: number; text: string };
}

export interface StreamsClient {
  followBuildLog(params: { path: { buildId: string } }, options?: Record<string, unknown>): AsyncGenerator<LogEvent, void, undefined>;
  watchNotices(options?: Record<string, unknown>): AsyncGenerator<{ id: string | undefined; event: string; data: string }, void, undefined>;
}

export const STREAMS = (await fixturePackage("event-streams")) as StreamsModule;

/** What the cases use of the idempotency-keys fixture's package. */
interface PaymentsModule {
  PaymentsApiClient: new (options: Record<string, unknown>) => PaymentsClient;
  PaymentsApiError: ErrorClass;
  ConnectionError: ErrorClass;
  InvalidRequestError: ErrorClass;
  ServerError: ErrorClass;
  TimeoutError: ErrorClass;
}

type Money = { body: { amount: number; currency: string } };
type Call<P> = (params: P, options?: Record<string, unknown>) => Promise<{ status: number; data: unknown }>;

export interface PaymentsClient {
  createPayment: Call<Money & { header?: { "Idempotency-Key"?: string } }>;
  createRefund: Call<Money & { header: { "X-Idempotency-Key": string } }>;
  createPayout: Call<Money & { header?: { "Request-Token"?: string } }>;
  createCapture: Call<{ path: { paymentId: string }; header?: { "Idempotency-Key"?: string } }>;
  createTransfer: Call<Money>;
}

export const PAYMENTS = (await fixturePackage("idempotency-keys")) as PaymentsModule;

// --- Scripts -------------------------------------------------------------------------------

export const pods = (reply: Route["reply"]): Script => ({ routes: [{ method: "GET", path: PODS, reply }] });

/**
 * The model endpoints: `run` queues `job-N`; a status poll finds it IN_PROGRESS, then COMPLETED
 * with its output; `submit` and `status` replace either (a function may call `next` for the default).
 */
export function jobs(options: { submit?: (request: FaultRequest, n: number, next: () => Reply) => Reply; status?: (request: FaultRequest, n: number, next: () => Reply) => Reply } = {}): Script {
  let queued = 0;
  const polls = new Map<string, number>();
  const submitted = (): Reply => json(200, { id: `job-${++queued}`, status: "IN_QUEUE" });
  const progress = (request: FaultRequest) => (): Reply => {
    const id = decodeURIComponent(request.path.split("/").pop()!);
    const n = (polls.get(id) ?? 0) + 1;
    polls.set(id, n);
    return json(200, n < 2 ? { id, status: "IN_PROGRESS" } : { id, status: "COMPLETED", output: { video_url: `https://files.example.org/${id}.mp4`, cost: 0.5 } });
  };
  return {
    routes: [
      { method: "POST", path: RUN, reply: (request, n) => (options.submit ? options.submit(request, n, submitted) : submitted()) },
      { method: "GET", path: STATUS, reply: (request, n) => (options.status ? options.status(request, n, progress(request)) : progress(request)()) },
    ],
  };
}

export const statusOnly = (reply: (request: FaultRequest, n: number) => Reply): Script => ({ routes: [{ method: "GET", path: STATUS, reply }] });

/** A quota of `quota` requests per `seconds`, told honestly in RateLimit headers, 429 beyond it. */
export function quota(script: Script, limit: number, seconds: number): Script {
  let windowStart = 0;
  let used = 0;
  const wrap = (route: Route): Route => ({
    ...route,
    reply: (request, n) => {
      const now = Date.now();
      if (now - windowStart >= seconds * 1000) {
        windowStart = now;
        used = 0;
      }
      const reset = Math.max(1, Math.ceil((windowStart + seconds * 1000 - now) / 1000));
      const policy = { "RateLimit-Policy": `"w";q=${limit};w=${seconds}` };
      if (used >= limit) return problem(429, "quota", { "Retry-After": String(reset), RateLimit: `"w";r=0;t=${reset}`, ...policy });
      used += 1;
      const reply = typeof route.reply === "function" ? route.reply(request, n) : (route.reply as Reply);
      return reply.kind === "respond" ? { ...reply, headers: { ...reply.headers, RateLimit: `"w";r=${limit - used};t=${reset}`, ...policy } } : reply;
    },
  });
  return { ...script, routes: script.routes.map(wrap) };
}

// --- Calls ---------------------------------------------------------------------------------

// Each with the caller's signal: its listeners must all be gone after the call, and it ends a call that hangs.

/**
 * How long a job helper's call may last unless a case says otherwise: far more than any case
 * needs on loopback, so that only a case about timeouts (which gives its own) ever meets it.
 */
const RUN_TIMEOUT_MS = 10_000;

export const listPods = (ctx: CaseContext, options?: Parameters<CaseContext["client"]>[0]) => ctx.client(options).listPods({}, { signal: ctx.signal });
export const submitOnce = (ctx: CaseContext, options?: Parameters<CaseContext["client"]>[0]) => ctx.client(options).runModel(MODEL, INPUT, { signal: ctx.signal });
export const runJob = (ctx: CaseContext, options: Parameters<typeof runAndWait>[3] = {}, client?: Parameters<CaseContext["client"]>[0]) =>
  runAndWait(ctx.client(client), MODEL, INPUT, { intervalMs: 20, timeoutMs: RUN_TIMEOUT_MS, signal: ctx.signal, ...options });
export const waitJob = (ctx: CaseContext, options: Parameters<typeof waitForJob>[3] = {}, client?: Parameters<CaseContext["client"]>[0]) =>
  waitForJob(ctx.client(client), MODEL, "job-1", { intervalMs: 20, timeoutMs: RUN_TIMEOUT_MS, signal: ctx.signal, ...options });
/**
 * A wait's pauses on a simulated clock (each advances it at once): a case about what a wait saw
 * before its deadline then sees it on any machine. `timeoutMs` is the clock's; a poll itself still
 * takes real time, bounded by what is left of it.
 */
export const simulatedWait = (timeoutMs: number, intervalMs: number) => {
  const time = simulatedTime();
  return { timeoutMs, intervalMs, now: time.now, sleep: time.sleep };
};

export const runBatch = (ctx: CaseContext, options: Parameters<typeof runMany>[3] = {}, client?: Parameters<CaseContext["client"]>[0], inputs = INPUTS) =>
  runMany(ctx.client(client), MODEL, inputs, { concurrency: 2, intervalMs: 20, timeoutMs: RUN_TIMEOUT_MS, signal: ctx.signal, ...options });

// --- Checks --------------------------------------------------------------------------------

/** The gap between the first two requests the server read. */
export const gapAtLeast = (ms: number) => (_: unknown, ctx: CaseContext) => {
  const [first, second] = ctx.a.requests;
  return first && second && second.at - first.at >= ms ? [] : [`the retry came ${second && first ? second.at - first.at : "never"} ms after the first attempt, not ${ms} ms or more`];
};

/** A batch's items: how many succeeded, and each failure of the given class. */
export const batch = (succeeded: number, failedWith?: ErrorClass) => (outcome: { value: unknown }) => {
  const items = (outcome.value as { items: Array<{ ok: boolean; error?: unknown }> }).items;
  const problems: string[] = [];
  if (items.filter((item) => item.ok).length !== succeeded) problems.push(`${items.filter((item) => item.ok).length} item(s) succeeded, not ${succeeded}${items.some((item) => !item.ok) ? ` (first failure: ${String(items.find((item) => !item.ok)?.error)})` : ""}`);
  for (const item of items) if (!item.ok && failedWith && !(item.error instanceof failedWith)) problems.push(`an item failed with ${String(item.error)}, not a ${failedWith.name}`);
  return problems;
};

/** The call's error, or each failed item's of a batch it returned. */
function errorsIn(outcome: { value: unknown; error: unknown }): unknown[] {
  if (outcome.error !== undefined) return [outcome.error];
  const items = (outcome.value as { items?: Array<{ ok: boolean; error?: unknown }> } | undefined)?.items ?? [];
  return items.filter((item) => !item.ok).map((item) => item.error);
}

/** Which bound ended the call (or each failed item): a TimeoutError of `timeoutMs`, whenever it came. */
export const timedOutAt = (timeoutMs: number) => (outcome: { value: unknown; error: unknown }) => {
  const errors = errorsIn(outcome);
  if (errors.length === 0) return ["nothing timed out"];
  return errors.filter((error) => !(error instanceof TimeoutError) || error.timeoutMs !== timeoutMs).map((error) => `ended by ${String(error)}, not a TimeoutError of ${timeoutMs} ms`);
};

/** A wait that ended with `kind` (a timeout, an abort). */
export const waitEnded = (kind: "timeout" | "aborted") => (outcome: { error: unknown }) =>
  outcome.error instanceof JobWaitError && outcome.error.kind === kind ? [] : [`not a JobWaitError of kind ${kind}: ${String(outcome.error)}`];

/**
 * Each request went out in `n` attempts at most, the last `n` (the client's log says so), and no
 * more than `requests` reached `a`. For a case whose attempts a short timeout ends: on a loaded
 * machine an attempt may end before its request arrives, so the server's count is only a bound.
 */
export const attempts = (n: number, requests = n) => (_: unknown, ctx: CaseContext) => {
  const made = Math.max(0, ...ctx.log.flatMap((line) => [...line.matchAll(/"attempt":(\d+)/g)].map((match) => Number(match[1]))));
  return [...(made === n ? [] : [`${made} attempt(s), not ${n}`]), ...(ctx.a.requests.length <= requests ? [] : [`${ctx.a.requests.length} requests reached the server, not ${requests} at most`])];
};

export const not = (errorClass: ErrorClass, why: string) => (outcome: { error: unknown }) =>
  outcome.error instanceof errorClass ? [`rejected with a ${errorClass.name} (${why}): ${(outcome.error as Error).message}`] : [];

export const noKeyAt = (server: "b") => (_: unknown, ctx: CaseContext) =>
  ctx[server].requests.filter((request) => Object.values(request.headers).some((value) => value.includes(KEY.slice(8)))).map((request) => `${request.method} ${request.path} on the other origin carried the key`);

