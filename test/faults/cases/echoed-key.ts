/**
 * The key echoed back, in every spelling, in bodies, headers, a job's error, field names: no key in
 * any error or log line.
 */
import { ApiError, AuthenticationError, JobFailedError, JobWaitError, ResponseValidationError, ServerError } from "../../../generated/gpu-cloud-client/src/index.ts";
import { cut, json, problem, respond } from "../fault-server.ts";
import { ECHOES, EVERY_ECHO, KEY, PODS, POLL, SUBMIT, batch, jobs, listPods, pods, runBatch, runJob, statusOnly, simulatedWait, waitEnded, waitJob, type FaultCase } from "../case-kit.ts";

export const ECHOED_KEY_CASES: FaultCase[] = [
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
    // One poll, then a minute's pause reaches the deadline: the wait has seen the job when it times out.
    run: (ctx) => waitJob(ctx, simulatedWait(60_000, 60_000)),
    expect: { result: JobWaitError, check: (outcome) => [...waitEnded("timeout")(outcome), ...((outcome.error as JobWaitError).lastJob === undefined ? ["the wait never saw the job"] : [])] },
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

];
