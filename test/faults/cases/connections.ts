/**
 * What a broken connection does to a call: connections reset before and after the request is read,
 * bodies cut short, bodies that trickle, servers that never answer.
 */
import { ApiError, ConnectionError, JobWaitError, ServerError, TimeoutError } from "../../../generated/gpu-cloud-client/src/index.ts";
import { cut, raw, reset, respond, silent, trickle } from "../fault-server.ts";
import { PODS, PODS_OK, POLL, SUBMIT, batch, jobs, listPods, pods, attempts, runBatch, runJob, statusOnly, submitOnce, timedOutAt, waitEnded, waitJob, type FaultCase } from "../case-kit.ts";

export const CONNECTION_CASES: FaultCase[] = [
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
  // A case about the client's timeout gives it 400 ms: a body that takes 10 s, or never comes, outlasts it on any machine.
  {
    name: "listPods: a body trickled past the timeout every time: retried like a silent server, then a TimeoutError",
    item: 7,
    a: () => pods(trickle(200, `{"pods":[],"n":"${"0".repeat(100)}"}`, 1, 100)),
    run: (ctx) => listPods(ctx, { timeoutMs: 400 }),
    expect: { result: TimeoutError, check: attempts(3) },
  },
  {
    name: "run (POST): a body trickled past the timeout: a TimeoutError, not sent again",
    a: () => jobs({ submit: () => trickle(200, `{"id":"job-1","status":"IN_QUEUE","n":"${"0".repeat(100)}"}`, 1, 100) }),
    run: (ctx) => submitOnce(ctx, { timeoutMs: 400 }),
    expect: { result: TimeoutError, check: attempts(1) },
  },

  // Servers that never answer.
  {
    name: "listPods: a silent server: retried, then a TimeoutError",
    a: () => pods(silent()),
    run: (ctx) => listPods(ctx, { timeoutMs: 400 }),
    expect: { result: TimeoutError, check: attempts(3) },
  },
  {
    name: "run (POST): a silent server: a TimeoutError, not sent again",
    a: () => jobs({ submit: () => silent() }),
    run: (ctx) => submitOnce(ctx, { timeoutMs: 400 }),
    expect: { result: TimeoutError, check: (outcome, ctx) => [...timedOutAt(400)(outcome), ...attempts(1)(outcome, ctx)] },
  },
  {
    name: "runAndWait: a silent submission ends at the run's timeoutMs (600 ms), not the client's (3 s)",
    item: 3,
    a: () => jobs({ submit: () => silent() }),
    run: (ctx) => runJob(ctx, { timeoutMs: 600 }, { timeoutMs: 3_000 }),
    expect: { result: "typed", check: (outcome, ctx) => [...timedOutAt(600)(outcome), ...attempts(1)(outcome, ctx)] },
  },
  {
    name: "runMany: silent submissions end at the batch's timeoutMs (600 ms), not the client's (3 s)",
    item: 3,
    a: () => jobs({ submit: () => silent() }),
    run: (ctx) => runBatch(ctx, { timeoutMs: 600 }, { timeoutMs: 3_000 }),
    expect: { result: "settles", check: (outcome, ctx) => [...timedOutAt(600)(outcome), ...attempts(1, 3)(outcome, ctx)] },
  },
  {
    name: "waitForJob: a silent status endpoint: a JobWaitError at the wait's timeoutMs",
    a: () => statusOnly(() => silent()),
    // The client would wait 3 s per attempt and try three times: the wait's deadline cuts the first.
    run: (ctx) => waitJob(ctx, { timeoutMs: 600 }, { timeoutMs: 3_000 }),
    expect: { result: JobWaitError, check: (outcome, ctx) => [...waitEnded("timeout")(outcome), ...attempts(1)(outcome, ctx)] },
  },

];
