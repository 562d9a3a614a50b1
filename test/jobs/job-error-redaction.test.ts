/**
 * The job helpers' errors against a server that echoes the API key, in every spelling, in
 * whatever it sends: job ids, a job's `error` and other fields (names too), a window's name, a
 * file URL, a cancel's answer. Not only message, stack and JSON: every own field of each error,
 * enumerable or not, at any depth and down its cause chain, holds no spelling of the key, since
 * error reporters serialise own properties as they are.
 */
import { afterEach, describe, expect, it } from "vitest";
import {
  BatchAbortedError,
  BudgetExceededError,
  CostLimitError,
  DownloadError,
  GpuCloudClient,
  JobExpiredError,
  JobFailedError,
  JobWaitError,
  RateLimitError,
  RateLimitWaitError,
  UnexpectedResponseError,
  download,
  runAndWait,
  runMany,
  waitForJob,
} from "../../generated/gpu-cloud-client/src/index.ts";
import { startRecordingServer, type RecordedRequest, type RecordingServer, type Reply } from "../support/recording-server.ts";
import { echoesOf, leaks, needlesOf, ownStrings, surfacesOf } from "../support/secret-echoes.ts";
import { simulatedTime } from "../support/simulated-time.ts";

/** Characters JSON, HTML, URLs and JSON pointers each escape: every spelling of it differs. */
const KEY = `sk-live_J0b<&>"'/+=~errors0123456789abcdef`;
const ECHOES = echoesOf(KEY);
const EVERY_ECHO = Object.values(ECHOES).join(" | ");
const NEEDLES = needlesOf(KEY, Object.values(ECHOES));
const MODEL = "black-forest-labs-flux-1-dev";
/** A job id the server made up out of the request's Authorization header. */
const ECHOED_ID = `job-${EVERY_ECHO}`;
/** A job that echoes the key in its error, in a field's value and in a field's name. */
const echoingJob = (status: string, id = "job-1") => ({ id, status, error: `rejected: ${EVERY_ECHO}`, [KEY]: EVERY_ECHO, debug: { headers: { authorization: ECHOES["bearer"] } } });

let server: RecordingServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const json = (status: number, body: unknown, headers: Record<string, string> = {}): Reply => ({ status, headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
/** The operation a request is for: `run`, `status`, `cancel`, `retry`… */
const operationOf = (request: RecordedRequest) => new URL(request.url, "http://x").pathname.split("/")[3];

async function serve(reply: (request: RecordedRequest) => Reply): Promise<GpuCloudClient> {
  server = await startRecordingServer(reply);
  return new GpuCloudClient({ apiKey: KEY, baseUrl: server.url, publicEndpointBaseUrl: server.url, maxRetries: 0 });
}

/** The error a call threw (or, for a batch, each failed item's error). */
async function failure(call: Promise<unknown>): Promise<unknown> {
  const outcome = await call.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  if ("error" in outcome) return outcome.error;
  throw new Error(`resolved: ${JSON.stringify(outcome.value)}`);
}

/**
 * No spelling of the key anywhere in the error: its own fields (every one, at any depth, the cause
 * chain included) and every way it shows itself. `echoed` names the fields the server's words
 * reached, blanked: proof that the case put the key in the error at all.
 */
function expectNoKey(error: unknown, echoed: string[]): void {
  expect(leaks(ownStrings(error), NEEDLES), "own fields").toEqual([]);
  expect(leaks(surfacesOf(error), NEEDLES), "message, stack, JSON, util.inspect").toEqual([]);
  for (const field of echoed) expect(JSON.stringify(ownStrings((error as Record<string, unknown>)[field])), field).toContain("[REDACTED]");
}

describe("job errors keep only the blanked copy of what the server echoed", () => {
  it("JobFailedError from a poll: the job, its error, its id and status", async () => {
    const client = await serve(() => json(200, echoingJob("FAILED", ECHOED_ID)));
    const error = await failure(waitForJob(client, MODEL, "job-1", { intervalMs: 1 }));
    expect(error).toBeInstanceOf(JobFailedError);
    expectNoKey(error, ["job", "reason", "jobId"]);
  });

  it("JobFailedError from a submission answered 400 with the failed job", async () => {
    const client = await serve(() => json(400, echoingJob("FAILED", ECHOED_ID)));
    const error = await failure(runAndWait(client, MODEL, { prompt: "p" }));
    expect(error).toBeInstanceOf(JobFailedError);
    expectNoKey(error, ["job", "reason", "jobId"]);
  });

  it("JobFailedError after a retry the service refused, saying why", async () => {
    const time = simulatedTime();
    const client = await serve((request) => {
      const operation = operationOf(request);
      if (operation === "run") return json(200, { id: ECHOED_ID, status: "IN_QUEUE" });
      if (operation === "retry") return json(409, { title: "Conflict", status: 409, detail: `not for ${EVERY_ECHO}` }, { "x-echo": ECHOES["bearer"]! });
      return json(200, echoingJob("FAILED", ECHOED_ID));
    });
    const error = await failure(runAndWait(client, MODEL, { prompt: "p" }, { retryFailed: 1, now: time.now, sleep: time.sleep }));
    expect(error).toBeInstanceOf(JobFailedError);
    expect((error as JobFailedError).retryRefused).toBeDefined();
    expectNoKey(error, ["job", "reason", "jobId"]);
  });

  it("JobWaitError at the wait's timeout: the last job seen, and the cancellation's report", async () => {
    const time = simulatedTime();
    const client = await serve((request) => {
      const operation = operationOf(request);
      if (operation === "run") return json(200, { id: ECHOED_ID, status: "IN_QUEUE" });
      if (operation === "cancel") return json(200, { id: ECHOED_ID, status: "CANCELLED" });
      return json(200, echoingJob("IN_PROGRESS", ECHOED_ID));
    });
    const error = await failure(runAndWait(client, MODEL, { prompt: "p" }, { cancelOnAbort: true, timeoutMs: 5_000, now: time.now, sleep: time.sleep }));
    expect(error).toBeInstanceOf(JobWaitError);
    expect((error as JobWaitError).cancellation?.cancelled).toHaveLength(1);
    expectNoKey(error, ["lastJob", "jobId", "cancellation"]);
  });

  it("JobExpiredError for a job id the server made up", async () => {
    const client = await serve((request) => (operationOf(request) === "run" ? json(200, { id: ECHOED_ID, status: "IN_QUEUE" }) : json(404, { error: `no ${EVERY_ECHO}` })));
    const error = await failure(runAndWait(client, MODEL, { prompt: "p" }, { intervalMs: 1 }));
    expect(error).toBeInstanceOf(JobExpiredError);
    expectNoKey(error, ["jobId"]);
  });

  it("BatchAbortedError: the accepted ids, the finished items' results, the cancellation", async () => {
    const time = simulatedTime();
    const controller = new AbortController();
    let submitted = 0;
    const client = await serve((request) => {
      const operation = operationOf(request);
      if (operation === "run") return json(200, { id: `${ECHOED_ID}-${++submitted}`, status: "IN_QUEUE" });
      if (operation === "cancel") return json(200, { status: "CANCELLED" });
      const id = decodeURIComponent(new URL(request.url, "http://x").pathname.split("/").pop()!);
      // The first job completes with an output that echoes the key; the second runs on.
      return json(200, id.endsWith("-1") ? { ...echoingJob("COMPLETED", id), output: { image_url: `https://files.example.org/${encodeURIComponent(KEY)}.png`, note: EVERY_ECHO, cost: 0.02 } } : echoingJob("IN_PROGRESS", id));
    });
    // The caller gives up once the first job has finished and the second has been polled.
    const sleep = async (ms: number, signal?: AbortSignal) => {
      if (server!.requests.filter((request) => operationOf(request) === "status").length >= 3) controller.abort();
      await time.sleep(ms, signal);
    };
    const error = await failure(runMany(client, MODEL, [{ prompt: "a" }, { prompt: "b" }], { concurrency: 1, cancelOnAbort: true, signal: controller.signal, now: time.now, sleep }));
    expect(error).toBeInstanceOf(BatchAbortedError);
    expect((error as BatchAbortedError).items[0]?.ok).toBe(true);
    expectNoKey(error, ["acceptedJobIds", "items", "cancellation"]);
  });

  it("RateLimitWaitError: the name of the window the server reported", async () => {
    const time = simulatedTime();
    // A structured-field string: its backslashes and quotes escaped.
    const window = `"${EVERY_ECHO.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
    const client = await serve(() => json(200, { id: "job-1", status: "COMPLETED", output: { image_url: "https://files.example.org/1.png" } }, { ratelimit: `${window};r=0;t=3600`, "ratelimit-policy": `${window};q=1;w=3600` }));
    const batch = await runMany(client, MODEL, [{ prompt: "a" }, { prompt: "b" }], { concurrency: 1, timeoutMs: 60_000, now: time.now, sleep: time.sleep });
    const held = batch.items[1]!;
    const error = held.ok ? undefined : held.error;
    expect(error).toBeInstanceOf(RateLimitWaitError);
    expectNoKey(error, ["window"]);
  });

  it("DownloadError: the file's URL, and the cause a network failure gave", async () => {
    // The file host is not the API: the client is alive only so that its key is known to be a secret.
    const client = await serve(() => ({ status: 403, body: `denied: ${EVERY_ECHO}` }));
    const url = `${server!.url}/files/${encodeURIComponent(EVERY_ECHO)}.png?signature=s`;
    const refused = await failure(download({ url }));
    expect(refused).toBeInstanceOf(DownloadError);
    expectNoKey(refused, ["url"]);
    const broken = async () => Promise.reject(Object.assign(new TypeError(`fetch failed for ${EVERY_ECHO}`), { cause: new Error(`connect refused: ${EVERY_ECHO}`) }));
    const failed = await failure(download({ url }, { fetch: broken as typeof fetch }));
    expect(failed).toBeInstanceOf(DownloadError);
    expect((failed as DownloadError).reason).toBe("network");
    expectNoKey(failed, ["url", "cause"]);
    expect(client).toBeInstanceOf(GpuCloudClient);
  });

  it("UnexpectedResponseError and RateLimitError of a submission: the raw body and headers", async () => {
    // Raw JSON text holding each echo as the server wrote it: an echo already JSON-escaped goes in as it is (JSON.stringify
    // would escape it again, a spelling no client is asked to know); the others as JSON escapes them.
    const echoesInJson = Object.values(ECHOES).map((echo) => (echo.includes("\\") ? echo : JSON.stringify(echo).slice(1, -1))).join(" | ");
    const raw = (status: number, text: string, headers: Record<string, string> = {}): Reply => ({ status, headers: { "content-type": "application/json", ...headers }, body: text });
    const unusable = await serve(() => raw(200, `{"note": "${echoesInJson}"}`));
    const unexpected = await failure(runAndWait(unusable, MODEL, { prompt: "p" }));
    expect(unexpected).toBeInstanceOf(UnexpectedResponseError);
    expectNoKey(unexpected, ["rawBody"]);
    await server!.close();
    const refusing = await serve(() => raw(429, `{"title": "Too Many Requests", "status": 429, "detail": "${echoesInJson}"}`, { "retry-after": "3600", "x-echo": ECHOES["bearer"]! }));
    const refused = await failure(runAndWait(refusing, MODEL, { prompt: "p" }, { timeoutMs: 10_000 }));
    expect(refused).toBeInstanceOf(RateLimitError);
    expectNoKey(refused, ["rawBody", "headers"]);
  });

  it("CostLimitError and BudgetExceededError, which quote no server, hold no key either", async () => {
    const client = await serve(() => json(200, { id: "job-1", status: "COMPLETED", output: { image_url: "https://files.example.org/1.png", cost: 0.02 } }));
    const costly = await failure(runAndWait(client, MODEL, { prompt: "p" }, { maxCostUsd: 0.001 }));
    expect(costly).toBeInstanceOf(CostLimitError);
    expectNoKey(costly, []);
    const batch = await runMany(client, MODEL, [{ prompt: "a" }, { prompt: "b" }], { concurrency: 1, maxTotalCostUsd: 0.03 });
    const over = batch.items[1]!;
    expect(over.ok ? undefined : over.error).toBeInstanceOf(BudgetExceededError);
    expectNoKey(over.ok ? undefined : over.error, []);
  });
});
