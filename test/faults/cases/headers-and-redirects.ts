/**
 * Absurd and malformed headers (Retry-After of years, RateLimit resets of 10^15 s, lengths that
 * lie, lines that do not parse), and redirects across origins, to refused ports and in loops.
 */
import { ApiError, ConnectionError, JobWaitError, RateLimitError, ServerError } from "../../../generated/gpu-cloud-client/src/index.ts";
import { json, problem, raw, redirect, respond, type Reply } from "../fault-server.ts";
import { ECHOES, KEY, PODS, PODS_OK, POLL, RUN, SUBMIT, gapAtLeast, jobs, listPods, noKeyAt, pods, runBatch, runJob, statusOnly, submitOnce, simulatedWait, waitEnded, waitJob, type FaultCase } from "../case-kit.ts";

export const HEADER_AND_REDIRECT_CASES: FaultCase[] = [
  // Absurd and malformed headers.
  {
    name: "listPods: 429 with Retry-After 999999999: a RateLimitError at once, not retried",
    a: () => pods(problem(429, "slow down", { "Retry-After": "999999999" })),
    run: listPods,
    expect: { result: RateLimitError, counts: { [`GET ${PODS}`]: 1 } },
  },
  {
    name: "listPods: 429 with Retry-After a date in year 9999: a RateLimitError at once",
    a: () => pods(problem(429, "slow down", { "Retry-After": "Fri, 31 Dec 9999 23:59:59 GMT" })),
    run: listPods,
    expect: { result: RateLimitError, counts: { [`GET ${PODS}`]: 1 } },
  },
  {
    name: "listPods: 429s whose Retry-After is -5, abc, NaN, 1e309 or empty: backoff, then success",
    a: () => pods([...["-5", "abc", "NaN", "1e309", ""].map((value) => problem(429, "slow down", { "Retry-After": value })), PODS_OK]),
    run: (ctx) => listPods(ctx, { maxRetries: 5 }),
    expect: { result: "ok", counts: { [`GET ${PODS}`]: 6 } },
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
    expect: { result: "settles" },
  },
  {
    name: "runMany: answers with RateLimit r=0;t=3600: the batch ends at its timeoutMs",
    item: 4,
    a: () => jobs({ submit: (_, __, next) => ({ ...(next() as Extract<Reply, { kind: "respond" }>), headers: { "Content-Type": "application/json", RateLimit: '"minute";r=0;t=3600' } }) }),
    run: (ctx) => runBatch(ctx, { timeoutMs: 800 }),
    expect: { result: "settles" },
  },
  {
    name: "waitForJob: polls answered with RateLimit r=0;t=3600: a JobWaitError at the wait's timeoutMs",
    a: () => statusOnly(() => json(200, { id: "job-1", status: "IN_PROGRESS" }, { RateLimit: '"minute";r=0;t=3600' })),
    // Twenty minutes of a simulated clock: the pause the reset asks for (an hour) reaches the deadline after one poll.
    run: (ctx) => waitJob(ctx, simulatedWait(20 * 60_000, 20)),
    expect: { result: JobWaitError, counts: { [POLL()]: 1 }, check: waitEnded("timeout") },
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

];
