/**
 * The fault cases: per case, what the loopback servers do (`a`, the client's base URL for both
 * APIs, and `b`, another origin reached only by redirects), the call made with the generated
 * client, and what must come of it. Every case is also held to the invariants of invariants.ts.
 * `item` names the item of issue 17 whose fix the expectation needs. To add a case, add a row.
 */
import {
  AbortedError,
  ApiError,
  AuthenticationError,
  BatchAbortedError,
  ConnectionError,
  GpuCloudClient,
  InvalidRequestError,
  JobFailedError,
  JobWaitError,
  RateLimitError,
  ResponseValidationError,
  ServerError,
  TimeoutError,
  runAndWait,
  runMany,
  waitForJob,
  type GpuCloudClientOptions,
} from "../../generated/gpu-cloud-client/src/index.ts";
import { echoesOf } from "../support/secret-echoes.ts";
import {
  cut,
  endless,
  json,
  problem,
  raw,
  redirect,
  reset,
  respond,
  silent,
  trickle,
  type FaultRequest,
  type FaultServer,
  type Reply,
  type Route,
  type Script,
} from "./fault-server.ts";

/** Characters JSON, HTML, URLs and JSON pointers each escape: every spelling of it differs. */
export const KEY = `sk-live_F4<&>"'/+=~ults0123456789abcdef`;
export const ECHOES = echoesOf(KEY);
const EVERY_ECHO = Object.values(ECHOES).join(" | ");

export const MODEL = "wan-2-6-i2v";
const INPUT = { prompt: "p", image: "https://images.example.org/a.jpg" };
const INPUTS = ["p", "q", "r"].map((prompt) => ({ ...INPUT, prompt }));
const PODS = "/v2/pods";
const RUN = `/v2/${MODEL}/run`;
const STATUS = new RegExp(`^/v2/${MODEL}/status/`);
const POLL = (id = "job-1") => `GET /v2/${MODEL}/status/${id}`;
const SUBMIT = `POST ${RUN}`;
const PODS_OK = json(200, { pods: [] });

export interface CaseContext {
  a: FaultServer;
  b: FaultServer;
  /** A base URL nobody listens on: connecting is refused. */
  refused: string;
  /** The caller's signal: its listeners are counted after the case. */
  signal: AbortSignal;
  abort(reason?: unknown): void;
  /** The generated client on `a`, short timeouts and delays, the recording logger; `options` over them. */
  client(options?: Partial<GpuCloudClientOptions> & Record<string, unknown>): GpuCloudClient;
}

type ErrorClass = abstract new (...args: never[]) => Error;

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
    /** The call settles within this (default 2 500 ms). */
    withinMs?: number;
    /** More to check; returns the problems found. */
    check?(outcome: { value: unknown; error: unknown; ms: number }, ctx: CaseContext): string[];
  };
}

// --- Scripts -------------------------------------------------------------------------------

const pods = (reply: Route["reply"]): Script => ({ routes: [{ method: "GET", path: PODS, reply }] });

/**
 * The model endpoints: `run` queues `job-N`; a status poll finds it IN_PROGRESS, then COMPLETED
 * with its output; `submit` and `status` replace either (a function may call `next` for the default).
 */
function jobs(options: { submit?: (request: FaultRequest, n: number, next: () => Reply) => Reply; status?: (request: FaultRequest, n: number, next: () => Reply) => Reply } = {}): Script {
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

const statusOnly = (reply: (request: FaultRequest, n: number) => Reply): Script => ({ routes: [{ method: "GET", path: STATUS, reply }] });

/** A quota of `quota` requests per `seconds`, told honestly in RateLimit headers, 429 beyond it. */
function quota(script: Script, limit: number, seconds: number): Script {
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

const listPods = (ctx: CaseContext, options?: Parameters<CaseContext["client"]>[0]) => ctx.client(options).listPods({}, { signal: ctx.signal });
const submitOnce = (ctx: CaseContext) => ctx.client().runModel(MODEL, INPUT, { signal: ctx.signal });
const runJob = (ctx: CaseContext, options: Parameters<typeof runAndWait>[3] = {}, client?: Parameters<CaseContext["client"]>[0]) =>
  runAndWait(ctx.client(client), MODEL, INPUT, { intervalMs: 20, timeoutMs: 1_500, signal: ctx.signal, ...options });
const waitJob = (ctx: CaseContext, options: Parameters<typeof waitForJob>[3] = {}, client?: Parameters<CaseContext["client"]>[0]) =>
  waitForJob(ctx.client(client), MODEL, "job-1", { intervalMs: 20, timeoutMs: 1_500, signal: ctx.signal, ...options });
const runBatch = (ctx: CaseContext, options: Parameters<typeof runMany>[3] = {}, client?: Parameters<CaseContext["client"]>[0], inputs = INPUTS) =>
  runMany(ctx.client(client), MODEL, inputs, { concurrency: 2, intervalMs: 20, timeoutMs: 1_500, signal: ctx.signal, ...options });

// --- Checks --------------------------------------------------------------------------------

/** The gap between the first two requests the server read. */
const gapAtLeast = (ms: number) => (_: unknown, ctx: CaseContext) => {
  const [first, second] = ctx.a.requests;
  return first && second && second.at - first.at >= ms ? [] : [`the retry came ${second && first ? second.at - first.at : "never"} ms after the first attempt, not ${ms} ms or more`];
};

/** A batch's items: how many succeeded, and each failure of the given class. */
const batch = (succeeded: number, failedWith?: ErrorClass) => (outcome: { value: unknown }) => {
  const items = (outcome.value as { items: Array<{ ok: boolean; error?: unknown }> }).items;
  const problems: string[] = [];
  if (items.filter((item) => item.ok).length !== succeeded) problems.push(`${items.filter((item) => item.ok).length} item(s) succeeded, not ${succeeded}${items.some((item) => !item.ok) ? ` (first failure: ${String(items.find((item) => !item.ok)?.error)})` : ""}`);
  for (const item of items) if (!item.ok && failedWith && !(item.error instanceof failedWith)) problems.push(`an item failed with ${String(item.error)}, not a ${failedWith.name}`);
  return problems;
};

const not = (errorClass: ErrorClass, why: string) => (outcome: { error: unknown }) =>
  outcome.error instanceof errorClass ? [`rejected with a ${errorClass.name} (${why}): ${(outcome.error as Error).message}`] : [];

const noKeyAt = (server: "b") => (_: unknown, ctx: CaseContext) =>
  ctx[server].requests.filter((request) => Object.values(request.headers).some((value) => value.includes(KEY.slice(8)))).map((request) => `${request.method} ${request.path} on the other origin carried the key`);

// --- The cases -----------------------------------------------------------------------------

const WRONG_SHAPES: Array<[string, Reply]> = [
  ["null", respond(200, "null", { "Content-Type": "application/json" })],
  ["[]", json(200, [])],
  ['"x"', json(200, "x")],
  ["{}", json(200, {})],
  ['{"status":"IN_QUEUE"} (no id)', json(200, { status: "IN_QUEUE" })],
  ["an empty 200", respond(200, "", { "Content-Type": "application/json" })],
  ["204", respond(204)],
];

export const CASES: FaultCase[] = [
  // Connections reset before and after the request is read.
  {
    name: "listPods: every connection reset before the request is read: retried, then a ConnectionError",
    a: () => ({ resetOnConnect: () => true, routes: [] }),
    run: listPods,
    expect: { result: ConnectionError, counts: { "reset on connect": 3 } },
  },
  {
    name: "listPods: reset twice after the request is read, then answered: retried to success",
    a: () => pods([reset(), reset(), PODS_OK]),
    run: listPods,
    expect: { result: "ok", counts: { [`GET ${PODS}`]: 3 } },
  },
  {
    name: "run (POST): connection reset before the request is read: a ConnectionError, not sent again",
    a: () => ({ resetOnConnect: () => true, routes: [] }),
    run: submitOnce,
    expect: { result: ConnectionError, counts: { "reset on connect": 1 } },
  },
  {
    name: "run (POST): reset after the request is read: a ConnectionError, not sent again",
    a: () => jobs({ submit: () => reset() }),
    run: submitOnce,
    expect: { result: ConnectionError, counts: { [SUBMIT]: 1 } },
  },
  {
    name: "runAndWait: submission reset after it was read: a typed error, not submitted again, no poll",
    a: () => jobs({ submit: () => reset() }),
    run: (ctx) => runJob(ctx),
    expect: { result: ConnectionError, counts: { [SUBMIT]: 1 } },
  },
  {
    name: "runAndWait: a status poll reset once: polled again, the job completes",
    a: () => jobs({ status: (_, n, next) => (n === 1 ? reset() : next()) }),
    run: (ctx) => runJob(ctx),
    expect: { result: "ok", counts: { [SUBMIT]: 1, [POLL()]: 3 } },
  },
  {
    name: "waitForJob: every poll reset: a typed error, bounded",
    a: () => statusOnly(() => reset()),
    run: (ctx) => waitJob(ctx),
    expect: { result: ConnectionError, counts: { [POLL()]: 3 } },
  },
  {
    name: "runMany: one submission reset after it was read: that item fails typed, the others complete, none sent twice",
    a: () => jobs({ submit: (_, n, next) => (n === 1 ? reset() : next()) }),
    run: (ctx) => runBatch(ctx),
    expect: { result: "ok", counts: { [SUBMIT]: 3, [POLL("job-1")]: 2, [POLL("job-2")]: 2 }, check: batch(2, ConnectionError) },
  },

  // Bodies cut short.
  {
    name: "listPods: a 200 body cut by a closed connection, then whole: the GET is retried",
    item: 7,
    a: () => pods([cut(200, '{"pods":[], "padding": "................"}', 9), PODS_OK]),
    run: listPods,
    expect: { result: "ok", counts: { [`GET ${PODS}`]: 2 } },
  },
  {
    name: "listPods: a 200 body cut by a reset every time: retried, then a ConnectionError",
    item: 7,
    a: () => pods(cut(200, '{"pods":[], "padding": "................"}', 9, "reset")),
    run: listPods,
    expect: { result: ConnectionError, counts: { [`GET ${PODS}`]: 3 } },
  },
  {
    // Node's fetch (undici) ends a chunked body closed before its last chunk as if it were whole, so
    // the client cannot tell the cut: it sees a body that is not JSON, a typed error, not retried.
    name: "listPods: a chunked 200 body closed before its last chunk: the platform hides the cut, an ApiError (not JSON)",
    item: 7,
    a: () => pods([raw('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n5\r\n{"pod\r\n'), PODS_OK]),
    run: listPods,
    expect: { result: ApiError, counts: { [`GET ${PODS}`]: 1 } },
  },
  {
    name: "listPods: Content-Length longer than the body sent, then whole: a cut body, retried",
    item: 7,
    a: () => pods([respond(200, '{"pods":[]}', { "Content-Type": "application/json", "Content-Length": "100" }), PODS_OK]),
    run: listPods,
    expect: { result: "ok", counts: { [`GET ${PODS}`]: 2 } },
  },
  {
    name: "run (POST): a 200 body cut: a ConnectionError, not sent again",
    a: () => jobs({ submit: () => cut(200, '{"id":"job-1","status":"IN_QUEUE"}', 8) }),
    run: submitOnce,
    expect: { result: ConnectionError, counts: { [SUBMIT]: 1 } },
  },
  {
    // The cut poll is retried by the transport (a GET), which finds the job running; the next poll finds it done.
    name: "waitForJob: a status body cut once: the poll retried, the job completes",
    item: 7,
    a: () => jobs({ status: (_, n, next) => (n === 1 ? cut(200, '{"id":"job-1","status":"IN_PROGRESS"}', 10) : next()) }),
    run: (ctx) => waitJob(ctx),
    expect: { result: "ok", counts: { [POLL()]: 3 } },
  },
  {
    name: "listPods: a 500 body cut: a ServerError with what arrived",
    a: () => pods(cut(500, '{"title":"Internal","status":500,"detail":"boom"}', 20, "close", { "Content-Type": "application/problem+json" })),
    run: listPods,
    expect: { result: ServerError, counts: { [`GET ${PODS}`]: 1 } },
  },

  // Bodies that trickle.
  {
    name: "listPods: a body trickled within the timeout: read whole",
    a: () => pods(trickle(200, '{"pods":[],"n":"0123456789"}', 4, 20)),
    run: listPods,
    expect: { result: "ok", counts: { [`GET ${PODS}`]: 1 } },
  },
  {
    name: "listPods: a body trickled past the timeout every time: retried like a silent server, then a TimeoutError",
    item: 7,
    a: () => pods(trickle(200, `{"pods":[],"n":"${"0".repeat(100)}"}`, 1, 100)),
    run: listPods,
    expect: { result: TimeoutError, counts: { [`GET ${PODS}`]: 3 } },
  },
  {
    name: "run (POST): a body trickled past the timeout: a TimeoutError, not sent again",
    a: () => jobs({ submit: () => trickle(200, `{"id":"job-1","status":"IN_QUEUE","n":"${"0".repeat(100)}"}`, 1, 100) }),
    run: submitOnce,
    expect: { result: TimeoutError, counts: { [SUBMIT]: 1 } },
  },

  // Servers that never answer.
  {
    name: "listPods: a silent server: retried, then a TimeoutError",
    a: () => pods(silent()),
    run: listPods,
    expect: { result: TimeoutError, counts: { [`GET ${PODS}`]: 3 } },
  },
  {
    name: "run (POST): a silent server: a TimeoutError, not sent again",
    a: () => jobs({ submit: () => silent() }),
    run: submitOnce,
    expect: { result: TimeoutError, counts: { [SUBMIT]: 1 }, withinMs: 1_000 },
  },
  {
    name: "runAndWait: a silent submission ends at the run's timeoutMs (600 ms), not the client's (3 s)",
    item: 3,
    a: () => jobs({ submit: () => silent() }),
    run: (ctx) => runJob(ctx, { timeoutMs: 600 }, { timeoutMs: 3_000 }),
    expect: { result: "typed", counts: { [SUBMIT]: 1 }, withinMs: 1_100 },
  },
  {
    name: "runMany: silent submissions end at the batch's timeoutMs (600 ms), not the client's (3 s)",
    item: 3,
    a: () => jobs({ submit: () => silent() }),
    run: (ctx) => runBatch(ctx, { timeoutMs: 600 }, { timeoutMs: 3_000 }),
    expect: { result: "settles", counts: { [SUBMIT]: 3 }, withinMs: 2_000 },
  },
  {
    name: "waitForJob: a silent status endpoint: a JobWaitError at the wait's timeoutMs",
    a: () => statusOnly(() => silent()),
    run: (ctx) => waitJob(ctx, { timeoutMs: 600 }),
    expect: { result: JobWaitError, withinMs: 1_000 },
  },

  // Absurd and malformed headers.
  {
    name: "listPods: 429 with Retry-After 999999999: a RateLimitError at once, not retried",
    a: () => pods(problem(429, "slow down", { "Retry-After": "999999999" })),
    run: listPods,
    expect: { result: RateLimitError, counts: { [`GET ${PODS}`]: 1 }, withinMs: 500 },
  },
  {
    name: "listPods: 429 with Retry-After a date in year 9999: a RateLimitError at once",
    a: () => pods(problem(429, "slow down", { "Retry-After": "Fri, 31 Dec 9999 23:59:59 GMT" })),
    run: listPods,
    expect: { result: RateLimitError, counts: { [`GET ${PODS}`]: 1 }, withinMs: 500 },
  },
  {
    name: "listPods: 429s whose Retry-After is -5, abc, NaN, 1e309 or empty: backoff, then success",
    a: () => pods([...["-5", "abc", "NaN", "1e309", ""].map((value) => problem(429, "slow down", { "Retry-After": value })), PODS_OK]),
    run: (ctx) => listPods(ctx, { maxRetries: 5 }),
    expect: { result: "ok", counts: { [`GET ${PODS}`]: 6 }, withinMs: 1_000 },
  },
  {
    name: "listPods: 503 with Retry-After 1: the retry waits the second asked",
    item: 8,
    a: () => pods([problem(503, "later", { "Retry-After": "1" }), PODS_OK]),
    run: listPods,
    expect: { result: "ok", counts: { [`GET ${PODS}`]: 2 }, check: gapAtLeast(900) },
  },
  {
    name: "listPods: 429 without Retry-After, its window exhausted (RateLimit r=0;t=1): the retry waits for the reset",
    item: 8,
    a: () => pods([problem(429, "later", { RateLimit: '"minute";r=0;t=1' }), PODS_OK]),
    run: listPods,
    expect: { result: "ok", counts: { [`GET ${PODS}`]: 2 }, check: gapAtLeast(900) },
  },
  {
    name: "listPods: malformed RateLimit and RateLimit-Policy on a 200: the result, its rateLimit readable",
    a: () => pods(json(200, { pods: [] }, { RateLimit: 'garbage;;;="', "RateLimit-Policy": '"minute";q=abc;w=-1, ;;' })),
    run: async (ctx) => {
      const result = await listPods(ctx);
      return { rateLimit: result.rateLimit };
    },
    expect: { result: "ok" },
  },
  {
    name: "runMany: answers with RateLimit r=0 and a reset 10^15 s away: the batch ends at its timeoutMs, the reset capped",
    item: 4,
    a: () => {
      const absurd = { RateLimit: '"minute";r=0;t=999999999999999' };
      const script = jobs({ submit: (_, __, next) => ({ ...(next() as Extract<Reply, { kind: "respond" }>), headers: { "Content-Type": "application/json", ...absurd } }) });
      return script;
    },
    run: (ctx) => runBatch(ctx, { timeoutMs: 800 }),
    expect: { result: "settles", withinMs: 1_500 },
  },
  {
    name: "runMany: answers with RateLimit r=0;t=3600: the batch ends at its timeoutMs",
    item: 4,
    a: () => jobs({ submit: (_, __, next) => ({ ...(next() as Extract<Reply, { kind: "respond" }>), headers: { "Content-Type": "application/json", RateLimit: '"minute";r=0;t=3600' } }) }),
    run: (ctx) => runBatch(ctx, { timeoutMs: 800 }),
    expect: { result: "settles", withinMs: 1_500 },
  },
  {
    name: "waitForJob: polls answered with RateLimit r=0;t=3600: a JobWaitError at the wait's timeoutMs",
    a: () => statusOnly((request) => json(200, { id: "job-1", status: "IN_PROGRESS" }, { RateLimit: '"minute";r=0;t=3600' })),
    run: (ctx) => waitJob(ctx, { timeoutMs: 600 }),
    expect: { result: JobWaitError, counts: { [POLL()]: 1 }, withinMs: 1_000 },
  },
  {
    name: "listPods: Content-Length shorter than the body: a typed error (the start is not JSON), not retried",
    a: () => pods(respond(200, '{"pods":[]}', { "Content-Type": "application/json", "Content-Length": "5" })),
    run: listPods,
    expect: { result: ApiError, counts: { [`GET ${PODS}`]: 1 } },
  },
  {
    name: "listPods: two different Content-Length headers: a typed error",
    a: () => pods(respond(200, '{"pods":[]}', { "Content-Type": "application/json", "Content-Length": ["11", "5"] })),
    run: listPods,
    expect: { result: "typed" },
  },
  {
    name: "listPods: a header line without a colon: a typed error",
    a: () => pods(raw("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nthis is not a header\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}")),
    run: listPods,
    expect: { result: "typed" },
  },
  {
    name: "listPods: a 100 KiB header: a typed error",
    a: () => pods(json(200, { pods: [] }, { "X-Big": "a".repeat(100 * 1024) })),
    run: listPods,
    expect: { result: "typed" },
  },
  {
    name: "listPods: an answer that is not HTTP: a typed error",
    a: () => pods(raw("SSH-2.0-OpenSSH_9.6\r\n")),
    run: listPods,
    expect: { result: "typed" },
  },
  {
    name: "listPods: status 600: a typed error",
    finding: "a status outside 200-599 throws the platform's RangeError",
    a: () => pods(raw("HTTP/1.1 600 Weird\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}")),
    run: listPods,
    expect: { result: "typed" },
  },
  {
    name: "listPods: a 200 said to be JSON with an HTML body: a typed error, not retried",
    a: () => pods(respond(200, "<html><body>maintenance</body></html>", { "Content-Type": "application/json" })),
    run: listPods,
    expect: { result: ApiError, counts: { [`GET ${PODS}`]: 1 } },
  },

  // Redirects.
  {
    name: "listPods: 302 to another origin: followed, without the key",
    a: (ctx) => pods(redirect(302, `${ctx.b.url}${PODS}`)),
    b: () => pods(PODS_OK),
    run: listPods,
    expect: { result: "ok", counts: { [`GET ${PODS}`]: 1, [`B GET ${PODS}`]: 1 }, check: noKeyAt("b") },
  },
  {
    name: "run (POST): 307 to another origin: sent there once, without the key",
    a: (ctx) => ({ routes: [{ method: "POST", path: RUN, reply: redirect(307, `${ctx.b.url}${RUN}`) }] }),
    b: () => jobs(),
    run: submitOnce,
    expect: { result: "ok", counts: { [SUBMIT]: 1, [`B ${SUBMIT}`]: 1 }, check: noKeyAt("b") },
  },
  {
    name: "run (POST): 307 to an address that refuses the connection: a ConnectionError, not sent again",
    item: 9,
    a: (ctx) => ({ routes: [{ method: "POST", path: RUN, reply: redirect(307, `${ctx.refused}${RUN}`) }] }),
    run: submitOnce,
    expect: { result: ConnectionError, counts: { [SUBMIT]: 1 } },
  },
  {
    name: "runAndWait: 307 to an address that refuses the connection: a typed error, submitted once",
    a: (ctx) => ({ routes: [{ method: "POST", path: RUN, reply: redirect(307, `${ctx.refused}${RUN}`) }] }),
    run: (ctx) => runJob(ctx),
    expect: { result: "typed", counts: { [SUBMIT]: 1 } },
  },
  {
    name: "listPods: a redirect loop: a typed error, bounded",
    a: (ctx) => pods(redirect(302, `${ctx.a.url}${PODS}`)),
    run: listPods,
    expect: { result: "typed" },
  },
  {
    name: "listPods: a redirect to a URL with the key in its query, answered 500: no key in the error or the logs",
    a: (ctx) => pods(redirect(302, `${ctx.b.url}${PODS}?token=${encodeURIComponent(KEY)}&auth=${ECHOES["base64 bearer"]}`)),
    b: () => pods(problem(500, "boom")),
    run: listPods,
    expect: { result: ServerError, counts: { [`GET ${PODS}`]: 1, [`B GET ${PODS}`]: 1 } },
  },
  {
    name: "listPods: a redirect to an unparseable Location holding the key: a typed error",
    a: () => pods(respond(302, "", { Location: `http://exa mple.org:99999/${encodeURIComponent(KEY)}` })),
    run: listPods,
    expect: { result: "typed" },
  },

  // The key echoed back, in every spelling.
  ...Object.entries(ECHOES).map(
    ([spelling, echo]): FaultCase => ({
      name: `listPods: a 401 echoing the key ${spelling} in its body, headers and RateLimit: no key anywhere`,
      a: () =>
        pods(
          problem(401, `you sent ${echo}`, {
            "X-Echo": echo,
            "WWW-Authenticate": `Bearer error="invalid_token", error_description="${echo}"`,
            RateLimit: `"${echo}";r=0;t=1`,
            "Retry-After": echo,
          }),
        ),
      run: listPods,
      expect: { result: AuthenticationError, counts: { [`GET ${PODS}`]: 1 } },
    }),
  ),
  {
    name: "listPods: 503s echoing the key in headers and body, retried: no key in the error or the log lines",
    a: () => pods(problem(503, `upstream got ${EVERY_ECHO}`, { "X-Echo": ECHOES["bearer"]!, "Retry-After": "0", Warning: `199 - "${ECHOES["base64 bearer"]}"` })),
    run: listPods,
    expect: { result: ServerError, counts: { [`GET ${PODS}`]: 3 } },
  },
  {
    name: "listPods: a 200 page that is not JSON echoing every spelling: no key",
    a: () => pods(respond(200, `<html>you sent ${EVERY_ECHO}</html>`, { "Content-Type": "text/html" })),
    run: listPods,
    expect: { result: ApiError },
  },
  {
    name: "listPods with validateResponses: field names and values echoing every spelling: no key in the problems",
    a: () => pods(json(200, { pods: [{ env: Object.fromEntries(Object.values(ECHOES).map((echo, i) => [echo, i])), note: EVERY_ECHO }], [KEY]: EVERY_ECHO })),
    run: (ctx) => listPods(ctx, { validateResponses: true }),
    expect: { result: ResponseValidationError },
  },
  {
    name: "listPods: a 500 body cut inside the echoed key: no start of the key kept",
    a: () => pods(cut(500, `{"detail":"you sent Bearer ${KEY}"}`, `{"detail":"you sent Bearer ${KEY}`.length - 10, "close", { "Content-Type": "application/problem+json" })),
    run: listPods,
    expect: { result: ServerError, check: (outcome) => ((outcome.error as ServerError).rawBody.includes(KEY.slice(0, 8)) ? ["rawBody keeps the start of the key"] : []) },
  },
  {
    name: "waitForJob: a job FAILED with an error echoing every spelling: a JobFailedError without the key",
    a: () => statusOnly(() => json(200, { id: "job-1", status: "FAILED", error: `rejected ${EVERY_ECHO}` })),
    run: (ctx) => waitJob(ctx),
    expect: { result: JobFailedError, counts: { [POLL()]: 1 } },
  },
  {
    name: "waitForJob: the last job seen echoes the key in field names and values when the wait times out",
    a: () => statusOnly(() => json(200, { id: "job-1", status: "IN_PROGRESS", [KEY]: EVERY_ECHO, debug: { headers: { authorization: ECHOES["bearer"] } } })),
    run: (ctx) => waitJob(ctx, { timeoutMs: 300 }),
    expect: { result: JobWaitError, withinMs: 800 },
  },
  {
    name: "runAndWait: a submission answered 400 with a FAILED job echoing the key: a JobFailedError without it",
    a: () => jobs({ submit: () => json(400, { id: "job-1", status: "FAILED", error: `bad image; auth was ${EVERY_ECHO}` }) }),
    run: (ctx) => runJob(ctx),
    expect: { result: JobFailedError, counts: { [SUBMIT]: 1 } },
  },
  {
    name: "runMany: jobs failing with errors echoing the key: every item's error typed and without it",
    a: () => jobs({ status: (request) => json(200, { id: request.path.split("/").pop(), status: "FAILED", error: `auth ${EVERY_ECHO}` }) }),
    run: (ctx) => runBatch(ctx),
    expect: { result: "ok", check: batch(0, JobFailedError) },
  },

  // Success answers without the shape the job helpers need.
  ...WRONG_SHAPES.map(
    ([shape, reply]): FaultCase => ({
      name: `runAndWait: the submission answered ${shape}: a typed error that is not the caller's fault, submitted once, no poll`,
      item: 1,
      a: () => jobs({ submit: () => reply }),
      run: (ctx) => runJob(ctx),
      expect: { result: "typed", counts: { [SUBMIT]: 1 }, check: not(InvalidRequestError, "the request was sent and the job may exist") },
    }),
  ),
  ...WRONG_SHAPES.filter(([shape]) => !shape.includes("no id")).map(
    ([shape, reply]): FaultCase => ({
      name: `waitForJob: a status poll answered ${shape}: a typed error, bounded`,
      item: ["null", "an empty 200", "204"].includes(shape) ? 1 : undefined,
      a: () => statusOnly(() => reply),
      run: (ctx) => waitJob(ctx, { timeoutMs: 400 }),
      expect: { result: "typed", withinMs: 900 },
    }),
  ),
  {
    name: "waitForJob with validateResponses: a status poll answered 204: a typed error",
    item: 1,
    a: () => statusOnly(() => respond(204)),
    run: (ctx) => waitJob(ctx, { timeoutMs: 400 }, { validateResponses: true }),
    expect: { result: "typed", withinMs: 900 },
  },
  {
    name: "runAndWait with validateResponses: the submission answered null: a typed error, submitted once",
    a: () => jobs({ submit: () => respond(200, "null", { "Content-Type": "application/json" }) }),
    run: (ctx) => runJob(ctx, {}, { validateResponses: true }),
    expect: { result: "typed", counts: { [SUBMIT]: 1 }, check: not(InvalidRequestError, "the request was sent and the job may exist") },
  },
  {
    name: "runMany: submissions answered {}: each item a typed error that is not the caller's fault",
    item: 1,
    a: () => jobs({ submit: () => json(200, {}) }),
    run: (ctx) => runBatch(ctx),
    expect: {
      result: "ok",
      counts: { [SUBMIT]: 3 },
      check: (outcome) => [
        ...batch(0)(outcome),
        ...(outcome.value as { items: Array<{ error?: unknown }> }).items.flatMap((item) => not(InvalidRequestError, "the job was submitted")({ error: item.error })),
      ],
    },
  },
  {
    name: "listPods with validateResponses: a 204 where the contract promises a body: a ResponseValidationError",
    item: 6,
    a: () => pods(respond(204)),
    run: (ctx) => listPods(ctx, { validateResponses: true }),
    expect: { result: ResponseValidationError },
  },
  {
    name: "listPods with validateResponses: a 200 null: a ResponseValidationError",
    a: () => pods(respond(200, "null", { "Content-Type": "application/json" })),
    run: (ctx) => listPods(ctx, { validateResponses: true }),
    expect: { result: ResponseValidationError },
  },
  {
    name: "waitForJob: a COMPLETED job without output (validation off): a typed error, not an undefined output",
    item: 6,
    a: () => statusOnly(() => json(200, { id: "job-1", status: "COMPLETED" })),
    run: (ctx) => waitJob(ctx),
    expect: { result: "typed" },
  },

  // Quotas that answer 429.
  {
    name: "runAndWait: a submission refused with 429, then accepted: sent again only after the refusal",
    a: () => jobs({ submit: (_, n, next) => (n === 1 ? problem(429, "quota", { "Retry-After": "0" }) : next()) }),
    run: (ctx) => runJob(ctx, { timeoutMs: 3_000 }),
    expect: { result: "ok", counts: { [SUBMIT]: 2, [POLL()]: 2 }, withinMs: 2_500 },
  },
  {
    name: "run (POST) answered 429: a RateLimitError, not sent again by the transport",
    a: () => jobs({ submit: () => problem(429, "quota", { "Retry-After": "0" }) }),
    run: submitOnce,
    expect: { result: RateLimitError, counts: { [SUBMIT]: 1 } },
  },
  {
    name: "listPods answered 429 with Retry-After 0, then 200: retried",
    a: () => pods([problem(429, "quota", { "Retry-After": "0" }), PODS_OK]),
    run: listPods,
    expect: { result: "ok", counts: { [`GET ${PODS}`]: 2 } },
  },
  {
    name: "runMany under a quota of 5 requests a second: every job once, all complete",
    a: () => quota(jobs(), 5, 1),
    run: (ctx) => runBatch(ctx, { concurrency: 3, timeoutMs: 5_000 }),
    expect: { result: "ok", withinMs: 4_000, check: batch(3) },
  },

  // Numbers that make no sense, refused before any request.
  {
    name: "waitForJob({ intervalMs: NaN }): refused before any request",
    item: 5,
    run: (ctx) => waitJob(ctx, { intervalMs: Number.NaN }),
    expect: { result: InvalidRequestError, counts: {}, withinMs: 500 },
  },
  {
    name: "waitForJob({ intervalMs: -5 }): refused before any request",
    item: 5,
    run: (ctx) => waitJob(ctx, { intervalMs: -5 }),
    expect: { result: InvalidRequestError, counts: {}, withinMs: 500 },
  },
  {
    name: "runMany({ concurrency: NaN }): refused before any request",
    item: 5,
    run: (ctx) => runBatch(ctx, { concurrency: Number.NaN }),
    expect: { result: InvalidRequestError, counts: {}, withinMs: 500 },
  },
  {
    name: "runModel with NaN and Infinity in an input field no schema types: refused before any request",
    item: 5,
    run: (ctx) => ctx.client().runModel("custom-model" as typeof MODEL, { strength: Number.NaN, scale: Number.POSITIVE_INFINITY } as never),
    expect: { result: InvalidRequestError, counts: {}, withinMs: 500 },
  },

  // Bounded memory.
  {
    name: "listPods: a 2xx body that never ends stops at maxResponseBytes (1 MiB) with a typed error, not at the timeout",
    item: 10,
    a: () => pods(endless(200, 64 * 1024, 2)),
    run: (ctx) => listPods(ctx, { maxResponseBytes: 1024 * 1024, timeoutMs: 1_500, maxRetries: 0 }),
    expect: {
      result: "typed",
      withinMs: 1_000,
      check: (outcome, ctx) => [
        ...not(TimeoutError, "the read should stop at maxResponseBytes")(outcome),
        ...(ctx.a.bodyBytesSent > 16 * 1024 * 1024 ? [`the server sent ${ctx.a.bodyBytesSent} bytes before the client stopped reading`] : []),
      ],
    },
  },
  {
    name: "listPods: a 5xx body that never ends: a ServerError keeping 64 KiB",
    a: () => pods(endless(500, 16 * 1024, 1, { "Content-Type": "text/plain" })),
    run: (ctx) => listPods(ctx, { maxRetries: 0 }),
    expect: { result: ServerError, check: (outcome) => ((outcome.error as ServerError).rawBody.length === 65_536 ? [] : [`rawBody holds ${(outcome.error as ServerError).rawBody.length} characters`]) },
  },

  // Cancellation and listeners.
  {
    name: "runMany at concurrency 20 with a caller signal: no MaxListenersExceededWarning, no listener left",
    item: 11,
    a: () => jobs(),
    // The point is the listeners, not the pace: a deadline a loaded machine meets.
    run: (ctx) => runBatch(ctx, { concurrency: 20, timeoutMs: 8_000 }, { timeoutMs: 5_000 }, Array.from({ length: 20 }, (_, i) => ({ ...INPUT, prompt: `p${i}` }))),
    expect: { result: "ok", check: batch(20) },
  },
  {
    name: "runMany aborted by the caller while jobs run: a BatchAbortedError, no listener or timer left",
    a: () => jobs({ status: (request) => json(200, { id: request.path.split("/").pop(), status: "IN_PROGRESS" }) }),
    run: (ctx) => {
      setTimeout(() => ctx.abort(new Error("caller left")), 150);
      return runBatch(ctx);
    },
    expect: { result: BatchAbortedError, withinMs: 700 },
  },
  {
    name: "listPods aborted while the server is silent: an AbortedError, the socket closed",
    a: () => pods(silent()),
    run: (ctx) => {
      setTimeout(() => ctx.abort(new Error("caller left")), 100);
      return listPods(ctx);
    },
    expect: { result: AbortedError, counts: { [`GET ${PODS}`]: 1 }, withinMs: 500 },
  },
];
