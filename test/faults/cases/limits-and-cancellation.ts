/**
 * Quotas that answer 429, numbers that make no sense (refused before any request), memory bounded
 * by maxResponseBytes, and a caller that aborts: no listener, timer or socket left.
 */
import { AbortedError, BatchAbortedError, InvalidRequestError, RateLimitError, ServerError, TimeoutError } from "../../../generated/gpu-cloud-client/src/index.ts";
import { endless, json, problem, silent } from "../fault-server.ts";
import { INPUT, MODEL, PODS, PODS_OK, POLL, SUBMIT, batch, gapAtLeast, jobs, listPods, not, pods, quota, runBatch, runJob, submitOnce, waitJob, type FaultCase } from "../case-kit.ts";

export const LIMIT_AND_CANCELLATION_CASES: FaultCase[] = [
  // Quotas that answer 429.
  {
    name: "runAndWait: a submission refused with 429, then accepted: sent again only after the refusal",
    a: () => jobs({ submit: (_, n, next) => (n === 1 ? problem(429, "quota", { "Retry-After": "0" }) : next()) }),
    run: (ctx) => runJob(ctx),
    expect: { result: "ok", counts: { [SUBMIT]: 2, [POLL()]: 2 }, check: gapAtLeast(900) },
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
    run: (ctx) => runBatch(ctx, { concurrency: 3 }),
    expect: { result: "ok", check: batch(3) },
  },

  // Numbers that make no sense, refused before any request.
  {
    name: "waitForJob({ intervalMs: NaN }): refused before any request",
    item: 5,
    run: (ctx) => waitJob(ctx, { intervalMs: Number.NaN }),
    expect: { result: InvalidRequestError, counts: {} },
  },
  {
    name: "waitForJob({ intervalMs: -5 }): refused before any request",
    item: 5,
    run: (ctx) => waitJob(ctx, { intervalMs: -5 }),
    expect: { result: InvalidRequestError, counts: {} },
  },
  {
    name: "runMany({ concurrency: NaN }): refused before any request",
    item: 5,
    run: (ctx) => runBatch(ctx, { concurrency: Number.NaN }),
    expect: { result: InvalidRequestError, counts: {} },
  },
  {
    name: "runModel with NaN and Infinity in an input field no schema types: refused before any request",
    item: 5,
    run: (ctx) => ctx.client().runModel("custom-model" as typeof MODEL, { strength: Number.NaN, scale: Number.POSITIVE_INFINITY } as never),
    expect: { result: InvalidRequestError, counts: {} },
  },

  // Bounded memory.
  {
    name: "listPods: a 2xx body that never ends stops at maxResponseBytes (1 MiB) with a typed error, not at the timeout",
    item: 10,
    a: () => pods(endless(200, 64 * 1024, 2)),
    run: (ctx) => listPods(ctx, { maxResponseBytes: 1024 * 1024, maxRetries: 0 }),
    expect: {
      result: "typed",
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
    run: (ctx) => runBatch(ctx, { concurrency: 20 }, {}, Array.from({ length: 20 }, (_, i) => ({ ...INPUT, prompt: `p${i}` }))),
    expect: { result: "ok", check: batch(20) },
  },
  {
    name: "runMany aborted by the caller while jobs run: a BatchAbortedError, no listener or timer left",
    a: () => jobs({ status: (request) => json(200, { id: request.path.split("/").pop(), status: "IN_PROGRESS" }) }),
    run: (ctx) => {
      setTimeout(() => ctx.abort(new Error("caller left")), 150);
      return runBatch(ctx);
    },
    expect: { result: BatchAbortedError },
  },
  {
    name: "listPods aborted while the server is silent: an AbortedError, the socket closed",
    // The caller leaves once the server has the request.
    a: (ctx) =>
      pods(() => {
        ctx.abort(new Error("caller left"));
        return silent();
      }),
    run: listPods,
    expect: { result: AbortedError, counts: { [`GET ${PODS}`]: 1 } },
  },
];
