/**
 * Success answers without the shape the job helpers need (null, [], a string, {}, a job without its
 * id, an empty 200, a 204): a typed error that is not the caller's fault, and a job never submitted twice.
 */
import { InvalidRequestError, JobWaitError, ResponseValidationError } from "../../../generated/gpu-cloud-client/src/index.ts";
import { json, respond, type Reply } from "../fault-server.ts";
import { SUBMIT, batch, jobs, listPods, not, pods, runBatch, runJob, statusOnly, waitJob, type FaultCase } from "../case-kit.ts";

const WRONG_SHAPES: Array<[string, Reply]> = [
  ["null", respond(200, "null", { "Content-Type": "application/json" })],
  ["[]", json(200, [])],
  ['"x"', json(200, "x")],
  ["{}", json(200, {})],
  ['{"status":"IN_QUEUE"} (no id)', json(200, { status: "IN_QUEUE" })],
  ["an empty 200", respond(200, "", { "Content-Type": "application/json" })],
  ["204", respond(204)],
];

export const UNUSABLE_ANSWER_CASES: FaultCase[] = [
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
      run: (ctx) => waitJob(ctx),
      expect: { result: "typed", check: not(JobWaitError, "an answer that is not a job ends the wait at once, not at its deadline") },
    }),
  ),
  {
    name: "waitForJob with validateResponses: a status poll answered 204: a typed error",
    item: 1,
    a: () => statusOnly(() => respond(204)),
    run: (ctx) => waitJob(ctx, {}, { validateResponses: true }),
    expect: { result: "typed", check: not(JobWaitError, "an answer that is not a job ends the wait at once, not at its deadline") },
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

];
